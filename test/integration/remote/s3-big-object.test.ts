// A >= 200 MB S3 object is searched in bounded memory: the spawned CLI's peak RSS (getrusage, all
// threads) stays far under the object's size and grows little over searching a tiny object the same
// way, and the one matching line at the object's very end is found (every byte was read, in order).
// -J 0 keeps the figure the pipeline's own (worker threads add a constant per thread).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../helpers/cli.js';
import { remoteFixture, type RemoteFixture } from '../../helpers/remote-fixture.js';
import { putObject, startS3rver, type S3Server } from '../../helpers/s3-server.js';

const MiB = 1 << 20;
const BLOCKS = 256;
const FILLER_LINE = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod\n';
const BLOCK_LINES = Math.floor(MiB / FILLER_LINE.length);
const PAD = `${'z'.repeat(MiB - BLOCK_LINES * FILLER_LINE.length - 1)}\n`;
const BLOCK = Buffer.from(FILLER_LINE.repeat(BLOCK_LINES) + PAD);
const TAIL = Buffer.from('we retry the failed upload after a network timeout\nstatus ok\n');
const OBJECT_BYTES = BLOCKS * MiB + TAIL.length;
/** 0-based line of the needle: every block holds BLOCK_LINES filler lines and one pad line. */
const NEEDLE_LINE = BLOCKS * (BLOCK_LINES + 1);
const PRELOAD = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'helpers', 'peak-rss.cjs');

let s3: S3Server;
let fx: RemoteFixture;

beforeAll(async () => {
  [s3, fx] = await Promise.all([startS3rver({ buckets: ['big'] }), remoteFixture()]);
  expect(BLOCK.length).toBe(MiB);
  const body = Readable.from((function* () { for (let i = 0; i < BLOCKS; i++) yield BLOCK; yield TAIL; })());
  await putObject(s3.endpoint, 'big', 'logs/huge.log', body, OBJECT_BYTES);
  await putObject(s3.endpoint, 'big', 'logs/tiny.log', Buffer.concat([BLOCK.subarray(0, 4096), TAIL]));
}, 120_000);
afterAll(async () => { await Promise.all([s3?.stop(), fx?.cleanup()]); });

async function searchWithPeakRss(uri: string): Promise<{ stdout: string; peakBytes: number }> {
  const rssFile = path.join(fx.home, 'peak-rss');
  const r = await runCli(['retry failed upload', uri, '--model', fx.model, '--mode', 'line', '-J', '0', '-n', '0', '--top-k', '1'], {
    env: { ...fx.s3Env(s3.endpoint), NODE_OPTIONS: `--require ${PRELOAD}`, SIMGREP_PEAK_RSS_FILE: rssFile },
  });
  expect([r.stderr, r.code]).toEqual(['', 0]);
  return { stdout: r.stdout, peakBytes: Number(await readFile(rssFile, 'utf8')) * 1024 };
}

describe('a 268 MB S3 object', () => {
  it('is streamed: the match at its end is found, and peak RSS stays far below its size', async () => {
    const tiny = await searchWithPeakRss('s3://big/logs/tiny.log');
    const big = await searchWithPeakRss('s3://big/logs/huge.log');
    expect(big.stdout).toMatch(new RegExp(`^s3://big/logs/huge\\.log:${NEEDLE_LINE}::${NEEDLE_LINE + 1} \\(`));
    const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
    console.log(`peak RSS: ${mb(big.peakBytes)} for the ${mb(OBJECT_BYTES)} object, ${mb(tiny.peakBytes)} for a tiny one`);
    // Reading the object whole would add at least its size (the bytes, then the decoded text). The
    // streamed growth is V8 letting 1 MiB read buffers pile up before a GC: ~50 MB on an idle machine,
    // up to ~105 MB measured with the rest of the suite running beside it.
    expect(big.peakBytes - tiny.peakBytes).toBeLessThan(OBJECT_BYTES * 0.5);
  });
});
