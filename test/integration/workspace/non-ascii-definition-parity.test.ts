// An index answers a non-ASCII definition's name as the scan does (mend37): the index keeps each chunk's
// defined names folded as the scan's symbolScore folds them (term-collector.ts's addDefs: `Straße` is
// `strasse`), in a corpus large enough that the index prunes its candidates by those names.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearcher } from '../../../src/searcher.js';
import { type SearchOptions } from '../../../src/searcher/api.js';
import { createWorkspace, type Workspace } from '../../../src/workspace/workspace.js';
import { rounded } from '../../helpers/rounded.js';

let tmp = '';
let tree = '';
let ws: Workspace;
const oneShot = createSearcher({ concurrency: 0 });

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-nonascii-def-'));
  tree = path.join(tmp, 'tree');
  // 60 files of 20 small classes each (~1,200 chunks), 172 saying strasse twice in their text; one defines
  // Straße and says it nowhere else: only its definition ranks it (the index pruned it without the fold).
  for (let f = 0; f < 60; f++) {
    const dir = path.join(tree, `pkg${f % 6}`);
    mkdirSync(dir, { recursive: true });
    const body: string[] = [];
    for (let c = 0; c < 20; c++) {
      const n = f * 20 + c;
      body.push(`class Record${n}:`, `    """A record of kind ${n}${n % 7 === 0 ? ': strasse, strasse and street' : ''}."""`);
      for (let l = 0; l < 8; l++) body.push(`    def field${l}_${n}(self, value_${l}):`, `        return value_${l} * ${n + l}`);
      body.push('');
    }
    if (f === 41) body.push('class Straße:', '    """Eine Adresse mit Hausnummern."""', '    def hausnummer(self):', '        return 7', '');
    writeFileSync(path.join(dir, `mod${f}.py`), body.join('\n'));
  }
  ws = createWorkspace({ dir: path.join(tmp, 'ws'), concurrency: 0 });
  await ws.index([tree]);
}, 120_000);
afterAll(async () => {
  await ws?.close();
  await oneShot.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('a non-ASCII definition: the index answers as the scan', () => {
  const cases: Omit<SearchOptions, 'paths'>[] = [
    { query: 'STRASSE', mode: 'hybrid', topK: 5 },
    { query: 'STRASSE', mode: 'lexical', topK: 5 },
    { query: 'Straße', mode: 'hybrid', topK: 5 },
    { query: 'strasse', mode: 'lexical', topK: 3 },
  ];
  it.each(cases)('%o', async (o) => {
    const opts = { ...o, paths: [tree] };
    const scan = await oneShot.search(opts);
    const indexed = await ws.search(opts);
    expect(indexed.stats.index?.workspace).toBeDefined();
    expect(rounded(indexed)).toEqual(rounded(scan));
    expect(scan.results.some((r) => r.filename.endsWith('mod41.py'))).toBe(true);
  });
});
