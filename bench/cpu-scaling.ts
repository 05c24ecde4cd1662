// The machine's own scaling, measured beside simgrep's: N worker threads each run the same fixed
// pure-JS compute loop (no I/O, no allocation in the loop). On N real idle cores, N threads finish in
// the time one does; on shared or throttled cores they take longer, and no program could scale better.
// node dist/bench/cpu-scaling.js <threads>
import { isMainThread, parentPort, Worker } from 'node:worker_threads';

const ROUNDS = 5_000;

function spin(): number {
  const a = new Float32Array(1 << 16);
  for (let i = 0; i < a.length; i++) a[i] = i % 7;
  let s = 0;
  for (let r = 0; r < ROUNDS; r++) for (let i = 0; i < a.length; i++) s += a[i] * a[(i * 31) & 0xffff];
  return s;
}

if (isMainThread) {
  const threads = Math.max(1, Number(process.argv[2] ?? 1));
  const done = Array.from({ length: threads }, () => new Promise<number>((resolve, reject) => {
    const w = new Worker(new URL(import.meta.url));
    w.once('message', resolve);
    w.once('error', reject);
  }));
  const sums = await Promise.all(done);
  process.stdout.write(`${threads} threads: ${sums.join(' ')}\n`);
} else {
  parentPort!.postMessage(spin());
}
