// What checking a job costs a cluster worker (src/cluster/job-check.ts, job-reach.ts, allow-list.ts):
// a 4000-entry shard (the most a shard holds) of local files, and of s3:// objects, checked against an
// allow list; process CPU (all threads), best of 15. Run: npm run build && node dist/bench/job-check.js
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { createAllowList } from '../src/cluster/allow-list.js';
import { checkSearchJob } from '../src/cluster/job-check.js';
import { confine, searchReach } from '../src/cluster/job-reach.js';
import { MAX_SHARD_ENTRIES } from '../src/cluster/shards.js';
import { REPO_ROOT } from './bench-model.js';

const root = path.join(REPO_ROOT, 'src');
const files: string[] = [];
const walk = (d: string) => { for (const e of readdirSync(d, { withFileTypes: true })) { const p = path.join(d, e.name); if (e.isDirectory()) walk(p); else files.push(p); } };
walk(root);
const me = { protocol: 1, simgrep: 'v', model: 'm', queryId: '0123456789ab', n: 0, cwd: REPO_ROOT, options: { query: 'q' } };
const jobs = {
  [`${MAX_SHARD_ENTRIES} local files`]: { ...me, roots: [root], entries: Array.from({ length: MAX_SHARD_ENTRIES }, (_, i) => ({ s: 0, path: files[i % files.length], size: 100 })) },
  [`${MAX_SHARD_ENTRIES} s3:// objects`]: { ...me, roots: ['s3://tree/src/'], entries: Array.from({ length: MAX_SHARD_ENTRIES }, (_, i) => ({ s: 0, path: `s3://tree/src/f${i}.ts`, key: `src/f${i}.ts`, size: 100 })) },
};
const allow = await createAllowList({ allow: [REPO_ROOT, 's3://tree/'], anyPath: false });
const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;
for (const [name, job] of Object.entries(jobs)) {
  let check = Infinity;
  let reach = Infinity;
  for (let r = 0; r < 15; r++) {
    const data = structuredClone(job);
    const c0 = process.cpuUsage();
    const d = checkSearchJob(data);
    check = Math.min(check, cpuMs(process.cpuUsage(c0)));
    const c1 = process.cpuUsage();
    await confine(searchReach(d), allow, d.options);
    reach = Math.min(reach, cpuMs(process.cpuUsage(c1)));
  }
  console.log(`${name}: check ${check.toFixed(1)} ms, reach + confine ${reach.toFixed(1)} ms (process CPU, best of 15)`);
}
