// Worker processes for the cluster benches: started with the bench model, resolved once each says it
// is listening (model loaded), stopped with SIGTERM as an operator would.
import { spawn, type ChildProcess } from 'node:child_process';
import { REPO_ROOT } from './bench-model.js';

export const CLI = 'dist/src/cli/main.js';
export const MODEL = 'bench/.tmp/potion-8m-shape';

/** `allow`: what jobs may reach (simgrep worker --allow each): the bench bucket, and an index build's directory. */
export async function startWorkers(url: string, n: number, threads: number, env: NodeJS.ProcessEnv, allow: string[]): Promise<ChildProcess[]> {
  return Promise.all(Array.from({ length: n }, () => new Promise<ChildProcess>((resolve, reject) => {
    const p = spawn(process.execPath, [CLI, 'worker', '--cluster', url, '-J', String(threads), '--model', MODEL, '--embedder', 'static', ...allow.flatMap((a) => ['--allow', a])], { cwd: REPO_ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr!.setEncoding('utf8').on('data', (d: string) => { err = (err + d).slice(-4000); if (/listening for shards/.test(err)) resolve(p); });
    p.once('exit', (code) => reject(new Error(`worker exited (${code}): ${err}`)));
  })));
}

export async function stopWorkers(ps: ChildProcess[]): Promise<void> {
  await Promise.all(ps.map((p) => new Promise((r) => { p.once('exit', r); p.kill('SIGTERM'); })));
}
