// The test run's own guard (issue 14): npm test filled the user's ~/.cache/simgrep with tokenizer
// entries. Every directory simgrep writes by default must resolve into the run's temp dir.
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hubCacheDir } from '../../src/model/hf-env.js';
import { tokenizerCacheDir } from '../../src/model/tokenizer-file.js';
import { simgrepHome } from '../../src/workspace/registry.js';

describe('test isolation', () => {
  it('tests never write into the user\'s real caches (npm test wrote entries into ~/.cache/simgrep)', () => {
    const tmp = path.resolve(os.tmpdir()) + path.sep;
    const dirs = { tokenizers: tokenizerCacheDir(), hub: hubCacheDir(), home: simgrepHome(), xdgCache: process.env.XDG_CACHE_HOME };
    for (const [what, dir] of Object.entries(dirs)) {
      expect(path.resolve(dir ?? '').startsWith(tmp), `${what} dir ${dir} is under ${tmp}`).toBe(true);
      expect(dir, what).toContain(`${path.sep}simgrep-test-home-`);
    }
  });
});
