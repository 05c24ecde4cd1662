// Regression (issue 28, item 3): a workflow template ran arbitrary code through nunjucks' constructor
// lookups ({{ range.constructor("return process...")() }}). Every known escape payload must render as
// an error or as harmless text, and none may run: each one here would write a marker file.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { condition, renderValue } from '../../src/actions/workflow/templates.js';

const dir = mkdtempSync(path.join(tmpdir(), 'simgrep-sandbox-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
/** JavaScript that creates a marker file if it ever runs, as a template string literal. */
function code(): { js: string; marker: string } {
  const marker = path.join(dir, `ran-${n++}`);
  return { js: JSON.stringify(`process.getBuiltinModule('fs').writeFileSync(${JSON.stringify(marker)}, 'x'); return 'RAN'`), marker };
}

const ctx = () => ({ state: { s: 'text', items: [1, 2], doc: { title: 'T' } }, variables: {}, settings: {}, env: {} });

// Each payload is a template with CODE where the JavaScript goes (nunjucks and Jinja escapes, from
// tplmap/SSTImap, the nunjucks issue tracker, and the variants a patch of one lookup would miss).
const payloads: [string, string][] = [
  ['range.constructor', '{{ range.constructor(CODE)() }}'],
  ['cycler.constructor', '{{ cycler.constructor(CODE)() }}'],
  ['joiner.constructor', '{{ joiner.constructor(CODE)() }}'],
  ['a cycler method', '{{ cycler(1, 2).next.constructor(CODE)() }}'],
  ['what joiner() returns', '{{ joiner().constructor(CODE)() }}'],
  ['"".constructor.constructor', '{{ "".constructor.constructor(CODE)() }}'],
  ['[].constructor.constructor', '{{ [].constructor.constructor(CODE)() }}'],
  ['a set dict', '{% set o = {} %}{{ o.constructor.constructor(CODE)() }}'],
  ['state.constructor', '{{ state.constructor.constructor(CODE)() }}'],
  ['a string method', '{{ state.s.toString.constructor(CODE)() }}'],
  ['a jinja dict method', '{{ state.get.constructor(CODE)() }}'],
  ['an array method', '{{ state.items.map.constructor(CODE)() }}'],
  ['bracket lookup', '{{ range["constructor"](CODE)() }}'],
  ['a computed name', '{{ range["constr" ~ "uctor"](CODE)() }}'],
  ['an object key that turns into "constructor"', '{{ range[{"toString": "constructor".toString}](CODE)() }}'],
  ['__proto__', '{{ state.__proto__.constructor.constructor(CODE)() }}'],
  ['a function\'s call', '{{ range.call.constructor(CODE)() }}'],
  ['a function\'s bind', '{{ range.bind(none).constructor(CODE)() }}'],
  ['a bare constructor (Object.prototype of the context)', '{{ constructor.constructor(CODE)() }}'],
  ['a bare toString', '{{ toString.constructor(CODE)() }}'],
  ['Object statics from a bare constructor', '{{ constructor.getOwnPropertyDescriptor(constructor.getPrototypeOf(range), "constructor").value(CODE)() }}'],
  ['__lookupGetter__', '{{ state.__lookupGetter__("__proto__").constructor(CODE)() }}'],
  ['a loop variable', '{% for x in [1] %}{{ loop.constructor.constructor(CODE)() }}{% endfor %}'],
  ['caller in a macro', '{% macro m() %}{{ caller.constructor(CODE)() }}{% endmacro %}{% call m() %}x{% endcall %}'],
  ['a set alias', '{% set f = range %}{{ f.constructor(CODE)() }}'],
  ['a regex literal', '{{ r/x/.constructor.constructor(CODE)() }}'],
  ['a ternary', '{{ range.constructor(CODE)() if true else "safe" }}'],
  ['a slice', '{{ (range[0:1]).constructor(CODE)() }}'],
  ['attr filter (Jinja)', '{{ ([] | attr("constructor"))(CODE)() }}'],
  ['a filter named constructor', '{{ CODE | constructor }}'],
  ['a test named constructor', '{{ CODE is constructor }}'],
  ['lipsum (Jinja)', '{{ lipsum.__globals__.os.popen(CODE).read() }}'],
  ['Jinja __class__', '{{ "".__class__.__mro__[1].__subclasses__() }}'],
];

describe('workflow templates cannot reach the host (issue 28 item 3)', () => {
  it.each(payloads)('%s: an error or harmless text, and nothing runs', (_name, template) => {
    const { js, marker } = code();
    const t = template.replace('CODE', js);
    let out: unknown;
    try { out = renderValue(t, ctx()); } catch (e) {
      expect((e as Error).message).toMatch(/^template /);
      out = undefined;
    }
    expect(existsSync(marker)).toBe(false);
    expect(typeof out === 'function').toBe(false);
    // A lone expression that raises a Python error (the slice of a function) gives back its own text, as TEA's does.
    if (out !== t) expect(String(out ?? '')).not.toMatch(/RAN|native code/);
  });

  it.each(payloads)('%s as a when: condition: an error or a boolean, and nothing runs', (_name, template) => {
    const { js, marker } = code();
    const expr = /^\{\{ (.*) \}\}$/.exec(template)?.[1];
    if (!expr) return;
    try { condition(expr.replace('CODE', js), ctx()); } catch (e) { expect((e as Error).message).toMatch(/^template /); }
    expect(existsSync(marker)).toBe(false);
  });

  const refused: [string, RegExp][] = [
    ['{{ range.constructor }}', /"constructor" cannot be read in a template/],
    ['{{ state.__proto__ }}', /"__proto__" cannot be read in a template/],
    ['{{ state.doc.prototype }}', /"prototype" cannot be read in a template/],
    ['{{ constructor }}', /"constructor" cannot be read in a template/],
    ['{{ range.name }}', /cannot read members of a function/],
    ['{% include "/etc/passwd" %}', /template not found/],
    ['{% import "x.njk" as x %}', /template not found/],
    ['{% extends "x.njk" %}', /template not found/],
    ['{{ 1 | constructor }}', /filter not found: constructor/],
    // In text: a lone {{ toString }} is None, as Jinja2's compile_expression gives for an undefined name.
    ['x {{ toString }}', /undefined/],
    ['x {{ process }}', /undefined/],
  ];
  // Jinja's dict methods read this[key] themselves: setdefault("__proto__") gave out Object.prototype,
  // and .update() on it added a key to every object of the process.
  it('dict.get/setdefault/pop cannot hand out a prototype or a constructor (no prototype pollution)', () => {
    for (const t of ['{{ state.setdefault("__proto__").update({"polluted": "yes"}) }}', '{{ state.pop("__proto__") }}', '{{ state.get("constructor") }}', '{{ state.has_key("__proto__") }}']) {
      expect(() => renderValue(t, ctx()), t).toThrow(/cannot be read in a template/);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(renderValue('{{ state.setdefault("fresh", 5) }}', ctx())).toBe(5);
    expect(renderValue('{{ state.pop("s") }}', ctx())).toBe('text');
  });

  it.each(refused)('%s is refused with a message that says why', (template, message) => {
    expect(() => renderValue(template, ctx())).toThrow(message);
  });

  // A template cannot run the process out of memory: [0] * 1e9 aborted node (heap out of memory,
  // signal 6), [0] * 2e7 took 8.5 s, "=" * 6e8 and "%999999999d" threw a bare "Invalid string length".
  const tooLarge: [string, RegExp][] = [
    ['{{ [0] * 1000000000 }}', /MemoryError: a list \* 1000000000 would make 1,000,000,000 items, over the 10,000,000 items a template may build; repeat it fewer times/],
    ['{{ [0, 1] * 6000000 }}', /MemoryError: a list \* 6000000 would make 12,000,000 items/],
    ['x {{ 1.5 * [0] }}', /can't multiply sequence by non-int of type 'float'/],
    ['{{ "=" * 600000000 }}', /MemoryError: a string \* 600000000 would make 600,000,000 characters, over the 67,108,864 characters a template may build; repeat it fewer times/],
    ['{{ "%999999999d" % 1 }}', /MemoryError: the width of "%999999999d" would make 999,999,999 characters, over the 67,108,864 characters a template may build; give a smaller width/],
    ['{{ "%.999999999f" % 1 }}', /MemoryError: the precision of "%.999999999f" would make 999,999,999 characters.*give a smaller precision/],
    // str.format kept only its width bounded: "{:.999999999f}" threw "Invalid string length" (so a lone
    // one gave back its text), "{:.70000000f}" built 70 million digits, and ("{0}" * 7).format of 10
    // million characters built 70 million; % formatting's many conversions did the same.
    ['{{ "{:.999999999f}".format(1.5) }}', /MemoryError: the precision of "\{:.999999999f\}" would make 999,999,999 characters, over the 67,108,864 characters a template may build; give a smaller precision/],
    ['x {{ "{:.70000000f}".format(1.5) }}', /MemoryError: the precision of "\{:.70000000f\}" would make 70,000,000 characters/],
    ['{{ "{:99999999}".format(1) }}', /MemoryError: the width of "\{:99999999\}" would make 99,999,999 characters.*give a smaller width/],
    ['{{ ("{0}" * 7).format("x" * 10000000) }}', /MemoryError: a str.format's first 7 fields would make 70,000,000 characters, over the 67,108,864 characters a template may build; format fewer or shorter values/],
    ['{{ ("{0}" * 50).format("x" * 10000000) }}', /MemoryError: a str.format's first 7 fields would make 70,000,000 characters/],
    // range() built any length: range(10 ** 9) ran the heap out.
    ['{{ range(1000000000) | length }}', /MemoryError: a range of 1000000000 would make 1,000,000,000 items, over the 10,000,000 items a template may build; take a shorter range/],
    // A tuple of 7 (a list is one value to %, as in Python).
    ['{% set s = "x" * 10000000 %}{{ ("%s" * 7) % (s, s, s, s, s, s, s) }}', /MemoryError: a % format's first 7 conversions would make 70,000,000 characters, over the 67,108,864 characters a template may build; format fewer or shorter values/],
    // wordwrap's wrapstring goes between every line and join's separator between every item: 250 lines
    // with a wrapstring of 2 million characters built 500 million (300 threw a bare "Invalid string length").
    ['{{ ("a " * 300) | wordwrap(1, wrapstring="x" * 2000000) }}', /MemoryError: wordwrap's first 35 lines joined by a wrapstring of 2,000,000 characters would make 68,000,035 characters, over the 67,108,864 characters a template may build; wrap with a shorter wrapstring or a larger width/],
    ['{{ ([1] * 300) | join("x" * 2000000) }}', /MemoryError: join's first 35 items with a separator of 2,000,000 characters would make 68,000,035 characters, over the 67,108,864 characters a template may build; join fewer items or with a shorter separator/],
  ];
  it.each(tooLarge)('%s is a template error that says what to change, at once', (template, message) => {
    const t0 = performance.now();
    expect(() => renderValue(template, ctx())).toThrow(message);
    expect(performance.now() - t0).toBeLessThan(1000);
  });
  // An undefined value printed said only "attempted to output null or undefined value": now Jinja's
  // UndefinedError text (TEA's, checked with tea run) and how to fix it.
  const undefinedStops: [string, string][] = [
    ["x {{ state['doc'].nope }}", "[Line 1, Column 3] 'dict object' has no attribute 'nope' (add | default(...) or read it with .get('nope'), which is None)"],
    ['x {{ state.items[5] }}', '[Line 1, Column 3] list object has no element 5 (add | default(...))'],
    ['x {{ state.items.nope }}', "[Line 1, Column 3] 'list object' has no attribute 'nope' (add | default(...))"],
    ['x {{ (1, 2)[3] }}', '[Line 1, Column 3] tuple object has no element 3 (add | default(...))'],
    ['x {{ nosuch }}', "[Line 1, Column 3] 'nosuch' is undefined (check the name, or add | default(...))"],
  ];
  it.each(undefinedStops)('%s stops with what is missing and the fix', (template, message) => {
    expect(() => renderValue(template, ctx())).toThrow(message);
  });

  it('a miss already handled (| default) is not blamed for a later undefined value', () => {
    expect(() => renderValue("{{ state['doc'].nope | default('x') }}{{ [] | first }}", ctx())).toThrow(/: \[Line 1, Column \d+\] attempted to output null or undefined value \(an undefined value: check the name, or add \| default\(\.\.\.\)\)$/);
  });

  it('a repetition under the bound is built, quickly', () => {
    const t0 = performance.now();
    expect((renderValue('{{ [0, 1] * 5000000 }}', ctx()) as unknown[]).length).toBe(10_000_000);
    expect(renderValue('{{ [] * 1000000000 }}', ctx())).toEqual([]);
    expect(renderValue('{{ "ab" * 3 }}|{{ "%5d" % 42 }}', ctx())).toBe('ababab|   42');
    expect(performance.now() - t0).toBeLessThan(5000);
  });

  const kept: [string, unknown][] = [
    ['{{ state.doc["title"] }}', 'T'],
    ['{{ state.items[1:] }}', [2]],
    ['{% for x in state.items %}{{ loop.index }}{{ x }}{% endfor %}', '1122'],
    ['{{ range(3) | join(",") }}', '0,1,2'],
    ['{% set c = cycler("a", "b") %}{{ c.next() }}{{ c.next() }}', 'ab'],
    ['{{ state.s.split("x") | length }}', 2],
    ['{{ state.get("s") | upper }}', 'TEXT'],
    ['{{ state.doc.items() | length }}', 1],
  ];
  it.each(kept)('ordinary Jinja still works: %s', (template, want) => {
    expect(renderValue(template, ctx())).toEqual(want);
  });
});
