// Builds the 13 dev-set corpora from pinned package releases (pip wheels, npm tarballs) into
// bench/.tmp/quality/corpora/<name>/, idempotently, and checks every labelled target is there.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { countCorpus } from '../count.js';
import { REPO_ROOT, toRootPath, type Dataset, type RepoSpec } from './dataset.js';

export interface Pin {
  kind: 'pip' | 'npm';
  /** Registry name (pip project or npm package). */
  pkg: string;
  version: string;
  /** Search root inside the extracted folder. */
  root: string;
}

/** The releases the published README checked every target against. Changing one changes the corpus. */
export const PINS: Record<string, Pin> = {
  aiohttp: { kind: 'pip', pkg: 'aiohttp', version: '3.14.3', root: 'aiohttp' },
  click: { kind: 'pip', pkg: 'click', version: '8.5.0', root: 'click' },
  fastapi: { kind: 'pip', pkg: 'fastapi', version: '0.142.2', root: 'fastapi' },
  flask: { kind: 'pip', pkg: 'flask', version: '3.1.3', root: 'flask' },
  httpx: { kind: 'pip', pkg: 'httpx', version: '0.28.1', root: 'httpx' },
  pydantic: { kind: 'pip', pkg: 'pydantic', version: '2.13.5', root: 'pydantic' },
  requests: { kind: 'pip', pkg: 'requests', version: '2.34.2', root: 'requests' },
  starlette: { kind: 'pip', pkg: 'starlette', version: '1.7.0', root: 'starlette' },
  axios: { kind: 'npm', pkg: 'axios', version: '1.21.1', root: 'package/lib' },
  express: { kind: 'npm', pkg: 'express', version: '5.3.0', root: 'package/lib' },
  redux: { kind: 'npm', pkg: 'redux', version: '5.0.1', root: 'package/src' },
  trpc: { kind: 'npm', pkg: '@trpc/server', version: '11.25.2', root: 'package/src' },
  zod: { kind: 'npm', pkg: 'zod', version: '4.6.7', root: 'package/src' },
};

export const QUALITY_TMP = path.join(REPO_ROOT, 'bench', '.tmp', 'quality');
const CORPORA = path.join(QUALITY_TMP, 'corpora');
const DOWNLOADS = path.join(QUALITY_TMP, 'downloads');
const MARKER = '.pinned.json';

export interface Corpus {
  name: string;
  pin: Pin;
  /** Absolute search root. */
  root: string;
  files: number;
  lines: number;
  bytes: number;
}

export interface MissingTarget { repo: string; query: string; target: string }

const pinLabel = (p: Pin): string => `${p.pkg}==${p.version}`;

function run(cmd: string, args: string[], what: string): string {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') throw Object.assign(new Error(`${what}: \`${cmd}\` is not installed`), { code: 'ENOENT' });
    const tail = String(e.stderr ?? e.message).trim().split('\n').slice(-5).join('\n  ');
    throw new Error(`${what} failed (\`${cmd} ${args.join(' ')}\`):\n  ${tail}`);
  }
}

/** `pip download`, falling back to `python3 -m pip` where no `pip` is on PATH. */
function pipDownload(pin: Pin, dest: string): string {
  const args = ['download', '--no-deps', '--only-binary=:all:', '-d', dest, `${pin.pkg}==${pin.version}`];
  const what = `downloading the wheel ${pinLabel(pin)}`;
  try {
    run('pip', args, what);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    run('python3', ['-m', 'pip', ...args], what);
  }
  const norm = pin.pkg.toLowerCase().replace(/[-_.]+/g, '_');
  const wheel = readdirSync(dest).find((f) => f.endsWith('.whl') && f.toLowerCase().startsWith(`${norm}-${pin.version}-`));
  if (!wheel) throw new Error(`${what}: pip succeeded but no ${norm}-${pin.version}-*.whl is in ${dest}`);
  return path.join(dest, wheel);
}

function npmPack(pin: Pin, dest: string): string {
  const out = run('npm', ['pack', `${pin.pkg}@${pin.version}`, '--pack-destination', dest, '--json', '--silent'], `downloading ${pin.pkg}@${pin.version} from npm`);
  const json = out.slice(out.indexOf('['));
  const [info] = JSON.parse(json) as { filename: string }[];
  return path.join(dest, info.filename);
}

function unzipFolder(wheel: string, folder: string, dest: string): void {
  try {
    run('unzip', ['-q', '-o', wheel, `${folder}/*`, '-d', dest], `unzipping ${path.basename(wheel)}`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    run('python3', ['-m', 'zipfile', '-e', wheel, dest], `unzipping ${path.basename(wheel)} with python3`);
  }
}

function fetchInto(pin: Pin, dest: string): void {
  const dl = path.join(DOWNLOADS, pin.pkg.replace(/[@/]/g, '_'), pin.version);
  mkdirSync(dl, { recursive: true });
  if (pin.kind === 'pip') unzipFolder(pipDownload(pin, dl), pin.root, dest);
  else run('tar', ['-xzf', npmPack(pin, dl), '-C', dest], `untarring ${pin.pkg}@${pin.version}`);
}

/** Ensures the pinned corpus of one repo exists; downloads and extracts it when absent or stale. */
export function ensureCorpus(name: string, log: (msg: string) => void = () => undefined): Corpus {
  const pin = PINS[name];
  if (!pin) throw new Error(`no pinned release for repo "${name}"; add it to PINS in bench/quality/corpora.ts`);
  const dir = path.join(CORPORA, name);
  const marker = path.join(dir, MARKER);
  const fresh = existsSync(marker) && (JSON.parse(readFileSync(marker, 'utf8')) as Pin).version === pin.version;
  if (!fresh) {
    log(`building corpus ${name} from ${pin.kind} ${pinLabel(pin)}`);
    const tmp = `${dir}.tmp-${process.pid}`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    try {
      fetchInto(pin, tmp);
      if (!existsSync(path.join(tmp, pin.root))) throw new Error(`${pinLabel(pin)} has no ${pin.root}/ folder`);
      writeFileSync(path.join(tmp, MARKER), `${JSON.stringify(pin)}\n`);
      rmSync(dir, { recursive: true, force: true });
      renameSync(tmp, dir);
    } catch (err) {
      rmSync(tmp, { recursive: true, force: true });
      throw new Error(`could not build the ${name} corpus: ${(err as Error).message}\n`
        + 'The corpora come from the local pip wheel store and the npm registry (see ../shared/eval/semble-dev/README.md).');
    }
  }
  const root = path.join(dir, pin.root);
  return { name, pin, root, ...countCorpus(root) };
}

/** Labelled targets that do not exist under their repo's search root. */
export function missingTargets(data: Dataset, corpora: Map<string, Corpus>): MissingTarget[] {
  const missing: MissingTarget[] = [];
  const specs = new Map<string, RepoSpec>(data.repos.map((r) => [r.name, r]));
  for (const q of data.queries) {
    const corpus = corpora.get(q.repo);
    if (!corpus) continue;
    for (const t of q.targets) {
      const rel = toRootPath(specs.get(q.repo)!, t);
      if (rel === null || !existsSync(path.join(corpus.root, rel))) missing.push({ repo: q.repo, query: q.query, target: t });
    }
  }
  return missing;
}
