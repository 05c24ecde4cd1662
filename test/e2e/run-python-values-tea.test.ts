// simgrep run keeps Python's values as The Edge Agent does (issue 30, session 46): a float stays a float
// through YAML, --input, templates, run: blocks and the printed state (4 / 2 is 2.0, 1e20 prints 1e+20);
// a lone {{ expr }} that raises a Python error gives back its own text while a longer template stops the
// node; Jinja's namespace() and groupby(attribute). Each workflow runs through the built CLI; the expected
// text and states are what TEA 0.9.105 (`tea run`) wrote and printed for the same workflow, pasted.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';

const home = isolatedHome('simgrep-pyvalues-');
const dir = mkdtempSync(path.join(tmpdir(), 'simgrep-pyvalues-run-'));
afterAll(() => { home.restore(); rmSync(dir, { recursive: true, force: true }); });

const FLOATS = `name: floats
initial_state:
  a: 2.0
  b: 3
nodes:
  - name: calc
    uses: file.write
    with:
      path: out/calc.txt
      content: "{{ 4 / 2 }} | {{ 10.0 ** 20 }} | {{ 0.1 + 0.2 }} | {{ state.a }} | {{ state.b }} | {{ [1.0, 2, 0.5] }} | {{ {'x': 3.0} }} | {{ 7 // 2 }} | {{ 7.0 // 2 }} | {{ 2 ** 3 }} | {{ 2 ** -1 }} | {{ 2.0 ** 3 }} | {{ '3' | float }} | {{ 3.7 | int }} | {{ 2.5 | round }} | {{ 3 | round }} | {{ [1, 2.0] | sum }} | {{ 10.0 ** 16 }} | {{ 10.0 ** -5 }} | {{ 123456789012345680000.0 }} | {{ state.a * state.b }} | {{ state.b / 1 }} | {{ -0.0 }} | {{ 10.0 ** 300 * 10.0 ** 10 }} | {{ 3 % 2.0 }}"
  - name: native
    run: |
      return {"x": 1.0, "y": 2, "z": float("inf"), "w": 1e20, "kinds": [type(state["a"]).__name__, type(state["k"]).__name__]}
  - name: tmpl
    uses: file.write
    with: {path: out/tmpl.txt, content: "{{ state.x }} {{ state.z }} {{ state.w }} {{ state.x | tojson }} {{ state.w | tojson }}"}
    output: written
  - name: single
    uses: file.write
    with: {path: out/single.txt, content: "x"}
    output:
      half: "{{ state.b / 2 }}"
      whole: "{{ 4 / 2 }}"
      r: "{{ 2.567 | round(1) }}"
      s: "{{ [1.5, 2.5] | sum }}"
      big: "{{ 10 ** 20 }}"
`;

// What TEA printed as its final state (its "Final state:" JSON) for FLOATS with --input '{"k": 1.0}'.
const TEA_FLOATS_STATE = `{
  "a": 2.0,
  "b": 3,
  "k": 1.0,
  "path": "out/calc.txt",
  "success": true,
  "x": 1.0,
  "y": 2,
  "z": Infinity,
  "w": 1e+20,
  "kinds": [
    "float",
    "float"
  ],
  "written": {
    "path": "out/tmpl.txt",
    "success": true
  },
  "half": 1.5,
  "whole": 2.0,
  "r": 2.6,
  "s": 4.0,
  "big": 100000000000000000000
}
`;

const LONE_ERRORS = `name: lone-errors
initial_state:
  content: ["a"]
nodes:
  - name: n
    uses: file.write
    with: {path: out/lone.txt, content: "{{ state.content + 'b' }}"}
    output:
      undef: "{{ nosuch }}"
      past_end: "{{ state.content[5] }}"
      zero: "{{ 1 / 0 }}"
      fmt: "{{ '%d' % 'a' }}"
`;

const NAMESPACE = `name: ns
initial_state:
  items: [{name: "a", city: "Paris", n: 2}, {name: "b", city: "lyon", n: 1.5}, {name: "c", city: "paris", n: 3}, {name: "d", city: "Lyon", n: 4}]
nodes:
  - name: count
    uses: file.write
    with:
      path: out/ns.txt
      content: "{% set ns = namespace(count=0, total=0) %}{% for i in state.items %}{% if i.n > 1 %}{% set ns.count = ns.count + 1 %}{% endif %}{% set ns.total = ns.total + i.n %}{% endfor %}{{ ns.count }} {{ ns.total }} | {% for city, people in state.items | groupby('city') %}{{ city }}: {{ people | map(attribute='name') | join(',') }}; {% endfor %}| {% for g in state.items | groupby('n') %}{{ g.grouper }}={{ g.list | length }} {% endfor %}"
    output: w
  - name: native
    uses: file.write
    with: {path: out/ns2.txt, content: x}
    output:
      groups: "{{ state.items | groupby('city') | map(attribute='grouper') | list }}"
`;

// TEA's memory.store / memory.retrieve (its in-memory backend): a key-value store for the run, in
// namespaces, with a ttl in seconds; a run: block reaches it through actions[...] too.
const MEMORY = `name: memory
initial_state:
  user: "ana"
nodes:
  - name: remember
    uses: memory.store
    with:
      key: "pref-{{ state.user }}"
      value: {theme: "dark", size: 2.0, tags: ["a"]}
    output: stored
  - name: short
    uses: memory.store
    with: {key: gone, value: 1, ttl: 0.001, namespace: tmp}
    output: stored_short
  - name: wait
    run: |
      import time
      time.sleep(0.05)
      return {}
  - name: recall
    uses: memory.retrieve
    with: {key: "pref-ana"}
    output: recalled
  - name: expired
    uses: memory.retrieve
    with: {key: gone, namespace: tmp, default: "none left"}
    output: expired
  - name: missing
    uses: memory.retrieve
    with: {key: nope}
  - name: from_code
    run: |
      r = actions["memory.retrieve"](state=state, key="pref-ana")
      return {"code_theme": r["value"]["theme"], "nokey": actions["memory.store"](state=state, key=None, value=1)}
`;

// What TEA printed as the final state for MEMORY.
const TEA_MEMORY_STATE = `{
  "user": "ana",
  "stored": {
    "stored": true,
    "key": "pref-ana",
    "namespace": "default"
  },
  "stored_short": {
    "stored": true,
    "key": "gone",
    "namespace": "tmp"
  },
  "recalled": {
    "value": {
      "theme": "dark",
      "size": 2.0,
      "tags": [
        "a"
      ]
    },
    "found": true,
    "key": "pref-ana"
  },
  "expired": {
    "value": "none left",
    "found": false,
    "key": "gone"
  },
  "value": null,
  "found": false,
  "key": "nope",
  "code_theme": "dark",
  "nokey": {
    "stored": false,
    "key": null,
    "error": "Key is required"
  }
}
`;

// A whole-valued float as memory.store's ttl (a YAML 100.0, a lone {{ 10 / 2 }}, a run: block's 60.0):
// TEA adds it to the clock and stores.
const MEMORY_FLOAT_TTL = `name: mem-ttl
nodes:
  - name: s1
    uses: memory.store
    with: {key: k, value: {a: 2.0}, ttl: 100.0}
    output: r1
  - name: s2
    uses: memory.store
    with: {key: k2, value: 5, ttl: "{{ 10 / 2 }}"}
    output: r2
  - name: code
    run: |
      s = actions["memory.store"](state=state, key="k3", value=1.5, ttl=60.0)
      return {"r3": s, "r4": actions["memory.retrieve"](state=state, key="k3")}
  - name: g
    uses: memory.retrieve
    with: {key: k}
    output: r5
  - name: g2
    uses: memory.retrieve
    with: {key: k2}
    output: r6
`;

// What TEA printed as the final state for MEMORY_FLOAT_TTL.
const TEA_MEMORY_FLOAT_TTL_STATE = `{
  "r1": {
    "stored": true,
    "key": "k",
    "namespace": "default"
  },
  "r2": {
    "stored": true,
    "key": "k2",
    "namespace": "default"
  },
  "r3": {
    "stored": true,
    "key": "k3",
    "namespace": "default"
  },
  "r4": {
    "value": 1.5,
    "found": true,
    "key": "k3"
  },
  "r5": {
    "value": {
      "a": 2.0
    },
    "found": true,
    "key": "k"
  },
  "r6": {
    "value": 5,
    "found": true,
    "key": "k2"
  }
}
`;

// Tests and list methods that compare by Python's ==: a float's 1.0 equals 1 (and True), a list [1.0]
// equals [1]; sameas stays identity (Python's `is`).
const EQUALITY = `name: cmp
initial_state:
  xs: [{a: 1.0}, {a: 2}]
nodes:
  - name: n
    uses: file.write
    with:
      path: out/cmp.txt
      content: "{{ state.xs | selectattr('a', 'equalto', 1) | list }} | {{ [1.0, 2, true] | select('eq', 1) | list }} | {{ [1.0, 2] | reject('ne', 1) | list }} | {{ [[1.0], {'a': 2.0}] | select('equalto', [1]) | list }} | {{ 2.0 is eq(2) }} {{ 2.0 is ne(2) }} {{ 1.0 is sameas(1) }} | {{ [1.0, 2, 1].index(1) }} {{ [1.0, 2, 1].count(1) }} | {{ [1, 1.0, true] | unique | list }} | {{ [1.0, 3, 'a'] | select('in', [1, 2, 'a']) | list }} {{ [1.0, 2, 1].remove(1) }} | {{ 4.0 is divisibleby(2) }} {{ 4.0 is even }} {{ 3.0 is odd }}"
`;

// A float's box is Python's float to a template: no members (.value, .keys(), .update()), no mapping, no
// length, no items; TEA's lone expressions that raise give back their text.
const FLOAT_BOX = `name: box
initial_state:
  f: 2.0
nodes:
  - name: n
    uses: file.write
    with:
      path: out/box.txt
      content: "{{ state.f }} {{ state.f is mapping }} {{ state.f.value is defined }} {{ state.f is iterable }} {{ state.f | urlencode }} {{ state.f | tojson }} {{ 2 in [state.f] }}"
    output:
      value: "{{ state.f.value }}"
      item: "{{ state.f['value'] }}"
      mapping: "{{ state.f is mapping }}"
      length: "{{ state.f | length }}"
      count: "{{ state.f | count }}"
      items: "{{ state.f | items | list }}"
      fmt: "{{ '{0.f.value}'.format(state) }}"
      inside: "{{ 2 in state.f }}"
      url: "{{ state.f | urlencode }}"
`;

// What TEA printed as the final state for FLOAT_BOX.
const TEA_FLOAT_BOX_STATE = `{
  "f": 2.0,
  "value": "",
  "item": "",
  "mapping": false,
  "length": "{{ state.f | length }}",
  "count": "{{ state.f | count }}",
  "items": "{{ state.f | items | list }}",
  "fmt": "{{ '{0.f.value}'.format(state) }}",
  "inside": "{{ 2 in state.f }}",
  "url": "2.0"
}
`;

const FLOAT_UPDATE = `name: mut
initial_state:
  price: 2.0
nodes:
  - name: a
    uses: file.write
    with: {path: out/a.txt, content: "{{ state.price.update({'value': 1000}) }}"}
`;

// Floats as PyYAML's YAML 1.1 resolver reads them: a dot is needed and an exponent has a sign (1e3 and
// 1.0e3 are strings, 1.0e+3 is 1000.0), _ between digits, 1:30.5 in base 60, an explicit !!float.
const YAML_FLOATS = `name: yaml-floats
initial_state:
  a: 1e3
  b: 1.0e+3
  c: 1.0e3
  d: -.5
  e: 1_000.5
  f: 1.
  g: 1:30.5
  h: !!float 1e3
  i: .5e-3
  j: [1e+3, .inf, 2.0]
nodes:
  - name: n
    run: |
      return {"kinds": [type(state[k]).__name__ for k in ["a", "b", "c", "d", "e", "f", "g", "h", "i", "k"]]}
`;

// What TEA printed as the final state for YAML_FLOATS with --input @yin.yaml (k: 1e3).
const TEA_YAML_FLOATS_STATE = `{
  "a": "1e3",
  "b": 1000.0,
  "c": "1.0e3",
  "d": "-.5",
  "e": 1000.5,
  "f": 1.0,
  "g": 90.5,
  "h": 1000.0,
  "i": 0.0005,
  "j": [
    "1e+3",
    Infinity,
    2.0
  ],
  "k": "1e3",
  "kinds": [
    "str",
    "float",
    "str",
    "str",
    "float",
    "float",
    "float",
    "float",
    "float",
    "str"
  ]
}
`;

// A namespace() printed as Jinja prints it; range() of ints only, as Python's.
const NAMESPACE_PRINT = `name: ns-print
nodes:
  - name: n
    uses: file.write
    with:
      path: out/ns.txt
      content: "{{ namespace(a=1) }} {% set ns = namespace(b='s') %}{{ ns }} {{ [namespace(a=1)] }} {{ {'k': namespace(a=2.0)} }} {{ namespace(a=1) ~ '' }} {{ namespace(a=1) | string }} {{ namespace(a=1) is mapping }} | {{ range(3) | list }} {{ range(1, 7, 2) | list }} {{ range(5, 0, -2) | list }} {{ [1, 2.0, true, none] | string }}"
    output:
      float_range: "{{ range(2.0) | list }}"
      float_step: "{{ range(0, 4, 1.0) | list }}"
      int_range: "{{ range(1, 7, 2) | list }}"
`;

// A repeated top-level key, as TEA's docs write a base and its overlay in one block: PyYAML takes the
// last one.
const REPEATED_KEYS = `name: base
state_schema:
  n: int
nodes:
  - name: old
    run: |
      return {"which": "first nodes list"}
initial_state:
  n: 1
# overlay: a second nodes key, as TEA's docs show an overlay beside its base
nodes:
  - name: new
    run: |
      return {"which": "second nodes list", "n": state["n"] + 1}
`;

// str.format, a negative index, the float/integer/number tests and str.center/zfill, as TEA's Jinja2 runs them.
const STR_FORMAT = `name: str-format
initial_state:
  x: 0.125
  s: "hello"
  items: [{name: "a"}, {name: "c"}]
nodes:
  - name: fmt
    uses: file.write
    with:
      path: out/fmt.txt
      content: "{{ \\"{:.2f}\\".format(state.x) }} | {{ \\"{} and {}\\".format(\\"a\\", 2) }} | {{ \\"{name}!\\".format(name=\\"z\\") }} | {{ \\"{:>12,}|{:<6}|{:^7}|{:+.1%}|{!r}|{:08.3f}|{:x}\\".format(1234567, \\"ab\\", \\"mid\\", state.x, state.s, -3.14159, 255) }} | {{ state.s[0] }} {{ state.s[-1] }} {{ state.items[-1].name }} | {{ state.x is float }} {{ 3 is integer }} {{ state.x is number }} {{ 2.0 is integer }} | {{ state.s.upper().center(11, \\"*\\") }} {{ '7'.zfill(3) }}"
    output: w
`;

// TEA's own sha256 filter (registered by its cache actions on every engine) and Jinja's `none` test.
const SHA256 = `name: sha
initial_state:
  content: "héllo"
  n: 2.5
nodes:
  - name: h
    uses: file.write
    with:
      path: out/sha.txt
      content: "{{ state.content | sha256 }} {{ state.n | sha256 }} {{ state.missing is none }} {{ state.content is none }}"
    output: w
`;

async function run(name: string, yaml: string, args: string[] = []) {
  writeFileSync(path.join(dir, name), yaml);
  return runCli(['run', name, ...args], { cwd: dir, env: home.env });
}
const written = (p: string) => readFileSync(path.join(dir, 'out', p), 'utf8');

describe('simgrep run: Python values as TEA keeps them', () => {
  // Before session 46 floats were JavaScript's: "2 | 100000000000000000000 | ... | 2 | ..." was written,
  // the state printed "a": 2 and "z": null, and a run: block saw state["a"] as an int.
  it('a float stays a float through YAML, --input, arithmetic, filters, run: blocks and the printed state', async () => {
    const r = await run('floats.yaml', FLOATS, ['-i', '{"k": 1.0}']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(written('calc.txt')).toBe('2.0 | 1e+20 | 0.30000000000000004 | 2.0 | 3 | [1.0, 2, 0.5] | {\'x\': 3.0} | 3 | 3.0 | 8 | 0.5 | 8.0 | 3.0 | 3 | 2.0 | 3 | 3.0 | 1e+16 | 1e-05 | 1.2345678901234568e+20 | 6.0 | 3.0 | -0.0 | inf | 1.0');
    expect(written('tmpl.txt')).toBe('1.0 inf 1e+20 1.0 1e+20');
    expect(r.stdout).toBe(TEA_FLOATS_STATE);
  });

  // Before: the first lone expression's TypeError stopped the run (exit 2), and {{ nosuch }} was an error.
  it('a lone expression that raises a Python error gives back its text; an undefined one is None (""), as in TEA', async () => {
    const r = await run('lone.yaml', LONE_ERRORS);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(written('lone.txt')).toBe("{{ state.content + 'b' }}");
    expect(JSON.parse(r.stdout)).toEqual({ content: ['a'], undef: '', past_end: '', zero: '{{ 1 / 0 }}', fmt: "{{ '%d' % 'a' }}" });
  });

  it('the same error inside longer text stops the node, and a member of an undefined name stops it, as in TEA', async () => {
    const text = await run('text.yaml', LONE_ERRORS.replace("content: \"{{ state.content + 'b' }}\"", "content: \"x {{ state.content + 'b' }}\""));
    expect(text.code).toBe(2);
    expect(text.stderr).toMatch(/node n: .*TypeError: can only concatenate list \(not "str"\) to list/);
    const member = await run('member.yaml', LONE_ERRORS.replace('"{{ nosuch }}"', '"{{ nosuch.x }}"'));
    expect(member.code).toBe(2);
    expect(member.stderr).toMatch(/node n: .*UndefinedError: an undefined value has no member "x"/);
  });

  // Before: refused before the first node ("action memory.store needs an outside service"), exit 2.
  it('memory.store and memory.retrieve keep values for the run, by namespace and ttl, as TEA\'s do', async () => {
    const r = await run('memory.yaml', MEMORY);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(TEA_MEMORY_STATE);
  });

  // Before: each store answered {stored: false, error: "unsupported operand type(s) for +: 'float' and
  // 'object'"}: the ttl's float box was not taken for a number.
  it('memory.store takes a whole-valued float ttl (100.0, {{ 10 / 2 }}, a run: block\'s 60.0) as TEA does', async () => {
    const r = await run('memory-ttl.yaml', MEMORY_FLOAT_TTL);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(TEA_MEMORY_FLOAT_TTL_STATE);
  });

  // Before (session 46's float box): every equalto/eq/ne and list.index/count against 1 missed 1.0
  // ("[] | [] | [] | [] | False True False | 2 1 | ..."); before the box, 1.0 is sameas(1) was True.
  it('equalto, eq, ne, in and list.index/count/remove compare by Python\'s ==, as TEA\'s Jinja2 does', async () => {
    const r = await run('cmp.yaml', EQUALITY);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(written('cmp.txt')).toBe("[{'a': 1.0}] | [1.0, True] | [1.0] | [[1.0]] | True False False | 0 2 | [1] | [1.0, 'a'] None | True True True");
  });

  // Before: the box was a mapping {value: 2} to templates: .value gave 2, "is mapping" True, "| length" 1,
  // urlencode "value=2", str.format read {0.f.value}; and state.price.update({'value': 1000}) made the
  // price 1000.0 (exit 0), where TEA stops at the node: a float has no attribute 'update'.
  it('a float is opaque and unchangeable to a template, as Python\'s float is to TEA\'s Jinja2', async () => {
    const r = await run('box.yaml', FLOAT_BOX);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(written('box.txt')).toBe('2.0 False False False 2.0 2.0 True');
    expect(r.stdout).toBe(TEA_FLOAT_BOX_STATE);
    const m = await run('update.yaml', FLOAT_UPDATE);
    expect(m.code).toBe(2);
    expect(m.stderr).toMatch(/node a: .*Unable to call `state\["price"\]\["update"\]`, which is undefined/);
    expect(m.stdout).toBe('{\n  "price": 2.0\n}\n');
  });

  // Before: the yaml package's YAML 1.2 floats: 1e3, 1.0e3, -.5 and --input's k: 1e3 read as numbers
  // (1000.0, -0.5), 1:30.5 as a string, 1_000.5 as a string.
  it('YAML floats are read as PyYAML reads them (1e3 is a string, 1.0e+3 a float), in the workflow and --input', async () => {
    writeFileSync(path.join(dir, 'yin.yaml'), 'k: 1e3\n');
    const r = await run('yaml-floats.yaml', YAML_FLOATS, ['-i', '@yin.yaml']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(TEA_YAML_FLOATS_STATE);
  });

  // Before: a namespace() printed as {'a': 1}, "| string" of it stopped the node ("Cannot convert object to
  // primitive value"), it passed "is mapping", a list | string wrote 1,2,true,; range(2.0) gave [0, 1].
  it('a namespace() prints as <Namespace {...}> and range() takes ints only, as in TEA', async () => {
    const r = await run('ns-print.yaml', NAMESPACE_PRINT);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(written('ns.txt')).toBe("<Namespace {'a': 1}> <Namespace {'b': 's'}> [<Namespace {'a': 1}>] {'k': <Namespace {'a': 2.0}>} <Namespace {'a': 1}> <Namespace {'a': 1}> False | [0, 1, 2] [1, 3, 5] [5, 3, 1] [1, 2.0, True, None]");
    expect(r.stdout).toBe('{\n  "float_range": "{{ range(2.0) | list }}",\n  "float_step": "{{ range(0, 4, 1.0) | list }}",\n  "int_range": [\n    1,\n    3,\n    5\n  ]\n}\n');
  });

  // Before: "not valid YAML: Map keys must be unique", exit 2, where TEA ran the second nodes: list.
  it('a repeated key is taken, the last one winning, in the workflow and in an --input @file.yaml, as PyYAML does', async () => {
    writeFileSync(path.join(dir, 'in.yaml'), 'k: 1.0\nk: 2.0\n');
    const r = await run('repeated.yaml', REPEATED_KEYS, ['-i', '@in.yaml']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{\n  "n": 2,\n  "k": 2.0,\n  "which": "second nodes list"\n}\n');
  });

  // Before: "Unable to call `{:.2f}[\"format\"]`" stopped the run; state.s[-1] was undefined (an error in
  // text); "test not found: float"; center was not a str method.
  it('str.format, a negative index, the float/integer tests and center/zfill write what TEA wrote', async () => {
    const r = await run('fmt.yaml', STR_FORMAT);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(written('fmt.txt')).toBe("0.12 | a and 2 | z! |    1,234,567|ab    |  mid  |+12.5%|'hello'|-003.142|ff | h o c | True True True False | ***HELLO*** 007");
  });

  // Before: "filter not found: sha256" stopped the run; "test not found: none".
  it('the sha256 filter and the none test write what TEA wrote', async () => {
    const r = await run('sha.yaml', SHA256);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(written('sha.txt')).toBe('3c48591d8d098a4538f5e013dfcf406e948eac4d3277b10bf614e295d6068179 b8736b999909049671d0ea075a42b308a5fbe2df1854899123fe09eb0ee9de61 True False');
  });

  // Before: namespace was an unknown function and {% set ns.count = ... %} a syntax error; groupby('city')
  // gave nunjucks' mapping of groups, so the loop over pairs printed nothing.
  it('namespace() counts across a loop and groupby(attribute) gives sorted (grouper, list) pairs', async () => {
    const r = await run('ns.yaml', NAMESPACE);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(written('ns.txt')).toBe('4 10.5 | lyon: b,d; Paris: a,c; | 1.5=1 2=1 3=1 4=1 ');
    expect(JSON.parse(r.stdout).groups).toEqual(['lyon', 'Paris']);
  });
});
