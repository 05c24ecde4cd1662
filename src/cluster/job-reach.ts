// What a checked job would make this worker read and write, computed exactly as the worker then opens
// them (shard-source.ts, the path reader, staging.ts), so the operator's allow list is checked against
// the real targets, and each job's sources can be logged in one line.
import path from 'node:path';
import { isGlob } from '../sources/fs.js';
import { isRemoteUri, parseRemoteUri, redactUri, type RemoteUri } from '../sources/uri.js';
import { realTarget, type AllowList, type Target } from './allow-list.js';
import { JobRefused, stagingLocation } from './job-check.js';
import type { IndexShardJob, ShardJob } from './protocol.js';

export interface JobReach {
  /** The roots a search job names, and every file or object it would read. */
  reads: Target[];
  /** Where it would write (an index job's staging database), if anywhere. */
  writes: string | null;
}

export function searchReach(d: ShardJob): JobReach {
  const local = d.roots.filter((r) => !isRemoteUri(r));
  const uris = d.roots.filter(isRemoteUri).map((r) => parseRemoteUri(r));
  const remoteFrom = local.length > 0 ? 1 : 0;
  const reads: Target[] = local.map((r) => path.resolve(d.cwd, isGlob(r) ? staticPart(r) : r));
  reads.push(...uris.map((u) => u.uri));
  for (const e of d.entries) {
    if (e.s < remoteFrom) {
      // As shard-source.ts opens it: the raw name, else the path, from the coordinator's directory.
      const io = e.io !== undefined ? Buffer.from(e.io, 'base64') : undefined;
      reads.push(io ? (io[0] === 0x2f ? io : Buffer.concat([Buffer.from(`${d.cwd}/`), io])) : path.resolve(d.cwd, e.path));
    } else {
      reads.push(objectUri(uris[e.s - remoteFrom], e.key!));
    }
  }
  return { reads, writes: null };
}

export function indexReach(d: IndexShardJob, stagingName: string): JobReach {
  return { reads: d.entries.map((e) => e.path), writes: stagingLocation(d.indexDir, stagingName) };
}

/** The object a remote source reads for `key`: the key in the root's bucket or container, or on the root's origin. */
function objectUri(u: RemoteUri, key: string): string {
  if (u.scheme === 's3' || u.scheme === 'gs') return `${u.scheme}://${u.bucket}/${key}`;
  if (u.scheme === 'az') return `az://${u.container}/${key}`;
  return new URL(key.startsWith('/') ? key : `/${key}`, u.url.origin).href; // as http-driver.ts's urlOf
}

/** A glob's directories before its first pattern segment (what its expansion walks). */
function staticPart(pattern: string): string {
  const segs = pattern.split('/');
  const i = segs.findIndex((s) => isGlob(s));
  return segs.slice(0, i < 0 ? segs.length : i).join('/') || (pattern.startsWith('/') ? '/' : '.');
}

/**
 * Checks every target against the allow list; returns the allowed roots used (for the log), or throws
 * JobRefused naming the first target outside them.
 */
export async function confine(reach: JobReach, allow: AllowList, what: { remote?: { s3Endpoint?: string } }): Promise<string[]> {
  const endpoint = what.remote?.s3Endpoint;
  if (endpoint !== undefined && !allow.endpointAllowed(endpoint)) {
    throw new JobRefused(`the job points this worker's S3 client at ${redactUri(endpoint)}, not its own endpoint; give the worker the same AWS_ENDPOINT_URL (or --s3-endpoint), or start it with --allow-any-path`);
  }
  if (allow.anyPath) return [];
  const used = new Set<string>();
  const all = reach.writes ? [...reach.reads, reach.writes] : reach.reads;
  let roots: (string | null)[];
  try { roots = await allow.rootsOf(all); } catch (e) {
    throw new JobRefused(`a path of the job cannot be checked against the allowed roots (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}${(e as NodeJS.ErrnoException).path ? `: ${oneLine(String((e as NodeJS.ErrnoException).path))}` : ''})`);
  }
  for (const [i, t] of all.entries()) {
    const root = roots[i];
    if (root === null) {
      const verb = t === reach.writes ? 'write to' : 'read';
      const real = typeof t === 'string' && isRemoteUri(t) ? null : await realTarget(typeof t === 'string' ? Buffer.from(t) : t).then((r) => r.toString('utf8'), () => null);
      const via = real !== null && real !== shownTarget(t) ? ` (really ${real})` : '';
      throw new JobRefused(`the job would ${verb} ${shownTarget(t)}${via}, outside the roots this worker allows (${allow.shown.join(', ') || 'none given'}); start the worker with --allow covering it, or --allow-any-path`);
    }
    used.add(root);
  }
  return [...used];
}

/** Text from a job made safe for a one-line log: a control character (a newline in a forged path) is shown escaped. */
export function oneLine(s: string): string {
  return s.replace(/[\0-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

export function shownTarget(t: Target): string {
  return typeof t === 'string' ? redactUri(t) : t.toString('utf8');
}

/** One line on a job's sources and output: its id, kind, what it reads (roots, or the allowed roots its files lie under) and where it writes. */
export function describeJob(o: { queryId: string; n: number; kind: 'search' | 'index'; reach: JobReach; files: number; roots: string[] | null; used: string[] }): string {
  const limit = (xs: string[]) => (xs.length > 5 ? `${xs.slice(0, 5).join(', ')} and ${xs.length - 5} more` : xs.join(', '));
  const reads = o.roots ?? (o.used.length ? o.used : [...new Set(o.reach.reads.map((t) => dirOf(shownTarget(t))))]);
  return oneLine(`job ${o.queryId}/${o.n} ${o.kind}: reads ${o.files} file${o.files === 1 ? '' : 's'} under ${limit(reads.map(redactUri))}; writes ${o.reach.writes ? redactUri(o.reach.writes) : 'nothing'}`);
}

function dirOf(t: string): string {
  return isRemoteUri(t) ? t.slice(0, t.lastIndexOf('/') + 1) : path.dirname(t);
}
