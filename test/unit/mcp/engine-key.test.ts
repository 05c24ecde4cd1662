// Which engine a front reaches: fronts of two installs of one version (a clone and a global install)
// must not share one (the bench harness alternating two builds reached the other build's engine), and
// a relative home names the same directory as its absolute path.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { engineSocketPath } from '../../../src/mcp/engine-key.js';

const identity = { protocol: 1, version: '1.0.0', model: 'm', embedder: null };
const env = (home: string): NodeJS.ProcessEnv => ({ SIMGREP_HOME: home, XDG_RUNTIME_DIR: '/tmp/simgrep-key-test' });

describe('engineSocketPath', () => {
  it('names one engine per program file', () => {
    const a = engineSocketPath({ root: '/r', identity, program: '/opt/a/dist/src/cli/main.js' }, env('/h'));
    const b = engineSocketPath({ root: '/r', identity, program: '/opt/b/dist/src/cli/main.js' }, env('/h'));
    expect(a).not.toBe(b);
    expect(engineSocketPath({ root: '/r', identity, program: '/opt/a/dist/src/cli/main.js' }, env('/h'))).toBe(a);
  });

  it('takes a relative home as the directory it names', () => {
    const rel = engineSocketPath({ root: '/r', identity }, env('some/home'));
    expect(engineSocketPath({ root: '/r', identity }, env(path.resolve('some/home')))).toBe(rel);
    expect(engineSocketPath({ root: '/r', identity }, env('/elsewhere/home'))).not.toBe(rel);
  });
});
