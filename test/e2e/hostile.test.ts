// Hostile input, one row per case (issue 14): each spawns the built CLI with a time bound and checks
// the exit code, a message that names the source, that the other sources' results are still printed,
// peak memory where the bug was memory, and that nothing is left behind in the searched tree.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, execFileSync } from 'node:child_process';
import { closeSync, openSync, readdirSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { cliPath } from '../helpers/cli.js';
import { listenLocal } from '../helpers/http-server.js';
import { makeTree } from '../helpers/tree.js';
import { writeTinyModel } from '../helpers/tiny-model.js';
import { bytesOf, safetensorsBytes } from '../helpers/safetensors.js';

const PRELOAD = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'helpers', 'peak-rss.cjs');
const GOOD = 'good.txt';
const GOOD_TEXT = 'nothing here\nwe retry the failed upload\n';
const MB = 1e6;

let dir = '';
let model = '';
let origin = '';
let server: Server;
let cleanup = async () => {};
/** 256 MiB of text gzipped (about 250 KB), made when first asked for. */
let gzipBomb: Buffer | undefined;

interface Run { stdout: string; stderr: string; code: number | null; ms: number; peakRssBytes: number }

/** Spawns the CLI in the tree; `stdoutPath` sends stdout to a file such as /dev/full. */
function run(args: string[], o: { env?: Record<string, string>; input?: string; holdStdin?: boolean; stdoutPath?: string; fifoWrite?: [string, string]; killMs?: number } = {}): Promise<Run> {
  const rssFile = path.join(dir, '.rss', `${Math.random().toString(36).slice(2)}`);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const out = o.stdoutPath ? openSync(o.stdoutPath, 'w') : 'pipe';
    const child = spawn(process.execPath, [cliPath, ...args], {
      cwd: dir,
      env: { ...process.env, HF_HUB_OFFLINE: '1', HOME: path.join(dir, '.home'), NODE_OPTIONS: `--require ${PRELOAD}`, SIMGREP_PEAK_RSS_FILE: rssFile, ...o.env },
      stdio: ['pipe', out, 'pipe'],
    });
    if (typeof out === 'number') closeSync(out);
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (d) => { stdout += d; });
    child.stderr!.setEncoding('utf8').on('data', (d) => { stderr += d; });
    child.on('error', reject);
    // A run that hangs is killed past its bound (its row then fails on the time), not left behind.
    const kill = o.killMs ? setTimeout(() => child.kill('SIGKILL'), o.killMs) : undefined;
    child.on('close', async (code) => {
      clearTimeout(kill);
      const peak = Number(await readFile(rssFile, 'utf8').catch(() => '0')) * 1024;
      resolve({ stdout, stderr, code, ms: performance.now() - started, peakRssBytes: peak });
    });
    if (o.holdStdin) child.stdin!.write('a first line\n'); else child.stdin!.end(o.input ?? '');
    if (o.fifoWrite) void writeFile(path.join(dir, o.fifoWrite[0]), o.fifoWrite[1]);
  });
}

/** Files of the tree (minus the suite's own bookkeeping), to prove a run left nothing behind. */
function treeListing(): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((p) => !p.startsWith('.rss') && !p.startsWith('.home') && !p.startsWith('.model')).sort();
}

const jsonlFiles = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l).filename as string);

interface Case {
  /** Named after the bug it pins. */
  name: string;
  args: string[];
  setup?: () => Promise<void>;
  env?: Record<string, string>;
  input?: string;
  stdoutPath?: string;
  fifoWrite?: [string, string];
  code: number;
  /** The message (it must name the source); '' = stderr stays empty. */
  stderr: RegExp | '';
  /** Files whose results must be printed (--jsonl filenames). */
  results?: string[];
  /** Extra checks on stdout. */
  stdout?: (s: string) => void;
  maxMs?: number;
  /** Peak RSS may exceed a normal search's by at most this much. */
  maxExtraRssBytes?: number;
  skip?: boolean;
  /** Keep standard input open (a pipe whose writer never finishes). */
  holdStdin?: boolean;
  /** Run with the bundled default model instead of the tiny test model. */
  bundledModel?: boolean;
}

const jsonl = ['--jsonl', '-n', '0', '--top-k', '5'];
/** A glob of many stars in one segment (backtracking matchers take time exponential in them). */
const STARS = 'a*a*a*a*a*a*a*a*a*a*a*a*b';
const isRoot = process.getuid?.() === 0;

const CASES: Case[] = [
  {
    name: 'a FIFO named .gitignore hung the walk forever',
    setup: async () => { await mkdir(path.join(dir, 'fifo')); execFileSync('mkfifo', [path.join(dir, 'fifo', '.gitignore')]); await writeFile(path.join(dir, 'fifo', 'a.txt'), 'retry the upload\n'); },
    args: ['retry failed upload', 'fifo', GOOD, ...jsonl],
    code: 2, stderr: /^simgrep: fifo\/\.gitignore is not a regular file \(a pipe, socket or device\); its ignore rules were not applied\n$/,
    results: [GOOD, 'fifo/a.txt'],
  },
  {
    name: 'a .gitignore that is a directory was dropped silently',
    setup: async () => { await mkdir(path.join(dir, 'gidir', '.gitignore'), { recursive: true }); await writeFile(path.join(dir, 'gidir', 'a.txt'), 'retry the upload\n'); },
    args: ['retry failed upload', 'gidir', GOOD, ...jsonl],
    code: 2, stderr: /^simgrep: gidir\/\.gitignore is a directory, not a file of rules; its ignore rules were not applied\n$/,
    results: [GOOD, 'gidir/a.txt'],
  },
  {
    name: 'an unreadable .gitignore meant ignored files were searched without a word',
    skip: isRoot, // root reads any file
    setup: async () => { await mkdir(path.join(dir, 'gino')); await writeFile(path.join(dir, 'gino', '.gitignore'), 'x\n', { mode: 0 }); },
    args: ['retry failed upload', 'gino', GOOD, ...jsonl],
    code: 2, stderr: /gino\/\.gitignore cannot be read \(EACCES\)/,
    results: [GOOD],
  },
  {
    name: '/proc files report size 0 and were read whole (grew ~300 MB/s until killed)',
    args: ['retry failed upload', '/proc/self/pagemap', GOOD, ...jsonl],
    code: 0, stderr: /^simgrep: \/proc\/self\/pagemap: binary file \(a NUL byte in its first 8 KiB\), not searched\n$/,
    results: [GOOD], maxMs: 30_000, maxExtraRssBytes: 256 * MB,
  },
  {
    name: 'an endless chunked HTTP body with --max-filesize never ended',
    args: ['retry failed upload', '/endless', GOOD, '--max-filesize', '1M', ...jsonl],
    code: 0, stderr: /^simgrep: http:\/\/127\.0\.0\.1:\d+\/endless: stopped reading at --max-filesize 1048576 bytes \(its size was not known up front\); only those bytes were searched\n$/,
    results: [GOOD], maxMs: 30_000, maxExtraRssBytes: 256 * MB,
  },
  {
    name: 'one enormous line aborted the run ("Cannot create a string longer than") and was printed whole',
    setup: async () => {
      const line = Buffer.alloc(100 * (1 << 20), 'x');
      line.write('retry failed upload ');
      await writeFile(path.join(dir, 'long.txt'), line);
    },
    args: ['retry failed upload', 'long.txt', GOOD, ...jsonl],
    code: 0, stderr: '',
    results: [GOOD, 'long.txt'],
    stdout: (s) => {
      const long = s.trim().split('\n').map((l) => JSON.parse(l)).find((r) => r.filename === 'long.txt');
      expect(long.content).toBe(`retry failed upload ${'x'.repeat((16 << 10) - 20)} [… line truncated: ${100 * (1 << 20) - (16 << 10)} more bytes]`);
    },
    maxMs: 30_000, maxExtraRssBytes: 256 * MB,
  },
  {
    name: 'lines just under the cut piled up 2,048 to a piece (a 96 MB file of 16 KB lines cost +300 MB RSS)',
    setup: async () => {
      const line = `retry failed upload ${'lorem ipsum '.repeat(1332)}\n`;
      await writeFile(path.join(dir, 'wide.txt'), line.repeat(6000));
    },
    args: ['retry failed upload', 'wide.txt', GOOD, ...jsonl],
    code: 0, stderr: '', results: [GOOD, 'wide.txt'], maxMs: 30_000, maxExtraRssBytes: 256 * MB,
  },
  {
    name: 'a server that accepts and never answers held every result back for 121 s',
    args: ['retry failed upload', '/never', GOOD, '--timeout', '2', ...jsonl],
    code: 2, stderr: /^simgrep: stopped after the --timeout of 2 s: the results found so far are shown; still reading http:\/\/127\.0\.0\.1:\d+\/never\n$/,
    results: [GOOD], maxMs: 12_000,
  },
  {
    name: 'an S3 endpoint that accepts and never answers (through the AWS SDK: its idle timeout per request)',
    args: ['retry failed upload', 's3://never/', GOOD, '--s3-endpoint', 'ORIGIN', ...jsonl], env: { SIMGREP_REMOTE_TIMEOUT_MS: '1000' },
    code: 2, stderr: /^simgrep: s3:\/\/never\/: http:\/\/127\.0\.0\.1:\d+ did not answer within 1000 ms \(1 attempt\); the server is slow or down/,
    results: [GOOD], maxMs: 12_000,
  },
  {
    name: 'an Azure Blob endpoint that accepts and never answers (through @azure/storage-blob)',
    args: ['retry failed upload', 'az://never/', GOOD, ...jsonl],
    env: { SIMGREP_REMOTE_TIMEOUT_MS: '1000', AZURE_STORAGE_CONNECTION_STRING: '', AZURE_STORAGE_ACCOUNT: 'devstoreaccount1', AZURE_STORAGE_KEY: 'a2V5', AZURE_STORAGE_BLOB_ENDPOINT: 'ORIGIN/devstoreaccount1' },
    code: 2, stderr: /^simgrep: az:\/\/never\/: http:\/\/127\.0\.0\.1:\d+ did not answer within 1000 ms \(1 attempt\); the server is slow or down/,
    results: [GOOD], maxMs: 12_000,
  },
  {
    name: 'a Cloud Storage endpoint that accepts and never answers (an emulator, STORAGE_EMULATOR_HOST)',
    args: ['retry failed upload', 'gs://never/', GOOD, ...jsonl],
    env: { SIMGREP_REMOTE_TIMEOUT_MS: '1000', STORAGE_EMULATOR_HOST: 'ORIGIN' },
    code: 2, stderr: /^simgrep: gs:\/\/never\/: http:\/\/127\.0\.0\.1:\d+ did not answer within 1000 ms \(1 attempt\); the server is slow or down/,
    results: [GOOD], maxMs: 12_000,
  },
  {
    name: 'a listing that always says "more" with the same continuation token was listed forever',
    args: ['retry failed upload', 's3://repeat/logs/', GOOD, '--s3-endpoint', 'ORIGIN', ...jsonl],
    code: 2, stderr: /^simgrep: s3:\/\/repeat\/logs\/: listing stopped after 2 objects: the store sent the same continuation token twice \("same-token"\), so the listing would never end/,
    results: [GOOD, 's3://repeat/logs/a.log', 's3://repeat/logs/b.log'], maxMs: 30_000,
  },
  {
    name: 'an S3 endpoint answering the listing with an HTML page said "no object under this prefix"',
    args: ['retry failed upload', 's3://html/', GOOD, '--s3-endpoint', 'ORIGIN', ...jsonl],
    code: 2, stderr: /^simgrep: s3:\/\/html\/: the listing request was answered with an HTML page \(text\/html\), not an S3 listing \(ListBucketResult\); check that --s3-endpoint/,
    results: [GOOD],
  },
  {
    name: 'a listing reply cut short was taken as the last page',
    args: ['retry failed upload', 's3://cut/', GOOD, '--s3-endpoint', 'ORIGIN', ...jsonl],
    code: 2, stderr: /^simgrep: s3:\/\/cut\/: the listing request was answered with a listing cut short \(\d+ characters, no closing tag\) \(application\/xml\), not an S3 listing/,
    results: [GOOD],
  },
  {
    name: 'a redirect loop said only "HTTP 302"',
    args: ['retry failed upload', '/loop', GOOD, ...jsonl],
    code: 2, stderr: /^simgrep: http:\/\/127\.0\.0\.1:\d+\/loop: too many redirects \(more than 5, the last to http:\/\/127\.0\.0\.1:\d+\/loop\); the server redirects in a loop: check the URL\n$/,
    results: [GOOD],
  },
  {
    name: 'a gzip-encoded HTTP body counted as binary',
    args: ['retry failed upload', '/gzip', GOOD, ...jsonl],
    code: 0, stderr: '', results: ['/gzip', GOOD],
  },
  {
    // trust47: nothing was read (node:http refuses the scheme), but the message named neither the redirect nor
    // where it led: "the request to null failed (ERR_INVALID_PROTOCOL, 1 attempt)".
    name: 'a redirect to file:///etc/passwd said "the request to null failed"',
    args: ['retry failed upload', '/to-file', GOOD, ...jsonl],
    code: 2, stderr: /^simgrep: http:\/\/127\.0\.0\.1:\d+\/to-file: the server redirected to file:\/\/\/etc\/passwd, which is not an http or https URL; simgrep follows redirects only to http and https: check the URL\n$/,
    results: [GOOD],
  },
  {
    // trust47: a gzip body of 256 MiB decoded (250 KB sent) cut by --max-filesize: the cut left the decoder mid-stream
    // with no listener for its "unexpected end of file", and the process died of it (exit 1, a stack trace,
    // every result lost). The decoded bytes are what --max-filesize counts.
    name: 'a gzip bomb cut by --max-filesize killed the process (Z_BUF_ERROR unhandled)',
    args: ['retry failed upload', '/gzip-bomb', GOOD, '--max-filesize', '1M', ...jsonl],
    code: 0, stderr: /^simgrep: http:\/\/127\.0\.0\.1:\d+\/gzip-bomb: stopped reading at --max-filesize 1048576 bytes \(its size was not known up front\); only those bytes were searched\n$/,
    results: [GOOD], maxMs: 30_000, maxExtraRssBytes: 256 * MB,
  },
  {
    name: '-J 1000 on 2 cores took 8.9 GB',
    args: ['retry failed upload', 'base/*.txt', '-J', '1000', ...jsonl],
    code: 0, stderr: /^simgrep: -J 1000 is more worker threads than this machine can use; using \d+ \(2 per core, at least 4\)\n$/,
    results: ['base/good.txt'], maxMs: 30_000, maxExtraRssBytes: 256 * MB,
  },
  {
    name: 'a failed write to /dev/full ended in a stack trace',
    args: ['retry failed upload', GOOD],
    stdoutPath: '/dev/full',
    code: 2, stderr: /^simgrep: cannot write the results to standard output: no space left on the device \(ENOSPC\); the output is incomplete; free some space or write them elsewhere\n$/,
  },
  {
    name: 'UTF-16 files with a BOM counted as binary and were skipped without a message',
    setup: async () => {
      const text = 'first line\nwe retry the failed upload\n';
      await writeFile(path.join(dir, 'le16.txt'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
      await writeFile(path.join(dir, 'be16.txt'), Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]));
    },
    args: ['retry failed upload', 'le16.txt', 'be16.txt', ...jsonl],
    code: 0, stderr: '', results: ['le16.txt', 'be16.txt'],
    stdout: (s) => expect(s.trim().split('\n').map((l) => JSON.parse(l).content)).toEqual(['we retry the failed upload', 'we retry the failed upload']),
  },
  {
    name: 'a binary file named explicitly was skipped without a message',
    setup: () => writeFile(path.join(dir, 'named.bin'), Buffer.from('retry failed upload\0\0\0')),
    args: ['retry failed upload', 'named.bin', GOOD, ...jsonl],
    code: 0, stderr: /^simgrep: named\.bin: binary file \(a NUL byte in its first 8 KiB\), not searched\n$/,
    results: [GOOD],
  },
  {
    name: 'a query of stop words printed hits at distance 1 and exited 0',
    args: ['the of and a', GOOD, ...jsonl],
    bundledModel: true,
    code: 1, stderr: /^simgrep: the query "the of and a" has only common words \(stop words\), which match any line by chance: no match; use identifiers or words, or --mode semantic for the nearest lines anyway\n$/, stdout: (s) => expect(s).toBe(''),
  },
  {
    name: '"-" was a file name, not standard input',
    args: ['retry failed upload', '-', GOOD, ...jsonl],
    input: 'piped text\nretry the failed upload now\n',
    code: 0, stderr: '', results: ['<stdin>', GOOD],
  },
  {
    name: 'a named pipe given explicitly was refused as "not a regular file"',
    setup: async () => { execFileSync('mkfifo', [path.join(dir, 'named.fifo')]); },
    fifoWrite: ['named.fifo', 'retry the failed upload through a pipe\n'],
    args: ['retry failed upload', 'named.fifo', GOOD, ...jsonl],
    code: 0, stderr: '', results: ['named.fifo', GOOD], maxMs: 30_000,
  },
  {
    name: 'a directory linked to its parent was searched 41 times with --follow',
    setup: async () => { await mkdir(path.join(dir, 'loop', 'sub'), { recursive: true }); await writeFile(path.join(dir, 'loop', 'sub', 'x.txt'), 'retry the upload\n'); await symlink('..', path.join(dir, 'loop', 'sub', 'up')); },
    args: ['retry failed upload', 'loop', GOOD, '-L', '--top-k', '50', '--jsonl', '-n', '0'],
    code: 2, stderr: /^simgrep: loop\/sub\/up: symbolic link loop \(it leads back to a directory above it\); not followed\n$/,
    stdout: (s) => expect(jsonlFiles(s).sort()).toEqual([GOOD, 'loop/sub/x.txt']),
  },
  {
    name: 'a symlink loop named explicitly said "check its permissions"',
    setup: async () => { await symlink('self.lnk', path.join(dir, 'self.lnk')); },
    args: ['retry failed upload', 'self.lnk', GOOD, ...jsonl],
    code: 2, stderr: /^simgrep: self\.lnk: symbolic link loop \(following its links never reaches a file\); fix or remove the link\n$/,
    results: [GOOD],
  },
  {
    name: 'file names that are not valid UTF-8 could not be searched ("ENOENT; check it exists")',
    setup: async () => {
      const root = Buffer.from(path.join(dir, 'names'));
      await mkdir(Buffer.concat([root, Buffer.from('/d\xffir', 'latin1')]), { recursive: true });
      await writeFile(Buffer.concat([root, Buffer.from('/caf\xe9.txt', 'latin1')]), 'we retry the failed upload\n');
      await writeFile(Buffer.concat([root, Buffer.from('/d\xffir/x.txt', 'latin1')]), 'retry the upload\n');
      await writeFile(Buffer.concat([root, Buffer.from('/d\xffir/.gitignore', 'latin1')]), 'ignored.txt\n');
      await writeFile(Buffer.concat([root, Buffer.from('/d\xffir/ignored.txt', 'latin1')]), 'retry the failed upload\n');
    },
    args: ['retry failed upload', 'names', GOOD, ...jsonl],
    code: 0, stderr: '', results: [GOOD, 'names/caf\\xE9.txt', 'names/d\\xFFir/x.txt'],
  },
  {
    // A hostile store lists such keys as easily; a local tree shows the same printing.
    name: 'file names holding an ESC sequence or a newline were printed raw: they drove the terminal and forged result lines',
    setup: async () => {
      await mkdir(path.join(dir, 'ctl'), { recursive: true });
      await writeFile(path.join(dir, 'ctl', 'a\x1b[2Jb.txt'), 'we retry the failed upload\n');
      await writeFile(path.join(dir, 'ctl', 'x\ny.txt'), 'retry the failed upload\n');
    },
    args: ['retry failed upload', 'ctl', '-n', '0', '--top-k', '5'],
    code: 0, stderr: '',
    stdout: (s) => {
      expect(s).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f]/);
      expect(s.split('\n').filter((l) => l.startsWith('ctl/')).map((l) => l.replace(/:.*/, '')).sort()).toEqual(['ctl/a\\x1b[2Jb.txt', 'ctl/x\\ny.txt']);
    },
  },
  {
    name: '-l printed such names raw (-0 keeps them as they are, for programs)',
    setup: async () => {
      await mkdir(path.join(dir, 'ctl'), { recursive: true });
      await writeFile(path.join(dir, 'ctl', 'a\x1b[2Jb.txt'), 'we retry the failed upload\n');
      await writeFile(path.join(dir, 'ctl', 'x\ny.txt'), 'retry the failed upload\n');
      const raw = await run(['retry failed upload', 'ctl', '-l', '-0', '--model', model]);
      expect(raw.stdout.split('\0').sort()).toEqual(['', 'ctl/a\x1b[2Jb.txt', 'ctl/x\ny.txt']);
    },
    args: ['retry failed upload', 'ctl', '-l'],
    code: 0, stderr: '',
    stdout: (s) => expect(s.split('\n').sort()).toEqual(['', 'ctl/a\\x1b[2Jb.txt', 'ctl/x\\ny.txt']),
  },
  {
    name: 'standard input that never ends kept the run (and --timeout) waiting forever',
    args: ['retry failed upload', '-', GOOD, '--timeout', '2', ...jsonl],
    holdStdin: true,
    code: 2, stderr: /^simgrep: stopped after the --timeout of 2 s: the results found so far are shown; still reading <stdin>\n$/,
    // The line stdin gave before the deadline is scored too (trust44: it waited for a piece of 2,048 lines).
    results: ['<stdin>', GOOD], maxMs: 12_000,
  },
  {
    name: 'a .gitignore line of many stars hung every walk over long file names (regular expressions backtracking: 4 s a name at 7 stars, minutes at 8)',
    setup: async () => {
      await mkdir(path.join(dir, 'gistars'));
      await writeFile(path.join(dir, 'gistars', '.gitignore'), `${STARS}\n`);
      await writeFile(path.join(dir, 'gistars', `${'a'.repeat(200)}.txt`), 'we retry the failed upload\n');
      await writeFile(path.join(dir, 'gistars', `${'a'.repeat(100)}b`), 'we retry the failed upload\n'); // ignored
    },
    args: ['retry failed upload', 'gistars', GOOD, ...jsonl],
    code: 0, stderr: '',
    results: [GOOD, `gistars/${'a'.repeat(200)}.txt`],
    maxMs: 20_000,
  },
  {
    name: '-g of many stars took minutes a long file name (picomatch backtracking)',
    setup: async () => {
      await mkdir(path.join(dir, 'gstars'));
      await writeFile(path.join(dir, 'gstars', `${'a'.repeat(200)}.txt`), 'we retry the failed upload\n');
      await writeFile(path.join(dir, 'gstars', `${'a'.repeat(100)}b`), 'we retry the failed upload\n'); // excluded
    },
    args: ['retry failed upload', 'gstars', '-g', `!${STARS}`, ...jsonl],
    code: 0, stderr: '',
    results: [`gstars/${'a'.repeat(200)}.txt`],
    maxMs: 20_000,
  },
  {
    name: 'a model whose weights are NaN silently matched nothing',
    setup: async () => {
      const broken = path.join(dir, '.model-nan');
      await writeTinyModel(broken);
      const rows = Object.keys(JSON.parse(await readFile(path.join(broken, 'tokenizer.json'), 'utf8')).model.vocab).length;
      const table = new Float32Array(rows * 4).fill(Number.NaN);
      await writeFile(path.join(broken, 'model.safetensors'), safetensorsBytes({ embeddings: { dtype: 'F32', shape: [rows, 4], data: bytesOf(table) } }));
    },
    args: ['retry failed upload', GOOD, '--model', '.model-nan', ...jsonl],
    code: 2, stderr: /model\.safetensors: not a number at table row 0 \(NaN\); the model's weights are damaged/,
  },
];

beforeAll(async () => {
  ({ dir, cleanup } = await makeTree({ [GOOD]: GOOD_TEXT, 'base/good.txt': GOOD_TEXT, '.home/.keep': '' }));
  model = await writeTinyModel(path.join(dir, '.model'));
  await mkdir(path.join(dir, '.rss'));
  ({ server, origin } = await listenLocal((req, res) => {
    const url = new URL(req.url!, 'http://x');
    if (/^(\/devstoreaccount1|\/storage\/v1\/b)?\/never(\/|$)/.test(url.pathname)) return; // accepts, never answers (a file, an S3 bucket, an Azure container, a GCS bucket)
    if (url.pathname === '/endless') {
      res.writeHead(200, { 'content-type': 'text/plain' }); // chunked: no Content-Length
      if (req.method === 'HEAD') { res.end(); return; }
      const block = Buffer.from('lorem ipsum dolor sit amet\n'.repeat(4096));
      const pump = () => { while (res.write(block)) { /* until the socket pushes back */ } };
      res.on('drain', pump);
      res.on('close', () => res.off('drain', pump));
      pump();
      return;
    }
    if (url.pathname === '/loop') { res.writeHead(302, { location: '/loop' }).end(); return; }
    if (url.pathname === '/to-file') { res.writeHead(302, { location: 'file:///etc/passwd' }).end(); return; }
    if (url.pathname === '/gzip-bomb') { res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipBomb ??= gzipSync(Buffer.alloc(256 << 20, 'nothing here\n'), { level: 9 })); return; }
    if (url.pathname === '/gzip') { res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('intro\nwe retry the failed upload\n')); return; }
    // A bucket's listing: GET /bucket/?list-type=2 (path-style, as the AWS SDK sends it).
    if (url.pathname === '/repeat/' && url.searchParams.get('list-type') === '2') {
      res.writeHead(200, { 'content-type': 'application/xml' }).end(`<?xml version="1.0"?><ListBucketResult><Name>repeat</Name><IsTruncated>true</IsTruncated>`
        + `<Contents><Key>logs/${url.searchParams.get('continuation-token') ? 'b' : 'a'}.log</Key><Size>27</Size></Contents><NextContinuationToken>same-token</NextContinuationToken></ListBucketResult>`);
      return;
    }
    if (url.pathname.startsWith('/repeat/logs/')) { res.writeHead(200, { 'content-length': 27 }).end('we retry the failed upload\n'); return; }
    if (url.pathname === '/cut/') { res.writeHead(200, { 'content-type': 'application/xml' }).end('<?xml version="1.0"?><ListBucketResult><Name>cut</Name><IsTruncated>false</IsTruncated><Contents><Key>a.l'); return; }
    if (url.pathname === '/html/') { res.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html><body>Console login</body></html>'); return; }
    res.writeHead(404).end();
  }));
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  await cleanup();
});

describe('hostile input (one row per case: exit code, message naming the source, other results kept, bounded time and memory)', () => {
  let normalRss = 0;
  // The normal search: the same small file through the worker pool at the default -J (a glob is never 'small').
  const normalPeak = async () => (normalRss ||= (await run(['retry failed upload', 'base/*.txt', '--model', model, ...jsonl])).peakRssBytes);

  for (const c of CASES) {
    it.skipIf(c.skip)(c.name, async () => {
      await c.setup?.();
      const before = treeListing();
      const args = c.args.map((a) => (a.startsWith('/') && !a.startsWith('/proc') && !a.startsWith('/dev') ? `${origin}${a}` : a === 'ORIGIN' ? origin : a));
      const r = await run(c.bundledModel || args.includes('--model') ? args : [...args, '--model', model], {
        env: { AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test', AWS_REGION: 'us-east-1', SIMGREP_REMOTE_RETRIES: '0', ...Object.fromEntries(Object.entries(c.env ?? {}).map(([k, v]) => [k, v.replace('ORIGIN', origin)])) },
        input: c.input, holdStdin: c.holdStdin, stdoutPath: c.stdoutPath, fifoWrite: c.fifoWrite, killMs: (c.maxMs ?? 30_000) + 5_000,
      });
      const shown = (p: string) => (p.startsWith('/') ? `${origin}${p}` : p);
      if (c.stderr === '') expect(r.stderr).toBe(''); else expect(r.stderr, r.stderr).toMatch(c.stderr);
      expect(r.code).toBe(c.code);
      if (c.results) expect([...new Set(jsonlFiles(r.stdout))].sort()).toEqual(c.results.map(shown).sort());
      c.stdout?.(r.stdout);
      expect(r.ms).toBeLessThan(c.maxMs ?? 30_000);
      if (c.maxExtraRssBytes) expect(r.peakRssBytes - await normalPeak()).toBeLessThan(c.maxExtraRssBytes);
      expect(treeListing()).toEqual(before);
    });
  }
});
