// Builds the dev-set corpora from their pins (pip wheels, npm tarballs, git revisions) into
// bench/.tmp/quality/corpora/<name>/, idempotently, and checks every labelled target is there.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { countCorpus } from '../count.js';
import { REPO_ROOT, toRootPath, type Dataset, type RepoSpec } from './dataset.js';
import { exportGitTree } from './git-export.js';
import { PINS, type PackagePin, type Pin } from './pins.js';

export { PINS, type Pin };

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
  /** git pins: files under the root that the snapshot lists but could not export (absent large blobs). */
  absent: string[];
}

export interface MissingTarget { repo: string; query: string; target: string }

const pinLabel = (p: Pin): string => (p.kind === 'git' ? `${p.pkg}@${p.version.slice(0, 12)}` : `${p.pkg}==${p.version}`);

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
function pipDownload(pin: PackagePin, dest: string): string {
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

function npmPack(pin: PackagePin, dest: string): string {
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

/** Extracts the pinned source into dest; returns the root-relative files a git snapshot could not export. */
function fetchInto(pin: Pin, dest: string): string[] {
  if (pin.kind === 'git') return exportGitTree(pin, dest, run);
  const dl = path.join(DOWNLOADS, pin.pkg.replace(/[@/]/g, '_'), pin.version);
  mkdirSync(dl, { recursive: true });
  if (pin.kind === 'pip') unzipFolder(pipDownload(pin, dl), pin.root, dest);
  else run('tar', ['-xzf', npmPack(pin, dl), '-C', dest], `untarring ${pin.pkg}@${pin.version}`);
  return [];
}

/** Ensures the pinned corpus of one repo exists; downloads and extracts it when absent or stale. */
export function ensureCorpus(name: string, log: (msg: string) => void = () => undefined): Corpus {
  const pin = PINS[name];
  if (!pin) throw new Error(`no pinned release for repo "${name}"; add it to PINS in bench/quality/pins.ts`);
  const dir = path.join(CORPORA, name);
  const marker = path.join(dir, MARKER);
  const stamp = (absent: string[]): string => `${JSON.stringify(pin)}\n${JSON.stringify({ absent })}\n`;
  const [pinLine, absentLine] = existsSync(marker) ? readFileSync(marker, 'utf8').split('\n') : [];
  const fresh = pinLine === JSON.stringify(pin);
  let absent = fresh && absentLine ? (JSON.parse(absentLine) as { absent: string[] }).absent : [];
  if (!fresh) {
    log(`building corpus ${name} from ${pin.kind} ${pinLabel(pin)}`);
    const tmp = `${dir}.tmp-${process.pid}`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    try {
      absent = fetchInto(pin, tmp);
      if (!existsSync(path.join(tmp, pin.root))) throw new Error(`${pinLabel(pin)} has no ${pin.root}/ folder`);
      writeFileSync(path.join(tmp, MARKER), stamp(absent));
      rmSync(dir, { recursive: true, force: true });
      renameSync(tmp, dir);
    } catch (err) {
      rmSync(tmp, { recursive: true, force: true });
      throw new Error(`could not build the ${name} corpus: ${(err as Error).message}\n`
        + (pin.kind === 'git'
          ? `semble-dev2 corpora are exported from the bare git directory that \`fetch github:${pin.pkg}\` brings in (see ../shared/eval/semble-dev2/README.md).`
          : 'The corpora come from the local pip wheel store and the npm registry (see ../shared/eval/semble-dev/README.md).'));
    }
  }
  for (const f of absent) log(`${name}: ${f} is listed at ${pinLabel(pin)} but absent from the snapshot`);
  const root = path.join(dir, pin.root);
  return { name, pin, root, absent, ...countCorpus(root) };
}

/** Labelled targets that do not exist under their repo's search root. */
export function missingTargets(data: Dataset, corpora: Map<string, Corpus>): MissingTarget[] {
  const missing: MissingTarget[] = [];
  const specs = new Map<string, RepoSpec>(data.repos.map((r) => [r.name, r]));
  for (const q of data.queries) {
    const corpus = corpora.get(q.repo);
    if (!corpus) continue;
    for (const t of q.targets) {
      if (!existsSync(path.join(corpus.root, toRootPath(specs.get(q.repo)!, t)))) missing.push({ repo: q.repo, query: q.query, target: t });
    }
  }
  return missing;
}
