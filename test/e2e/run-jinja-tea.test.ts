// simgrep run renders Jinja as The Edge Agent's Jinja2 does: expressions from TEA's own docs and
// examples (`state.user_query[:30]`, `(state.content or []) + [result.content]`, `| tojson`,
// `map(attribute='message') | join('; ')`, `| truncate(50)`, str methods), each written by file.write
// through the built CLI; the expected text is what TEA 0.9.105's Python engine wrote for the same
// workflow (bench/tea-diff/tea-final-state.py), pasted. Before audit45 nunjucks' JavaScript answered:
// a string's slice was a list of characters, lists were joined into one string by +, tojson had no
// spaces and kept <, > and non-ASCII, map/fromjson stopped the run, "aaa".replace("a", "b") gave "baa".
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';

const home = isolatedHome('simgrep-jinja-');
const dir = mkdtempSync(path.join(tmpdir(), 'simgrep-jinja-run-'));
afterAll(() => { home.restore(); rmSync(dir, { recursive: true, force: true }); });

const INITIAL = `initial_state:
  user_query: "Where do we retry the failed uploads of large files to the bucket?"
  short: "retry"
  content: ["a.md"]
  selected: {name: "Zoë", level: 3, tags: ["<b>", "R&D"]}
  reflection_errors: [{message: "too long"}, {message: "no source"}]
  text: "Uploads are retried three times with exponential backoff when the network fails."
  json_str: '{"ok": true, "n": 2}'
  bad_json: "not json"
  title: "  Retry Failed Uploads  "
  doc: "docs/guide.md"
  n_items: 3
  cost: 0.125
  bad_num: "n/a"
`;

// [row, template, what TEA wrote]
const ROWS: [string, string, string][] = [
  ['slice', "{{ state.user_query[:30] }} | {{ state.short[:30] }} | {{ state.content[-1:] }} | {{ state.user_query[::-1][:6] }}",
    "Where do we retry the failed u | retry | ['a.md'] | ?tekcu"],
  ['concat', '{{ (state.content or []) + [state.doc] }} | {{ (state.missing or []) + [state.short] }} | {{ state.short ~ state.content }}',
    "['a.md', 'docs/guide.md'] | ['retry'] | retry['a.md']"],
  ['tojson', '{{ state.selected | tojson }} | {{ state.content | tojson(2) }}',
    '{"level": 3, "name": "Zo\\u00eb", "tags": ["\\u003cb\\u003e", "R\\u0026D"]} | [\n  "a.md"\n]'],
  ['json', '{{ state.selected | json }}', '{"name": "Zo\\u00eb", "level": 3, "tags": ["<b>", "R&D"]}'],
  ['fromjson', '{{ (state.json_str | fromjson).n }} | {{ state.bad_json | fromjson }}', '2 | not json'],
  ['map', "{{ state.reflection_errors | map(attribute='message') | join('; ') }} | {{ state.content | map('upper') | list }}",
    "too long; no source | ['A.MD']"],
  ['truncate', '{{ state.text | truncate(50) }} | {{ state.short | truncate(50) }}', 'Uploads are retried three times with... | retry'],
  ['str', "{{ state.title.strip().lower() }} | {{ state.text.split()[:3] }} | {{ state.doc.replace('/', '_').replace('.', '_') }} | {{ state.doc.endswith(('.md', '.txt')) }} | {{ state.doc.split('/', 1) }} | {{ 'aaa'.replace('a', 'b') }}",
    "retry failed uploads | ['Uploads', 'are', 'retried'] | docs_guide_md | True | ['docs', 'guide.md'] | bbb"],
  ['format', '{{ "%d items" % state.n_items }} | {{ "%.2f" | format(state.cost) }} | {{ "%s-%s" % ("a", "b") }} | {{ "%(message)s!" % state.reflection_errors[0] }} | {{ -7 % 3 }}',
    '3 items | 0.12 | a-b | too long! | 2'],
  ['numbers', "{{ state.bad_num | int }} | {{ '3.7' | int + 1 }} | {{ state.reflection_errors | map(attribute='message') | max }} | {{ ['A', 'a', 'b'] | unique | list }} | {{ state.content | count }}",
    "0 | 4 | too long | ['A', 'b'] | 1"],
  ['repeat', '{{ "=" * 5 }} | {{ [0] * 3 }} | {{ state.short * 2 }}', '===== | [0, 0, 0] | retryretry'],
];

const ROUTE = `name: route-as-tea
initial_state:
  results: []
  meta: {}
  tags: ["a"]
  n: 3
  matches: [{file: "a.md", score: 0.9, n: 2}, {file: "b.md", score: 0.2, n: 5}]
nodes:
  - name: check
    uses: file.write
    with:
      path: out/check.txt
      content: "{% if state.results %}found{% else %}none{% endif %} | {{ state.results or 'no results' }} | {{ 'T' if state.meta else 'F' }} | {{ not state.results }} | {{ 'items' in state.meta }} | {{ 'toString' in state.meta }} | {{ state.tags == ['a'] }} | {{ state.n == '3' }} | {{ state.matches | selectattr('score', 'gt', 0.5) | list | length }} | {{ state.matches | sum(attribute='n') }} | {{ {'file': 'a.md', 'score': 0.9, 'n': 2} in state.matches }}"
    output: written
    goto:
      - if: "state.results == []"
        to: empty
      - to: report
  - name: report
    uses: file.write
    with: {path: out/route.txt, content: report}
    output: routed
    goto: __end__
  - name: empty
    uses: file.write
    with: {path: out/route.txt, content: empty}
    output: routed
  - name: tags
    uses: file.write
    with: {path: out/tags.txt, content: tags}
    output: tagged
  - name: done
    uses: file.write
    with: {path: out/done.txt, content: "{{ state.tags == ['a'] }}"}
    output: finished
edges:
  - from: empty
    to: tags
  - from: tags
    to: __end__
    when: "state.tags != ['a']"
  - from: tags
    to: done
`;

function workflow(): string {
  const nodes = ROWS.map(([row, tmpl]) => `  - name: ${row}\n    uses: file.write\n    with:\n      path: out/${row}.txt\n      content: ${JSON.stringify(tmpl)}\n`).join('');
  // A lone expression keeps its native type: the list TEA's docs build with + stays a list.
  const merged = '  - name: merged\n    uses: file.write\n    with: {path: out/merged.txt, content: x}\n    output:\n      merged: "{{ (state.content or []) + [result.path] }}"\n';
  return `name: jinja-as-tea\n${INITIAL}nodes:\n${nodes}${merged}`;
}

describe('simgrep run: Jinja values as TEA renders them', () => {
  it('each template row writes what TEA wrote, and a lone list + list stays a list', async () => {
    writeFileSync(path.join(dir, 'jinja.yaml'), workflow());
    const r = await runCli(['run', 'jinja.yaml'], { cwd: dir, env: home.env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const got = Object.fromEntries(ROWS.map(([row]) => [row, readFileSync(path.join(dir, 'out', `${row}.txt`), 'utf8')]));
    expect(got).toEqual(Object.fromEntries(ROWS.map(([row, , want]) => [row, want])));
    expect(JSON.parse(r.stdout).merged).toEqual(['a.md', 'out/merged.txt']);
  });

  // Python's truth and equality: [] and {} are false, lists compare by content, "3" != 3, `in` reads own
  // keys; before audit45 this workflow went to report (state.results == [] was false) and wrote
  // "found | [] | T | False | False | True | False | True | 2 | NaN | False".
  it('routes and tests by Python\'s truth and equality: state.results == [] goes to empty, as in TEA', async () => {
    writeFileSync(path.join(dir, 'route.yaml'), ROUTE);
    const r = await runCli(['run', 'route.yaml'], { cwd: dir, env: home.env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout)).sort()).toEqual(['matches', 'meta', 'n', 'results', 'routed', 'tagged', 'tags', 'written']);
    expect(readFileSync(path.join(dir, 'out/check.txt'), 'utf8')).toBe('none | no results | F | True | False | False | True | False | 1 | 7 | True');
    expect(readFileSync(path.join(dir, 'out/route.txt'), 'utf8')).toBe('empty');
  });

  it('list + a string is a TypeError naming the node, as in Python (JavaScript joined them)', async () => {
    writeFileSync(path.join(dir, 'bad.yaml'), `name: bad\n${INITIAL}nodes:\n  - name: add\n    uses: file.write\n    with: {path: out/bad.txt, content: "x {{ state.content + state.short }}"}\n`);
    const r = await runCli(['run', 'bad.yaml'], { cwd: dir, env: home.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/node add: .*TypeError: can only concatenate list \(not "str"\) to list/);
  });
});
