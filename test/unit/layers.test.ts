// The map of src/ holds (issue 27): no import circle anywhere, and every import points down the floors
// of docs/architecture.md. A new circle or an import back up fails here, naming the files.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Floors, bottom up: a module may import its own room or any room on a lower floor. The longest
 * matching prefix names a module's room. workspace/'s sub-rooms are floors of their own inside it.
 */
const FLOORS: [prefix: string, floor: number][] = [
  ['src/types.ts', 0], ['src/errors.ts', 0], ['src/version.ts', 0], ['src/bounded-lru.ts', 0], ['src/loop-turns.ts', 0], ['src/regular-file.ts', 0], ['src/wasm-simd.ts', 0],
  ['src/options-check.ts', 1], ['src/text/', 1], ['src/model/', 1],
  ['src/sources/', 2], ['src/rank/', 2],
  ['src/embed/', 3], ['src/output/', 3], ['src/worker-file.ts', 3],
  ['src/pool.ts', 4],
  ['src/in-process.ts', 5],
  ['src/pipeline/', 5.5], ['src/pipeline.ts', 6], ['src/searcher/', 6.5],
  ['src/searcher.ts', 7],
  ['src/workspace/packed/', 8.0], ['src/workspace/snapshot/', 8.1], ['src/workspace/store/', 8.2],
  ['src/workspace/changes/', 8.3], ['src/workspace/build/', 8.4], ['src/workspace/search/', 8.5],
  ['src/workspace/', 8.9],
  ['src/cluster/', 9],
  ['src/library.ts', 10],
  ['src/actions/', 11], ['src/server/', 11],
  ['src/mcp/', 12],
  ['src/cli/', 13],
  ['src/index.ts', 14],
  // The worker entry points load src/ modules in their threads; nothing in src/ imports them.
  ['workers/', 15],
];

const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** Relative imports of each TypeScript file under the dirs (static, dynamic and type-only alike), as repo paths. */
function importGraph(dirs: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.posix.join(d, e.name);
      if (e.isDirectory()) walk(p); else if (/\.c?ts$/.test(e.name) && !e.name.endsWith('.d.ts')) files.push(p);
    }
  };
  dirs.forEach(walk);
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    const targets = new Set<string>();
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2];
      targets.add(path.posix.normalize(path.posix.join(path.posix.dirname(f), spec)).replace(/\.js$/, '.ts').replace(/\.cjs$/, '.cts'));
    }
    graph.set(f, [...targets].filter((t) => t !== f));
  }
  return graph;
}

/** The import circles of a graph: its strongly connected components of two or more files (Tarjan). */
export function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next); low.set(v, next); next++;
    stack.push(v); onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do { w = stack.pop()!; onStack.delete(w); scc.push(w); } while (w !== v);
      if (scc.length > 1) found.push(scc.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

function roomOf(file: string): [string, number] | undefined {
  let best: [string, number] | undefined;
  for (const [prefix, floor] of FLOORS) if ((file === prefix || file.startsWith(prefix)) && (!best || prefix.length > best[0].length)) best = [prefix, floor];
  return best;
}

/** Imports that go to a room on the same floor or higher (other than the module's own room). */
export function upwardImports(graph: Map<string, string[]>): string[] {
  const bad: string[] = [];
  for (const [from, targets] of graph) {
    const a = roomOf(from);
    for (const to of targets) {
      const b = roomOf(to);
      if (!a || !b) { bad.push(`${from} -> ${to} (a file in no room: add it to FLOORS)`); continue; }
      if (a[0] !== b[0] && b[1] >= a[1]) bad.push(`${from} -> ${to} (${a[0]} is on floor ${a[1]}, ${b[0]} on ${b[1]})`);
    }
  }
  return bad.sort();
}

describe('the layers of src/', () => {
  const graph = importGraph(['src', 'workers']);

  it('has no import circle', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('imports only downwards (cli / mcp / actions / server -> library -> cluster -> workspace -> searcher -> pipeline -> stages)', () => {
    expect(upwardImports(graph)).toEqual([]);
  });

  it('the checks find a circle and an import back up when there is one', () => {
    const g = new Map([
      ['src/embed/a.ts', ['src/embed/b.ts']],
      ['src/embed/b.ts', ['src/embed/a.ts', 'src/cluster/c.ts']],
      ['src/cluster/c.ts', ['src/searcher.ts']],
      ['src/searcher.ts', []],
    ]);
    expect(circles(g)).toEqual([['src/embed/a.ts', 'src/embed/b.ts']]);
    expect(upwardImports(g)).toEqual(['src/embed/b.ts -> src/cluster/c.ts (src/embed/ is on floor 3, src/cluster/ on 9)']);
  });

  it('reads every kind of relative import (static, type-only, re-export, dynamic)', () => {
    const files = [...graph.keys()];
    expect(files.length).toBeGreaterThan(150);
    expect(files.reduce((n, f) => n + graph.get(f)!.length, 0)).toBeGreaterThan(600);
    expect(graph.get('src/index.ts')).toContain('src/library.ts'); // export { … } from
    expect(graph.get('src/library.ts')).toContain('src/cluster/coordinator.ts'); // import('…')
    expect(graph.get('src/pipeline/scoring.ts')).toContain('src/embed/requests.ts'); // import type
  });
});
