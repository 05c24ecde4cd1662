// What an MCP answer may say of a warning's message: paths inside the root relative to it, the index's
// directory as "the index", any other place as "[outside the root]" (one row per case).
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { outsidePlaces } from '../../../src/mcp/outside-places.js';
import { OUTSIDE, redactError, redactMessage, shownModel, shownPath } from '../../../src/mcp/redact.js';

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
    // A path going up out of the root or the index (isInside is a string prefix; path.relative normalizes).
    [`${root}/../../etc/passwd: cannot be read`, `${OUTSIDE}: cannot be read`],
    [`${root}/src/../../other/x.ts and ${root}/src/../b.ts`, `${OUTSIDE} and b.ts`],
    [`${o.indexDir}/../../../../.ssh/id_rsa: unreadable`, `${OUTSIDE}: unreadable`],
    // A further path inside a token that starts with the root is judged on its own.
    [`${root}/a.ts:/home/u/secret.ts`, `a.ts:${OUTSIDE}`],
    [`${root}/a.ts=/home/u/secret.ts and ${root}/a.ts|/etc/x and ${root}/a.ts→/home/u/y`, `a.ts=${OUTSIDE} and a.ts|${OUTSIDE} and a.ts→${OUTSIDE}`],
    [`${root}/a.ts:${root}/b.ts: differ`, 'a.ts:b.ts: differ'],
    [`${root}/a.ts:~/x.ts`, `a.ts:${OUTSIDE}`],
    [`${root}:/home/u/x`, `.:${OUTSIDE}`],
    [`${root}-link/x.ts and ${root}.bak/y`, `${OUTSIDE} and ${OUTSIDE}`],
    // Credentials and percent-encoded separators.
    ['cannot reach user:hunter2@db.internal; check the URL', `cannot reach ${OUTSIDE}; check the URL`],
    ['opened %2Fhome%2Fu%2Fsecret and %5cUsers%5cu', `opened ${OUTSIDE} and ${OUTSIDE}`],
    ['error: 3 files', 'error: 3 files'],
    // A path with spaces known only by the warning's own path: quoted whole it goes, else its pieces with no separator show (the limit).
    [`"/Users/John Smith/Secret Plan.txt": unreadable`, `"${OUTSIDE}": unreadable`],
    [`/Users/John Smith/Secret Plan.txt: unreadable`, `${OUTSIDE} ${OUTSIDE} Plan.txt: unreadable`],
    [`cannot open '${root}/my dir/a.ts' or '/home/u/my dir/b.ts': ENOENT`, `cannot open 'my dir/a.ts' or '${OUTSIDE}': ENOENT`],
    [`the query "how does src/a.ts work" and "it's /tmp"`, `the query "how does ${OUTSIDE} work" and "it's ${OUTSIDE}"`],
  ];
  it.each(rows)('%s', (message, expected, exact) => {
    expect(redactMessage(message, o, exact)).toBe(expected);
  });

  it('a path: relative inside the root, the index, else outside', () => {
    expect([shownPath(`${root}/a/b.ts`, o), shownPath(root, o), shownPath(`${o.indexDir}/x`, o), shownPath('/tmp/y', o)]).toEqual(['a/b.ts', '.', 'the index', OUTSIDE]);
  });

  it('a path going up out of the root or the index is outside', () => {
    expect([shownPath(`${root}/../../etc/passwd`, o), shownPath(`${root}/..`, o), shownPath(`${o.indexDir}/../x`, o), shownPath(`${root}/a/../b.ts`, o)])
      .toEqual([OUTSIDE, OUTSIDE, OUTSIDE, 'b.ts']);
  });

  // A search-wide message quotes the query (MCP accepts 100,000 characters): the old PLACE pattern
  // backtracked quadratically on a long token with no separator (11.5 s for 20,000 characters).
  it('a 100,000-character token redacts in well under a second', () => {
    for (const token of ['𒀀'.repeat(50_000), 'a'.repeat(100_000), `~${'a'.repeat(99_999)}`, `${root}/${'a:'.repeat(50_000)}`]) {
      const t0 = performance.now();
      const out = redactMessage(`the query "${token}" was searched by its words alone`, o);
      expect(performance.now() - t0).toBeLessThan(2000);
      expect(out.length).toBeLessThan(2100);
    }
  });

  it('a long message is cut before it is redacted, not inside a surrogate pair', () => {
    const out = redactMessage('𒀀'.repeat(5000), o);
    expect(out.endsWith('…')).toBe(true);
    expect(out.slice(0, -1)).toMatch(/^(?:\u{12000})+$/u);
  });
});

describe('shownModel (trial36)', () => {
  const o = { root: '/work/project', bundledDir: '/opt/simgrep/src/model/bundled/model' };
  it('a Hugging Face id as it is, the bundled model as "bundled", a model inside the root by its path, else its name only', () => {
    expect(shownModel('minishlab/potion-base-8M', o)).toBe('minishlab/potion-base-8M');
    expect(shownModel('/opt/simgrep/src/model/bundled/model', o)).toBe('bundled');
    expect(shownModel('/work/project/models/tiny', o)).toBe('/work/project/models/tiny');
    expect(shownModel('/home/me/private/potion-8m', o)).toBe('potion-8m');
    expect(shownModel('/work/project/../secret/m', o)).toBe('m');
  });

  it('a local model given relative or under ~ is resolved, then named as an absolute one (mend36)', () => {
    expect(shownModel('~/acme-client/model', o)).toBe('model');
    expect(shownModel('~', o)).toBe(path.basename(os.homedir()));
    expect(shownModel('../acme-client/model', o)).toBe('model');
    expect(shownModel('./acme-client/model', o)).toBe('model');
    expect(shownModel('acme-client/../model', o)).toBe('model');
    expect(shownModel(path.relative(process.cwd(), '/work/project/models/tiny'), o)).toBe('/work/project/models/tiny');
    expect(shownModel('sentence-transformers/all-MiniLM-L6-v2', o)).toBe('sentence-transformers/all-MiniLM-L6-v2');
  });
});

describe('redactError (trial36): a tool error keeps the agent\'s own relative arguments and in-root paths', () => {
  const e = { root, indexDir: '/home/u/.local/share/simgrep/workspaces' };
  const rows: [string, string][] = [
    ['BAD_FLAG: globs "src/[" has a [ without its ]; escape it as \\[', 'BAD_FLAG: globs "src/[" has a [ without its ]; escape it as \\['],
    ['BAD_FLAG: -g/--glob "!" is empty; give a pattern such as "*.ts", "src/**" or "!vendor/"', 'BAD_FLAG: -g/--glob "!" is empty; give a pattern such as "*.ts", "src/**" or "!vendor/"'],
    [`BAD_FLAG: directory must be an existing directory inside the server's root ${root}; pass a path relative to the root`, `BAD_FLAG: directory must be an existing directory inside the server's root ${root}; pass a path relative to the root`],
    [`BAD_FLAG: ${root}/src/a.ts has 6 lines; line 9 is past its end`, `BAD_FLAG: ${root}/src/a.ts has 6 lines; line 9 is past its end`],
    ["ENOTDIR: not a directory, scandir '/home/u/.local/share/simgrep/workspaces'", "ENOTDIR: not a directory, scandir 'the index'"],
    ['INDEX_UNREADABLE: cannot read the index directory /home/u/.local/share/simgrep/workspaces/p-1a2b: ENOTDIR; check its permissions', 'INDEX_UNREADABLE: cannot read the index directory the index: ENOTDIR; check its permissions'],
    ["EACCES: permission denied, open '/home/u/.cache/simgrep/model.bin'", `EACCES: permission denied, open '${OUTSIDE}'`],
    ['see ../../etc/passwd and ~/x and s3://b/k and file:///etc', `see ${OUTSIDE} and ${OUTSIDE} and ${OUTSIDE} and ${OUTSIDE}`],
    // mend36: an outside path with a space, a comma or an apostrophe goes whole (its later pieces looked
    // relative and were kept); so does a path that only starts with the root or the index's directory.
    ['/home/me/My Documents/clients/acme-corp/potion', OUTSIDE],
    ['/home/me/a,b/c/d.txt', OUTSIDE],
    ["/home/me/it's/private/x.txt", OUTSIDE],
    ['/home/me/My Big Documents/acme/x.txt: unreadable', `${OUTSIDE}: unreadable`],
    [`${root} copy/clients/acme/contract.pdf`, OUTSIDE],
    [`${root}\u00a0old/clients/acme`, OUTSIDE],
    [`${e.indexDir} backup/clients/acme`, OUTSIDE],
    ['Model directory /tmp/x/John Smith/private/model does not exist. Pass --model with a directory holding config.json, tokenizer.json and model.safetensors, or a Hugging Face id like minishlab/potion-base-8M.',
      `Model directory ${OUTSIDE} does not exist. Pass --model with a directory holding config.json, tokenizer.json and model.safetensors, or a Hugging Face id like minishlab/potion-base-8M.`],
    // ... and no further: what follows a path across punctuation, or two stop characters, is the message.
    [`cannot read /home/me/x: raise -g/--glob or see src/a.ts`, `cannot read ${OUTSIDE}: raise -g/--glob or see src/a.ts`],
    [`inside the server's root ${root}; pass src/x`, `inside the server's root ${root}; pass src/x`],
    // A UNC path and a scheme are no relative paths.
    ['see \\\\server\\share\\secret and file:etc/passwd', `see ${OUTSIDE} and ${OUTSIDE}`],
  ];
  for (const [input, want] of rows) it(input.slice(0, 60), () => expect(redactError(input, e)).toBe(want));

  it('the call\'s own argument strings, where the message quotes them, are kept exactly (mend36)', () => {
    expect(redactError('BAD_FLAG: -g/--glob "/src/[" has a [ without its ]; escape it as \\[', e, ['/src/[', 'retry']))
      .toBe('BAD_FLAG: -g/--glob "/src/[" has a [ without its ]; escape it as \\[');
    expect(redactError('BAD_FLAG: "~/x" and "/home/u/y" and /home/u/z', e, ['~/x'])).toBe(`BAD_FLAG: "~/x" and "${OUTSIDE}" and ${OUTSIDE}`);
    // An argument names no more than itself: the same string unquoted, or inside a longer path, goes.
    expect(redactError('/home/u and "/home/u/secret"', e, ['/home/u'])).toBe(`${OUTSIDE} and "${OUTSIDE}"`);
  });
});

describe('redactMessage without keepRelative (a warning\'s): a path with spaces keeps its documented limit', () => {
  it('pieces without a separator show, with one go', () => {
    expect(redactMessage('/home/me/My Documents/clients/x', o)).toBe(`${OUTSIDE} ${OUTSIDE}`);
    expect(redactMessage('/home/me/a,b/c/d.txt', o)).toBe(`${OUTSIDE},${OUTSIDE}`);
  });
});

describe('redactError (left37): an outside path with spaces or punctuation goes whole, nothing of it left', () => {
  const e = { root, indexDir: '/home/u/.local/share/simgrep/workspaces' };
  const rows: [string, string][] = [
    ['cannot read /home/me/John Smith/private/model', `cannot read ${OUTSIDE}`],
    ['cannot read /home/me/John, Smith/private/model: EACCES', `cannot read ${OUTSIDE}: EACCES`],
    ["cannot read /home/me/John Smith's home/models/m: bad", `cannot read ${OUTSIDE}: bad`],
    // A piece after `. ` or `: ` inside the path (they ended the path before).
    ['cannot read /home/me/John Smith. Private/model; check it', `cannot read ${OUTSIDE}; check it`],
    ['cannot read /home/me/a: b/c; check it', `cannot read ${OUTSIDE}; check it`],
    ['open /home/x/a. b/c failed', `open ${OUTSIDE} failed`],
    // Brackets and quotes inside the path.
    ['cannot read /home/me/(John) Smith/x', `cannot read ${OUTSIDE}`],
    ['cannot read /home/me/[John] {Smith}/x', `cannot read ${OUTSIDE}`],
    ['cannot read /home/me/"John" Smith/x', `cannot read ${OUTSIDE}`],
    ['cannot read /home/me/`John` Smith/x', `cannot read ${OUTSIDE}`],
    ['cannot read /home/me/x (y)/z', `cannot read ${OUTSIDE}`],
    // Unicode letters and spaces.
    ['cannot read /home/me/Jöhn Smïth/çà/x', `cannot read ${OUTSIDE}`],
    ['cannot read /home/me/文档 资料/x', `cannot read ${OUTSIDE}`],
    ['cannot read /home/me/John\u00a0Smith/x', `cannot read ${OUTSIDE}`],
    ['cannot read /home/me/John\u2003Smith/x', `cannot read ${OUTSIDE}`],
    // At the very end of the message, and two in one message.
    ['cannot read /home/me/a b/c', `cannot read ${OUTSIDE}`],
    ['cannot read /home/me/a b/c.', `cannot read ${OUTSIDE}.`],
    ['open /home/x/John, Smith/c and /home/y/Jane Doe/d', `open ${OUTSIDE} and ${OUTSIDE}`],
    ['cannot compare /home/me/a b/c and /home/you/d e/f: differ', `cannot compare ${OUTSIDE} and ${OUTSIDE}: differ`],
    // Windows, UNC and file: forms.
    ['cannot compare /home/me/a b/c with C:\\Users\\John Smith\\x', `cannot compare ${OUTSIDE} with ${OUTSIDE}`],
    ['see C:\\Users\\John Smith\\Documents\\x.txt', `see ${OUTSIDE}`],
    ['see C:/Users/John Smith/Documents/x.txt', `see ${OUTSIDE}`],
    ['see \\\\server\\share name\\John Smith\\x', `see ${OUTSIDE}`],
    ['see file:///home/John%20Smith/x and file:///home/John Smith/y', `see ${OUTSIDE} and ${OUTSIDE}`],
    ['see file://host/share/John Smith/x', `see ${OUTSIDE}`],
    // Quoted whole (Node's fs errors).
    ["ENOENT: no such file or directory, open '/home/John Smith/x/config.json'", `ENOENT: no such file or directory, open '${OUTSIDE}'`],
    // ... and what follows a path as the message's own words stays: a word after `: ` or `. `, a clause after `;`.
    ['see /home/me/x: raise -g/--glob or see src/a.ts', `see ${OUTSIDE}: raise -g/--glob or see src/a.ts`],
    ['see /home/me/x. Pass src/a.ts instead', `see ${OUTSIDE}. Pass src/a.ts instead`],
    [`inside the server's root ${root}; pass src/x`, `inside the server's root ${root}; pass src/x`],
  ];
  it.each(rows)('%s', (input, want) => expect(redactError(input, e)).toBe(want));
});

describe('redactError (mend37): after an outside path, the message\'s own words and relative paths stay', () => {
  // left37 let a run go on across `, ` and ` (` and any number of words, and a later relative piece
  // spliced the whole run away: the message's fix hints with it.
  const e = { root: '/home/me/proj', indexDir: '/home/me/.simgrep/workspaces', outside: outsidePlaces({ root: '/home/me/proj', env: { SIMGREP_HOME: '/home/me/.simgrep' } }) };
  const rows: [string, string][] = [
    ['cannot read /srv/m, see src/a.ts', `cannot read ${OUTSIDE}, see src/a.ts`],
    ['/srv/m is not a model, pass --model org/name', `${OUTSIDE} is not a model, pass --model org/name`],
    ['/srv/models/m is not a model2vec model directory (pass --model org/name or a local dir)', `${OUTSIDE} is not a model2vec model directory (pass --model org/name or a local dir)`],
    ['cannot read /srv/m (see src/a.ts)', `cannot read ${OUTSIDE} (see src/a.ts)`],
    ['cannot read /srv/m: see src/a.ts', `cannot read ${OUTSIDE}: see src/a.ts`],
  ];
  it.each(rows)('%s', (input, want) => expect(redactError(input, e)).toBe(want));
  it('a word opened with ` (` goes with the path only across its closing bracket', () => {
    expect(redactError('cannot read /home/x/My (old) docs/y', e)).toBe(`cannot read ${OUTSIDE}`);
  });

  it('a known place is never cut in two at 2,000 characters (its words would show)', () => {
    const home = "/tmp/x/John Smith's ✓ home (x)";
    const env = { SIMGREP_HOME: `${home}/.simgrep` };
    const k = { root: '/home/me/proj', indexDir: `${home}/.simgrep/workspaces`, outside: outsidePlaces({ root: '/home/me/proj', model: `${home}/models/m`, env }) };
    for (const n of [1960, 1975, 1990, 1999]) {
      const got = redactError(`${'a'.repeat(n)} at ${home}/models/m failed`, k);
      expect(got).not.toMatch(/John|Smith|✓|home/);
      expect(got.endsWith('…')).toBe(true);
    }
  });

  it('the folders above a place\'s real path are places too (a home that is a link)', () => {
    const base = path.join(os.tmpdir(), `mend37-unit-${process.pid}`);
    const realHome = path.join(base, 'r', 'Real Place', 'John Smith');
    mkdirSync(path.join(realHome, '.simgrep'), { recursive: true });
    symlinkSync(realHome, path.join(base, 'home'));
    try {
      const env = { SIMGREP_HOME: path.join(base, 'home', '.simgrep') };
      const k = { root: '/home/me/proj', indexDir: `${env.SIMGREP_HOME}/workspaces`, outside: outsidePlaces({ root: '/home/me/proj', env }) };
      expect(redactError(`cannot read ${path.join(base, 'r', 'Real Place')}: EACCES`, k)).toBe(`cannot read ${OUTSIDE}: EACCES`);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});

describe('redactError (left37): the places the server knows go first, as whole strings, in every form', () => {
  // A home, an index home and a model folder under a directory with spaces and an apostrophe.
  const home = "/tmp/left37-unit/John Smith's home";
  const env = { SIMGREP_HOME: `${home}/.simgrep`, XDG_CACHE_HOME: `${home}/.cache`, SIMGREP_RUNTIME_DIR: `${home}/run` };
  const e = { root, indexDir: `${home}/.simgrep/workspaces`, outside: outsidePlaces({ root, model: `${home}/models/bad model`, env }) };
  const rows: [string, string][] = [
    [`Model directory ${home}/models/bad model does not exist. Pass --model with a directory`, `Model directory ${OUTSIDE} does not exist. Pass --model with a directory`],
    [`cannot read ${home}: EACCES`, `cannot read ${OUTSIDE}: EACCES`],
    [`cannot read ${home}`, `cannot read ${OUTSIDE}`],
    [`the model ${home}/models/bad model/model.safetensors is truncated (12 of 40 bytes)`, `the model ${OUTSIDE} is truncated (12 of 40 bytes)`],
    [`INDEX_UNREADABLE: ${home}/.simgrep/workspaces/p-1a2b/snapshot.bin: bad checksum`, 'INDEX_UNREADABLE: the index: bad checksum'],
    [`open file:///tmp/left37-unit/John%20Smith's%20home/models/bad%20model/config.json`, `open ${OUTSIDE}`],
    [`open %2Ftmp%2Fleft37-unit%2FJohn%20Smith's%20home%2Fmodels`, `open ${OUTSIDE}`],
    [`${home}/.cache/huggingface/hub and ${home}/run/simgrep-1.sock: gone`, `${OUTSIDE} and ${OUTSIDE}: gone`],
    [`${root}/src/a.ts and ${home}/x y/z`, `${root}/src/a.ts and ${OUTSIDE}`],
  ];
  it.each(rows)('%s', (input, want) => expect(redactError(input, e)).toBe(want));

  it('a place inside the root is none of them; the root inside one shows', () => {
    const places = outsidePlaces({ root: home, model: `${home}/models/m`, env });
    expect(places.filter((p) => p.startsWith(home))).toEqual([]);
    expect(places).toContain(path.dirname(home));
    const inner = { root: `${home}/project`, indexDir: env.SIMGREP_HOME, outside: outsidePlaces({ root: `${home}/project`, env }) };
    expect(redactError(`BAD_FLAG: ${home}/project/src/a.ts has 6 lines; ${home}/projects/b is outside`, inner))
      .toBe(`BAD_FLAG: ${home}/project/src/a.ts has 6 lines; ${OUTSIDE} is outside`);
  });
});
