// simgrep run reads and runs TEA's Jinja2 as TEA 0.9.105 does where session 46 left it short (issue 30,
// session 47): tuples print as tuples, exponent literals and a test's argument without parentheses parse,
// wordwrap, the int/float/str/list methods TEA's (unsandboxed) Jinja2 reaches, and TEA's DotDict copies
// (state.d.update() changes a copy; state['d'].update() and state.l.append() the state). Each workflow
// runs through the built CLI; the expected text and final states are what `tea run` wrote and printed for
// the same workflow, pasted.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';

const home = isolatedHome('simgrep-teasyntax-');
const dir = mkdtempSync(path.join(tmpdir(), 'simgrep-teasyntax-run-'));
afterAll(() => { home.restore(); rmSync(dir, { recursive: true, force: true }); });
const SYNTAX = `name: syntax
initial_state:
  conf: {b: 2, A: 1}
nodes:
  - name: literals
    uses: file.write
    with:
      path: out/syntax.txt
      content: "{{ (1, 2) }} | {{ (1,) }} | {{ () }} | {{ state.conf | dictsort }} | {{ state.conf | dictsort(by='value', reverse=true) }} | {{ state.conf | items | list }} | {{ (1, 2) == [1, 2] }} | {{ (1, 2) | list }} | {{ 'ab' | list }} | {{ state.conf | list }} | {{ 1e3 }} | {{ 2.5e-3 }} | {{ 1E+2 * 2 }} | {{ 1_000 + 1 }} | {{ 4 is divisibleby 2 }} | {{ 3 is not divisibleby 2 }} | {{ none is sameas none }} | {{ 'y' if 5 is divisibleby 5 else 'n' }} | {{ [1, 2,] }} | {{ {'a': 1,} }}{% for k, v in state.conf | dictsort %} {{ k }}={{ v }}{% endfor %}"
    output: w
  - name: native
    uses: file.write
    with: {path: out/native.txt, content: x}
    output:
      pair: "{{ (1, 2.0) }}"
      exp: "{{ 1e3 }}"
      sorted: "{{ state.conf | dictsort }}"
      made: "{{ dict(state.conf, c=[1, 2.0]) }}"
  - name: tuples
    uses: file.write
    with:
      path: out/tuples.txt
      content: "{{ (1, 2) + (3,) }} {{ (1, 2) * 2 }} {{ (1, 2, 3)[1:] }} {{ (1, 2)[::-1] }} {{ '%s' % [1, 2] }} {{ '%s' % ((1, 2),) }} {{ '%s-%s' % (1, 2) }} {{ '%s and %s' | format(1, 2) }} {{ '%s' | format((1, 2)) }} {{ (1, 2) is sequence }} {{ 1 is sequence }}"
    output: w3
`;
// TEA's printed final state for SYNTAX.
const TEA_SYNTAX_STATE = `{
  "conf": {
    "b": 2,
    "A": 1
  },
  "w": {
    "path": "out/syntax.txt",
    "success": true
  },
  "pair": [
    1,
    2.0
  ],
  "exp": 1000.0,
  "sorted": [
    [
      "A",
      1
    ],
    [
      "b",
      2
    ]
  ],
  "made": {
    "b": 2,
    "A": 1,
    "c": [
      1,
      2.0
    ]
  },
  "w3": {
    "path": "out/tuples.txt",
    "success": true
  }
}
`;
const WRAP = `name: wrap
initial_state:
  text: "The Edge Agent runs YAML workflows; simgrep runs them as TEA does, long-hyphenated-words and all: supercalifragilisticexpialidocious.\\nA second line."
nodes:
  - name: wrap
    uses: file.write
    with:
      path: out/wrap.txt
      content: "{{ state.text | wordwrap(20) }}\\n--\\n{{ state.text | wordwrap(12, wrapstring='|') }}\\n--\\n{{ state.text | wordwrap(16, false) }}\\n--\\n{{ state.text | wordwrap(width=30, break_on_hyphens=false) }}\\n--\\n{{ 'a  b   c' | wordwrap(3) }}"
    output: w
`;
// TEA's printed final state for WRAP.
const TEA_WRAP_STATE = `{
  "text": "The Edge Agent runs YAML workflows; simgrep runs them as TEA does, long-hyphenated-words and all: supercalifragilisticexpialidocious.\\nA second line.",
  "w": {
    "path": "out/wrap.txt",
    "success": true
  }
}
`;
const METHODS = `name: methods
initial_state:
  price: 2.0
  n: 12
  tags: [b, c, a]
  m: {k: 1, j: [2.0]}
nodes:
  - name: numbers
    uses: file.write
    with:
      path: out/numbers.txt
      content: "{{ state.price.is_integer() }} {{ (2.5).is_integer() }} {{ state.price.real }} {{ state.n.real }} {{ state.n.imag }} {{ (2.5).imag }} {{ state.n.bit_length() }} {{ (0.75).as_integer_ratio() }} {{ state.n.as_integer_ratio() }} {{ (2.5).hex() }} {{ (1.0).hex() }} {{ state.n.numerator }} {{ state.n.denominator }} {{ (-3).conjugate() }} {{ true.real }} {{ (255).bit_count() }}"
    output: w1
  - name: strings
    uses: file.write
    with:
      path: out/strings.txt
      content: "{{ 'key=value=x'.partition('=') }} {{ 'key=value=x'.rpartition('=') }} {{ 'none'.partition('=') }} {{ 'abcabc'.rfind('b') }} {{ 'abc'.index('c') }} {{ 'abcabc'.rindex('a') }} {{ 'v1.2'.removeprefix('v') }} {{ 'a.txt'.removesuffix('.txt') }} {{ 'aBc'.swapcase() }} {{ 'ÄB'.casefold() }} {{ ' \\t'.isspace() }} {{ 'a1'.isalnum() }} {{ '12'.isdecimal() }} {{ '½'.isnumeric() }} {{ 'Hello World'.istitle() }}"
    output: w2
  - name: lists
    uses: file.write
    with:
      path: out/lists.txt
      content: "{% set l = [3, 1, 2.5, 10] %}{{ l.sort() }} {{ l }} {{ l.sort(reverse=true) }} {{ l }} {{ l.append(0) }} {{ l.pop() }} {{ l.pop(0) }} {{ l }} {{ l.extend(['x']) }} {{ l.insert(-1, 7) }} {{ l }} {{ l.reverse() }} {{ l }} {{ l.copy() }} {{ l.clear() }} {{ l }} {{ state.tags.sort() }}"
    output: w3
  - name: dicts
    uses: file.write
    with:
      path: out/dicts.txt
      content: "{{ state.m.items() }} {{ state.m.keys() }} {{ state.m.values() }} {{ state.m.copy() }} {{ state.m.items() | list }} {% set c = state.m.copy() %}{{ c.clear() }}{{ c }} {{ state.m }}"
    output: w4
`;
// TEA's printed final state for METHODS.
const TEA_METHODS_STATE = `{
  "price": 2.0,
  "n": 12,
  "tags": [
    "a",
    "b",
    "c"
  ],
  "m": {
    "k": 1,
    "j": [
      2.0
    ]
  },
  "w1": {
    "path": "out/numbers.txt",
    "success": true
  },
  "w2": {
    "path": "out/strings.txt",
    "success": true
  },
  "w3": {
    "path": "out/lists.txt",
    "success": true
  },
  "w4": {
    "path": "out/dicts.txt",
    "success": true
  }
}
`;
const COPIES = `name: copies
initial_state:
  d: {a: 1, inner: {g: 1}}
  e: {b: 2}
  l: [1]
nodes:
  - name: tmpl
    uses: file.write
    with:
      path: out/copies.txt
      content: "{{ state.d.update({'x': 1}) }} {{ state.d.inner.update({'q': 1}) }} {{ state['e'].update({'y': 1}) }} {{ state.l.append(5) }} {{ state.update({'z': 1}) }} {{ state.d.setdefault('s', 1) }} {{ state.d.pop('a') }} {% set c = state.d %}{{ c.update({'w': 2}) }}{{ c }} {{ state.d }} {{ state['d']['inner'].update({'r': 1}) }}"
    output: w
  - name: code
    run: |
      before = {{ state.d.update({'from_code': 1}) }}
      return {"seen": sorted(state["d"].keys())}
  - name: route
    uses: file.write
    with: {path: out/route.txt, content: x}
    goto:
      - if: "state.d.update({'from_goto': 1}) is none"
        to: last
      - to: last
  - name: last
    uses: file.write
    with: {path: out/last.txt, content: "{{ state.d }} {{ state.e }} {{ state.l }}"}
    output: w2
`;
// TEA's printed final state for COPIES.
const TEA_COPIES_STATE = `{
  "d": {
    "a": 1,
    "inner": {
      "g": 1,
      "r": 1
    }
  },
  "e": {
    "b": 2,
    "y": 1
  },
  "l": [
    1,
    5
  ],
  "w": {
    "path": "out/copies.txt",
    "success": true
  },
  "seen": [
    "a",
    "inner"
  ],
  "path": "out/route.txt",
  "success": true,
  "w2": {
    "path": "out/last.txt",
    "success": true
  }
}
`;
// A mapping that is not TEA's DotDict (a list's item, state['d']) is Jinja's dict: a key it lacks is undefined.
const STRICT = `name: strict
initial_state:
  rs: [{a: 1}]
  d: {k: 1}
nodes:
  - name: lenient
    uses: file.write
    with:
      path: out/strict.txt
      content: "{{ state.d.missing }} {{ state.nosuch }} {{ state.rs[0].missing is none }} {{ state.rs[0].missing | default('dflt') }} {{ state['d'].get('missing') }}"
    output: w
  - name: strict
    uses: file.write
    with:
      path: out/never.txt
      content: "{% for r in state.rs %}{{ r.missing }}{% endfor %}"
    output: w2
`;

// join(attribute=), filesizeformat, int(text, base) and chained comparisons.
const MORE = `name: more
initial_state:
  rs: [{a: 2, n: "x"}, {a: 1, n: "y"}]
  size: 123456789
nodes:
  - name: filters
    uses: file.write
    with:
      path: out/more.txt
      content: "{{ state.rs | join(',', attribute='a') }} | {{ [1, 2.0, none, 'x'] | join(', ') }} | {{ state.size | filesizeformat }} {{ state.size | filesizeformat(true) }} {{ 1 | filesizeformat }} {{ 1000 | filesizeformat }} | {{ '0x1A' | int(0, 16) }} {{ '12' | int(base=8) }} {{ '0b101' | int(0, 0) }} {{ '12.7' | int(base=16) }} {{ 'zz' | int(5, 36) }} | {{ 3 > 2 > 1 }} {{ 1 < 3 < 2 }} {{ 1 == 1.0 < 2 }}{% if 0 < state.rs | length <= 2 %} two{% endif %}"
    output: w
  - name: route
    uses: file.write
    with: {path: out/route.txt, content: x}
    goto:
      - if: "{{ 3 > 2 > 1 }}"
        to: chained
      - to: __end__
  - name: chained
    uses: file.write
    with: {path: out/chained.txt, content: "reached"}
    output: w2
`;
// TEA's printed final state for MORE.
const TEA_MORE_STATE = `{
  "rs": [
    {
      "a": 2,
      "n": "x"
    },
    {
      "a": 1,
      "n": "y"
    }
  ],
  "size": 123456789,
  "w": {
    "path": "out/more.txt",
    "success": true
  },
  "path": "out/route.txt",
  "success": true,
  "w2": {
    "path": "out/chained.txt",
    "success": true
  }
}
`;

async function run(name: string, yaml: string) {
  writeFileSync(path.join(dir, name), yaml);
  return runCli(['run', name], { cwd: dir, env: home.env });
}
const written = (p: string) => readFileSync(path.join(dir, 'out', p), 'utf8');

describe('simgrep run: TEA\'s Jinja2 syntax, filters, methods and copies', () => {
  // Before: the node stopped (exit 2) on (1,) ("unexpected token"), and (1, 2) printed [1, 2], 1e3 was an
  // undefined name, "is divisibleby 2" a syntax error ("expected variable end"), dict() not callable.
  it('tuples, exponent and underscore literals, a test\'s bare argument, trailing commas, dictsort/items pairs, dict()', async () => {
    const r = await run('syntax.yaml', SYNTAX);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(written('syntax.txt')).toBe("(1, 2) | (1,) | () | [('A', 1), ('b', 2)] | [('b', 2), ('A', 1)] | [('b', 2), ('A', 1)] | False | [1, 2] | ['a', 'b'] | ['b', 'A'] | 1000.0 | 0.0025 | 200.0 | 1001 | True | True | True | y | [1, 2] | {'a': 1} A=1 b=2");
    // A tuple's +, * and slice are tuples; % spreads a tuple only, and a tuple of one is its one value
    // ('%s' % ((1, 2),) printed [[1, 2]] before; a list of as many values as conversions was spread).
    expect(written('tuples.txt')).toBe("(1, 2, 3) (1, 2, 1, 2) (2, 3) (2, 1) [1, 2] (1, 2) 1-2 1 and 2 (1, 2) True False");
    expect(r.stdout).toBe(TEA_SYNTAX_STATE);
  });

  // Before: "filter not found: wordwrap" stopped the node.
  it('wordwrap breaks as Python\'s textwrap: at hyphens, long words, wrapstring, break_long_words=false', async () => {
    const r = await run('wrap.yaml', WRAP);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(written('wrap.txt')).toBe("The Edge Agent runs\nYAML workflows;\nsimgrep runs them as\nTEA does, long-\nhyphenated-words and\nall: supercalifragil\nisticexpialidocious.\nA second line.\n--\nThe Edge|Agent runs|YAML|workflows;|simgrep runs|them as TEA|does, long-|hyphenated-|words and|all: superca|lifragilisti|cexpialidoci|ous.|A second|line.\n--\nThe Edge Agent\nruns YAML\nworkflows;\nsimgrep runs\nthem as TEA\ndoes, long-\nhyphenated-words\nand all:\nsupercalifragilisticexpialidocious.\nA second line.\n--\nThe Edge Agent runs YAML\nworkflows; simgrep runs them\nas TEA does,\nlong-hyphenated-words and all:\nsupercalifragilisticexpialidoc\nious.\nA second line.\n--\na\nb\nc");
    expect(r.stdout).toBe(TEA_WRAP_STATE);
  });

  // Before: (2.0).is_integer() was "Unable to call ..., which is undefined", 'a=b'.partition('=') too, and
  // [3, 1, 2].sort() sorted as JavaScript (by text: 10 before 2) and printed the list instead of None;
  // d.items() printed [['k', 1]] (TEA: dict_items([('k', 1)])) and d.copy() was not callable.
  it('int/float/str/list/dict methods give Python\'s answers; sort() sorts in place by value; dict views print as Python\'s', async () => {
    const r = await run('methods.yaml', METHODS);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(written('numbers.txt')).toBe("True False 2.0 12 0 0.0 4 (3, 4) (12, 1) 0x1.4000000000000p+1 0x1.0000000000000p+0 12 1 -3 1 8");
    expect(written('strings.txt')).toBe("('key', '=', 'value=x') ('key=value', '=', 'x') ('none', '', '') 4 2 3 1.2 a AbC äb True True True True True");
    expect(written('dicts.txt')).toBe("dict_items([('k', 1), ('j', [2.0])]) dict_keys(['k', 'j']) dict_values([1, [2.0]]) {'k': 1, 'j': [2.0]} [('k', 1), ('j', [2.0])] None{} {'k': 1, 'j': [2.0]}");
    expect(written('lists.txt')).toBe("None [1, 2.5, 3, 10] None [10, 3, 2.5, 1] None 0 10 [3, 2.5, 1] None None [3, 2.5, 1, 7, 'x'] None ['x', 7, 1, 2.5, 3] ['x', 7, 1, 2.5, 3] None [] None");
    expect(r.stdout).toBe(TEA_METHODS_STATE);
  });

  // Before: state.d.update({...}) in a template changed the state (in a with:, a run: block's template and
  // a goto if:), state.update() added z, and list.append printed 2 (JavaScript's push).
  it('a mapping read by name is a copy (DotDict), by [key] the state itself, in templates, run: blocks and goto', async () => {
    const r = await run('copies.yaml', COPIES);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(written('copies.txt')).toBe("None None None None None 1 1 None{'a': 1, 'inner': {'g': 1}, 'w': 2} {'a': 1, 'inner': {'g': 1}} None");
    expect(written('last.txt')).toBe("{'a': 1, 'inner': {'g': 1, 'r': 1}} {'b': 2, 'y': 1} [1, 5]");
    expect(r.stdout).toBe(TEA_COPIES_STATE);
  });

  // Before: every mapping answered None for a key it lacks, so the strict node ran on where TEA stopped
  // ("'dict object' has no attribute 'missing'"), and state['d'].get('missing') stopped the lenient one
  // (nunjucks' get gave undefined, an error when printed).
  // The stop said only "attempted to output null or undefined value": now TEA's words and the fix.
  it('a key missing from a mapping that is not a DotDict is undefined, as in TEA: the node stops; get() is None', async () => {
    const r = await run('strict.yaml', STRICT);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`simgrep: strict.yaml: node strict: template "{% for r in state.rs %}{{ r.missing }}{% endfor %}": [Line 1, Column 24] 'dict object' has no attribute 'missing' (add | default(...) or read it with .get('missing'), which is None)\n`);
    // What TEA wrote before it stopped at the node strict with that error.
    expect(written('strict.txt')).toBe("None None False dflt None");
    expect(existsSync(path.join(dir, 'out', 'never.txt'))).toBe(false);
  });

  // Before: join(',', attribute='a') wrote "," (nunjucks' join took no keyword), '0x1A' | int(0, 16) was 0,
  // 3 > 2 > 1 was False (JavaScript's true > 1), so the goto went to __end__; filesizeformat was not found.
  it('join(attribute=), filesizeformat, int with a base and chained comparisons, in text and in goto, as TEA', async () => {
    const r = await run('more.yaml', MORE);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(written('more.txt')).toBe("2,1 | 1, 2.0, None, x | 123.5 MB 117.7 MiB 1 Byte 1.0 kB | 26 10 5 12 1295 | True False True two");
    expect(written('chained.txt')).toBe('reached');
    expect(r.stdout).toBe(TEA_MORE_STATE);
  });
});
