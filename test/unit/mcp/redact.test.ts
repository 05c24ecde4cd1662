// What an MCP answer may say of a warning's message: paths inside the root relative to it, the index's
// directory as "the index", any other place as "[outside the root]" (one row per case).
import { describe, expect, it } from 'vitest';
import { OUTSIDE, redactMessage, shownPath } from '../../../src/mcp/redact.js';

const root = '/srv/project';
const o = { root, rootGiven: '/home/u/proj-link', indexDir: '/home/u/.local/share/simgrep/workspaces/project-1a2b' };

describe('redactMessage', () => {
  const rows: [string, string, string?][] = [
    [`${root}/src/a.ts: cannot be read (EACCES); check its permissions`, 'src/a.ts: cannot be read (EACCES); check its permissions'],
    [`${root}/src/my file.ts: cannot be read (EIO); check its permissions`, 'src/my file.ts: cannot be read (EIO); check its permissions', `${root}/src/my file.ts`],
    [`cannot read directory ${root}/pkg: EACCES; check its permissions`, 'cannot read directory pkg: EACCES; check its permissions'],
    [`${root}/x: no such file or directory (relative paths start at /home/u)`, `x: no such file or directory (relative paths start at ${OUTSIDE})`],
    [`${root}/d/.gitignore is a directory; its ignore rules were not applied`, 'd/.gitignore is a directory; its ignore rules were not applied'],
    [`the snapshot could not be saved to ${o.indexDir}/snapshot.bin (ENOSPC)`, 'the snapshot could not be saved to the index (ENOSPC)'],
    [`${root}_evil/secret.ts: symbolic link loop`, `${OUTSIDE}: symbolic link loop`],
    ['/etc/passwd: cannot be read (EACCES)', `${OUTSIDE}: cannot be read (EACCES)`],
    ['~/notes.md and ../../other/x.ts and s3://bucket/key and C:\\Users\\u\\x', `${OUTSIDE} and ${OUTSIDE} and ${OUTSIDE} and ${OUTSIDE}`],
    [`${o.rootGiven}/lib/b.ts: too large (12 MB > 10 MB); raise --max-file-bytes`, 'lib/b.ts: too large (12 MB > 10 MB); raise --max-file-bytes'],
    [`${root}: the root itself, and ${root}/v1.2/z.py.`, '.: the root itself, and v1.2/z.py.'],
    ['a timeout after 30 s; raise --timeout', 'a timeout after 30 s; raise --timeout'],
  ];
  it.each(rows)('%s', (message, expected, exact) => {
    expect(redactMessage(message, o, exact)).toBe(expected);
  });

  it('a path: relative inside the root, the index, else outside', () => {
    expect([shownPath(`${root}/a/b.ts`, o), shownPath(root, o), shownPath(`${o.indexDir}/x`, o), shownPath('/tmp/y', o)]).toEqual(['a/b.ts', '.', 'the index', OUTSIDE]);
  });
});
