// Jinja2's filters as the workflow runner renders them, each row checked against jinja2 3.1.6 (the
// Python TEA runs): the template, then the value Python gives (a lone {{ expr }} keeps its type).
import { describe, expect, it } from 'vitest';
import { PyFloat } from '../../src/actions/workflow/py-float.js';
import { renderValue } from '../../src/actions/workflow/templates.js';

const ctx = { state: { s: 'banana' }, variables: {}, settings: {}, env: {} };

describe('Jinja filters as Jinja2 answers them', () => {
  // float: only Python's spellings of nan and inf are those values; before, any text containing "nan"
  // ("banana") was NaN, and "_1" | float and "1__0" | float were 1 and 10 (underscores were dropped).
  const floats: [string, unknown][] = [
    ['{{ "banana" | float }}', 0],
    ['{{ state.s | float(1.5) }}', 1.5],
    ['{{ "nan1" | float }}', 0],
    ['{{ "infinite" | float(2) }}', 2],
    ['{{ " nan " | float }}', NaN],
    ['{{ "-NaN" | float }}', NaN],
    ['{{ "+nan" | float(3) }}', NaN],
    ['{{ "iNF" | float }}', Infinity],
    ['{{ " -Infinity\\n" | float }}', -Infinity],
    ['{{ "1_0.5" | float }}', 10.5],
    ['{{ "_1" | float }}', 0],
    ['{{ "1__0" | float }}', 0],
    ['{{ "1_e5" | float }}', 0],
    ['{{ "+.5e-1_0" | float }}', 5e-11],
    ['{{ "5." | float }}', new PyFloat(5)],
    ['{{ "nan" | int }}', 0],
    ['{{ "inf" | int(5) }}', 5],
    ['{{ " 1_000 " | int }}', 1000],
    ['{{ "1__0" | int }}', 0],
    ['{{ "1e3" | int }}', 1000],
    ['{{ "1_0.5" | int }}', 10],
  ];
  it.each(floats)('%s is %s', (template, want) => {
    expect(renderValue(template, ctx)).toEqual(want);
  });
  it('nan and inf print as Python prints them (JavaScript wrote NaN and Infinity)', () => {
    expect(renderValue('a{{ "nan" | float }}|{{ "-inf" | float }}|{{ ["inf" | float] }}', ctx)).toBe('anan|-inf|[inf]');
  });

  // round: Python's round(x, precision) of the exact value, half to even, for any precision; a negative
  // one threw a raw RangeError ({{ 25 | round(-1) }}: toFixed(-1)), one over 100 too.
  const rounds: [string, number][] = [
    ['{{ 25 | round(-1) }}', 20],
    ['{{ 35 | round(-1) }}', 40],
    ['{{ 1234.5678 | round(-2) }}', new PyFloat(1200)],
    ['{{ -1250 | round(-2) }}', -1200],
    ['{{ 2.675 | round(2) }}', 2.67],
    ['{{ 0.125 | round(2) }}', 0.12],
    ['{{ 2.5 | round(400) }}', 2.5],
    ['{{ -1.5 | round(-400) }}', new PyFloat(-0)],
    ['{{ 0.5 | round }}', new PyFloat(0)],
    ['{{ 1.5 | round }}', new PyFloat(2)],
    ['{{ 15 | round(-1, "floor") }}', new PyFloat(10)],
    ['{{ 15 | round(-1, "ceil") }}', new PyFloat(20)],
  ];
  it.each(rounds)('%s is %s', (template, want) => {
    expect(renderValue(template, ctx)).toEqual(want);
  });

  // select/reject without a test and default(x, true) use Python's truth: [] and {} are false
  // (JavaScript's truth kept [] and {} in select and left them in place in default(x, true)).
  const truth: [string, string][] = [
    ['{{ [[], [1], {}, 0, "", "a"] | select | list }}|{{ [[], [1], {}, 0] | reject | list }}', "[[1], 'a']|[[], {}, 0]"],
    ['{{ [1, 2, 3, 4] | select("odd") | list }}|{{ [1, 2, 3, 4] | reject("gt", 2) | list }}', '[1, 3]|[1, 2]'],
    ['{{ [] | default("x", true) }}|{{ {} | default("x", true) }}|{{ [0] | default("x", true) }}|{{ [] | default("x") }}', 'x|x|[0]|[]'],
    ['{{ [] | d("y", true) }}|{{ 0 | default("x", boolean=true) }}|{{ none | default("x", true) }}|{{ none | default("x") }}', 'y|x|x|None'],
    ['{{ 1 in {"1": 2} }}|{{ "1" in {"1": 2} }}', 'False|True'],
  ];
  it.each(truth)('%s renders %s', (template, want) => {
    expect(renderValue(template, ctx)).toBe(want);
  });
});
