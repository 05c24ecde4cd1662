// LanceDB and simgrep share one apache-arrow copy (src/workspace/store/lancedb.ts), loaded in simgrep's own
// processes from the package's single-file build (single-file-arrow.ts): tables simgrep builds are
// LanceDB's tables and back.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../helpers/shared.js';
import { cliPath } from '../../helpers/cli.js';
import { writeTinyModel } from '../../helpers/tiny-model.js';
import { useSingleFileArrow } from '../../../src/workspace/store/single-file-arrow.js';
useSingleFileArrow(); // as the CLI does, before lancedb.ts loads arrow
const { arrow, loadLanceDB } = await import('../../../src/workspace/store/lancedb.js');
const { Table, vectorFromArray } = await import('../../../src/workspace/store/arrow.js');

const tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-arrow-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the apache-arrow LanceDB uses', () => {
  it('is the one simgrep uses, loaded from the single-file build', () => {
    const fromLanceDB = createRequire(createRequire(import.meta.url).resolve('@lancedb/lancedb'));
    expect(fromLanceDB('apache-arrow')).toBe(arrow);
    expect(Object.keys(arrow).length).toBeGreaterThan(100);
    const single = path.join(path.dirname(fromLanceDB.resolve('apache-arrow')), 'Arrow.es2015.min.js');
    expect(fromLanceDB.cache[single]?.exports).toBe(arrow);
  });

  it('round-trips a table through a real LanceDB directory as instances of the same classes', async () => {
    const db = await loadLanceDB().connect(path.join(tmp, 'db'));
    const rows = new Table({ path: vectorFromArray(['a.ts', 'b.ts']), start: vectorFromArray(Int32Array.from([0, 48])) });
    const t = await db.createTable('t', rows);
    const back = await t.query().toArrow();
    expect(back).toBeInstanceOf(Table);
    expect(back.getChild('path')!.toArray()).toEqual(['a.ts', 'b.ts']);
    expect(Array.from(back.getChild('start')!.toArray() as Int32Array)).toEqual([0, 48]);
    t.close();
    db.close();
  });

  it('is the package as it is in a program that embeds the library (no single-file swap there)', () => {
    const script = `const { arrow } = await import(${JSON.stringify(pathToFileURL(path.join(repoRoot, 'dist/src/workspace/store/lancedb.js')).href)});
      const { createRequire } = await import('node:module');
      const req = createRequire(${JSON.stringify(path.join(repoRoot, 'package.json'))});
      const entry = createRequire(req.resolve('@lancedb/lancedb')).resolve('apache-arrow');
      const single = Object.keys(req.cache).some((k) => k.endsWith('Arrow.es2015.min.js'));
      console.log(JSON.stringify({ same: req.cache[entry]?.exports === arrow, single }));`;
    const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
    expect(out).toEqual({ same: true, single: false });
  });

  it('is loaded by the CLI only when it opens an index, from the single-file build; a search never loads it (nor picomatch); OpenTelemetry is never loaded', async () => {
    const tree = path.join(tmp, 'cli-tree');
    mkdirSync(tree, { recursive: true });
    writeFileSync(path.join(tree, 'net.ts'), 'function send() {\n  // retry failed upload\n}\n');
    const model = await writeTinyModel(path.join(tmp, 'model'));
    // Prints, as the CLI exits, the apache-arrow files this process loaded (the package's entry is the single file's module then), and
    // picomatch's (only a quoted glob needs it) and OpenTelemetry's (LanceDB's metrics hook, which simgrep never calls).
    const probe = path.join(tmp, 'arrow-probe.cjs');
    writeFileSync(probe, `process.on('exit', () => process.stderr.write('ARROW ' + JSON.stringify([...new Set(Object.values(require.cache).filter((m) => !m.id.endsWith(' (deferred)')).map((m) => m.filename).filter((f) => /apache-arrow|picomatch|opentelemetry/.test(f)))].map((f) => require('node:path').basename(f))) + '\\n'));`);
    const loaded = (args: string[]) => {
      const r = spawnSync(process.execPath, ['-r', probe, cliPath, ...args, '--model', model, '-J', '0'], {
        encoding: 'utf8', env: { ...process.env, HF_HUB_OFFLINE: '1', SIMGREP_HOME: path.join(tmp, 'home'), SIMGREP_CACHE_DIR: path.join(tmp, 'cache') },
      });
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(/ARROW (.*)/.exec(r.stderr)![1]) as string[];
    };
    const idx = path.join(tmp, 'cli-index');
    expect(loaded(['retry upload', tree, '--no-index'])).toEqual([]);
    expect(loaded(['index', tree, '--index-dir', idx])).toEqual(['Arrow.es2015.min.js']);
    expect(loaded(['retry upload', tree, '--index-dir', idx])).toEqual([]);
  });
});
