// Jinja templates of the workflow runner: native types for a lone {{ expr }}, strings otherwise,
// The Edge Agent's rendering (a missing key is None, an undefined name an error, values print as
// Python prints them, ${name} reads variables), Jinja compatibility (dict.get, None), and conditions.
import { describe, expect, it } from 'vitest';
import { condition, renderValue } from '../../src/actions/workflow/templates.js';

const ctx = { state: { items: [1, 2], n: 3, doc: { title: 'T' }, empty: [], status: 'CONCERNS found' }, variables: { dir: 'docs' }, settings: {}, env: { HOME_X: 'h' } };

describe('workflow templates', () => {
  const cases: [unknown, unknown][] = [
    ['{{ state.items }}', [1, 2]],
    ['{{ state.n }}', 3],
    ['{{ state.doc }}', { title: 'T' }],
    ['  {{ state.n + 1 }}  ', 4],
    ['n={{ state.n }}', 'n=3'],
    ['{{ variables.dir }}/{{ state.doc.title }}', 'docs/T'],
    ['{{ state.items | length }}', 2],
    // TEA's DotDict gives None for a missing key, and Jinja's default() replaces only undefined.
    ['{{ state.missing | default("x") }}', null],
    ['{{ state.missing }}', null],
    ['topic={{ state.missing }} flag={{ state.doc.nope }}', 'topic=None flag=None'],
    ['{{ state.n > 2 }}!', 'True!'],
    ['{{ state.items }} {{ state.doc }}', "[1, 2] {'title': 'T'}"],
    ['${dir}/${unknown}', 'docs/${unknown}'],
    ['{{ state.get("missing", 7) }}', 7],
    ['{{ None }}', null],
    ['{{ state.doc | tojson }}', '{"title": "T"}'],
    [{ a: ['{{ state.n }}', 'plain'], b: 5 }, { a: [3, 'plain'], b: 5 }],
    ['{{ env.HOME_X }}', 'h'],
  ];
  it.each(cases)('%j -> %j', (input, out) => {
    expect(renderValue(input, ctx)).toEqual(out);
  });

  // As TEA's Jinja2: a lone expression's undefined value is None (compile_expression), a member of an
  // undefined name is an error, and in text an undefined name is an error.
  it('strict undefined: a lone undefined name is None, its member and an undefined name in text are errors', () => {
    expect(renderValue('{{ nosuchname }}', ctx)).toBe(null);
    expect(() => renderValue('{{ nosuchname.x }}', ctx)).toThrow(/UndefinedError: an undefined value has no member "x"/);
    expect(() => renderValue('x {{ nosuchname }}', ctx)).toThrow(/template "x \{\{ nosuchname \}\}"/);
  });

  const conditions: [unknown, boolean][] = [
    [true, true], ['state.n > 2', true], ['state.n > 5', false], ["'CONCERNS' in state.status | upper", true],
    ['state.empty', false], ['state.missing', false], ['!missing', true], ['!n', false], ['{{ state.n == 3 }}', true],
    ["state.get('status') == 'CONCERNS found'", true],
    // TEA's shorthands: a bare name is state.get(name), "True"/"False" are constants.
    ['n', true], ['missing', false], ['empty', false], ['True', true], ['False', false],
  ];
  it.each(conditions)('condition %j is %s', (c, want) => {
    expect(condition(c, ctx)).toBe(want);
  });

  // Lists and tuples order item by item, as Python's (tea run's answers): JavaScript compared them as
  // strings, so [1, 10] < [1, 9] was True; a list against a tuple or a string was True, not a TypeError.
  const orders: [string, string][] = [
    ['{{ [1, 10] < [1, 9] }}|{{ [[1, 2]] > [[1, 10]] }}|{{ (1, 2) < (1, 2, 0) }}|{{ [] < [] }}', 'False|False|True|False'],
    ["{{ [1, 2.5] <= [1, 2.5] }}|{{ [{'a': 1}] <= [{'a': 1}] }}|{{ [1] < [2] < [3] }}|{{ [1, 10] >= [1, 9] }}", 'True|True|True|True'],
  ];
  it.each(orders)('%s', (template, want) => {
    expect(renderValue(template, ctx)).toBe(want);
  });
  it('a list against a tuple or a string is a TypeError, as in Python', () => {
    expect(() => renderValue('x {{ [1, 10] < (1, 9) }}', ctx)).toThrow("TypeError: '<' not supported between instances of 'list' and 'tuple'");
    expect(() => renderValue("x {{ [1] < 'a' }}", ctx)).toThrow("TypeError: '<' not supported between instances of 'list' and 'str'");
  });
});
