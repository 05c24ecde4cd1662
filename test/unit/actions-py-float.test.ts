// Python's float beside its int in workflow values (py-float.ts) and Python's json.loads (pyJsonParse, the
// reader of --input, --state and a run: block's replies): repr pinned against CPython 3.11's, and
// properties over any JSON text and any double.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { floatRepr, plainValue, PyFloat, pyArith } from '../../src/actions/workflow/py-float.js';
import { pyJsonParse, stateJson } from '../../src/actions/workflow/py-json.js';

describe('Python floats', () => {
  // [value, CPython's repr]
  const reprs: [number, string][] = [
    [2, '2.0'], [1e20, '1e+20'], [1e16, '1e+16'], [1e-5, '1e-05'], [0.1 + 0.2, '0.30000000000000004'],
    [1.2345678901234568e20, '1.2345678901234568e+20'], [-0, '-0.0'], [123.456, '123.456'], [1e-4, '0.0001'],
    [0.0001234, '0.0001234'], [5e-324, '5e-324'], [1.7976931348623157e308, '1.7976931348623157e+308'],
    [1e15, '1000000000000000.0'], [123456789012345.6, '123456789012345.6'], [9999999999999998, '9999999999999998.0'],
    [-2.5e-7, '-2.5e-07'], [Infinity, 'inf'], [NaN, 'nan'],
  ];
  it.each(reprs)('repr(%d) is %s', (x, want) => {
    expect(floatRepr(x)).toBe(want);
  });

  it('floatRepr reads back as the same double, in Python\'s shape', () => {
    fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
      const s = floatRepr(x);
      expect(Number(s)).toBe(x);
      expect(s).toMatch(/^-?(\d+\.\d+|\d(\.\d+)?e[-+]\d{2,3})$/);
    }));
  });

  it('int op int is an int, / is a float, a float anywhere makes a float, x / 0 is a ZeroDivisionError', () => {
    expect(pyArith('/', 4, 2)).toEqual(new PyFloat(2));
    expect(pyArith('//', 7, 2)).toBe(3);
    expect(pyArith('//', new PyFloat(7), 2)).toEqual(new PyFloat(3));
    expect(pyArith('%', -7, 3)).toBe(2);
    expect(pyArith('**', 2, -1)).toBe(0.5);
    expect(pyArith('**', 10, -5)).toBe(1e-5);
    expect(pyArith('*', new PyFloat(2), 3)).toEqual(new PyFloat(6));
    expect(pyArith('+', true, 1)).toBe(2);
    expect(() => pyArith('/', 1, 0)).toThrow('ZeroDivisionError: division by zero');
    expect(() => pyArith('%', new PyFloat(1), 0)).toThrow('ZeroDivisionError: float modulo');
  });
});

describe('the float box', () => {
  // Before: the box was a plain object with an own "value" key, so templates saw {value: 2} (a mapping of
  // length 1) and could change it; and toEqual compared boxes by that key.
  it('is frozen and opaque: no own keys, not a plain object, its number compared by toEqual', () => {
    const f = new PyFloat(2);
    expect(Object.keys(f)).toEqual([]);
    expect(Object.isFrozen(f)).toBe(true);
    expect(Object.prototype.toString.call(f)).not.toBe('[object Object]');
    expect(() => { (f as unknown as Record<string, unknown>).value = 1000; }).toThrow(TypeError);
    expect(f.value).toBe(2);
    expect(JSON.stringify({ f })).toBe('{"f":2}');
    expect(new PyFloat(2)).not.toEqual(new PyFloat(3));
    expect(new PyFloat(0)).not.toEqual(new PyFloat(-0));
    expect(new PyFloat(2)).toEqual(new PyFloat(2));
  });
});

describe('pyJsonParse (Python\'s json.loads)', () => {
  it('keeps a float a float and reads NaN and Infinity', () => {
    expect(pyJsonParse('[1.0, 2, 1e2, -0.0, 1E-2, NaN, Infinity, -Infinity, 0.5]')).toEqual([new PyFloat(1), 2, new PyFloat(100), new PyFloat(-0), 0.01, NaN, Infinity, -Infinity, 0.5]);
    expect(Object.keys(pyJsonParse('{"__proto__": 1}') as object)).toEqual(['__proto__']);
  });

  it.each(['', '{"a":}', '[1,]', '01', 'nan', '{"a" 1}', '[1] x', '"\\x"', '{a: 1}'])('refuses %j as json.loads does', (text) => {
    expect(() => pyJsonParse(text)).toThrow(SyntaxError);
  });

  it('reads any JSON text as JSON.parse does, but for the floats it keeps', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => {
      const text = JSON.stringify(v);
      expect(plainValue(pyJsonParse(text))).toEqual(JSON.parse(text));
    }));
  });

  it('the printed state reads back as the same value; a whole float prints 2.0, a whole plain number as an int', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => {
      const out = stateJson(v);
      expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(v)));
    }));
    expect(stateJson({ a: new PyFloat(2), b: [new PyFloat(1e20), 1e20, 3], c: {} })).toBe('{\n  "a": 2.0,\n  "b": [\n    1e+20,\n    100000000000000000000,\n    3\n  ],\n  "c": {}\n}');
  });
});
