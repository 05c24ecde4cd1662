// Which personality simgrep takes from the name it was started by (argv[1]'s base name).
import { describe, expect, it } from 'vitest';
import { personalityOf } from '../../../src/cli/semtools.js';

describe('personalityOf', () => {
  it.each([
    ['/usr/local/bin/semtools', 'semtools'], ['/home/u/.local/bin/search', 'search'], ['semtools.js', 'semtools'],
    ['/x/dist/src/cli/main.js', null], ['/usr/bin/simgrep', null], ['/opt/semtools-old', null], [undefined, null],
  ] as const)('%s -> %s', (script, want) => {
    expect(personalityOf(script)).toBe(want);
  });
});
