// What a worker's operator lets jobs read and write (`simgrep worker --allow PATH|URI ...`): local
// roots compared on real paths (symlinks resolved, so a link cannot lead out), URI roots (s3://, az://,
// gs://, http(s)://) compared by store and key prefix on whole segments. --allow-any-path lifts the limit.
import { lstatSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { SimgrepError } from '../errors.js';
import { isRemoteUri, parseRemoteUri, redactUri } from '../sources/uri.js';
import { isSafeKey } from './job-check.js';

/** A place a job reads or writes: a local path (a Buffer for a name that is not UTF-8) or a URI. */
export type Target = string | Buffer;

export interface AllowList {
  readonly anyPath: boolean;
  /** The roots as the operator gave them (local ones resolved), for messages and the log. */
  readonly shown: string[];
  /** The allowed root `target` lies under (a local one after realpath), or null. */
  rootOf(target: Target): Promise<string | null>;
  /** rootOf for many targets at once (a shard's files): each directory resolved once. */
  rootsOf(targets: Target[]): Promise<(string | null)[]>;
  /** True when a job may point this worker's S3 client at `endpoint` (its own endpoint, or --allow-any-path). */
  endpointAllowed(endpoint: string): boolean;
}

interface UriRoot { shown: string; store: string; prefix: string }

export async function createAllowList(o: { allow: string[]; anyPath: boolean; ownS3Endpoint?: string }): Promise<AllowList> {
  const local: string[] = [];
  const uris: UriRoot[] = [];
  for (const raw of o.allow) {
    if (raw === '' || raw.includes('\0')) throw new SimgrepError('BAD_FLAG', '--allow needs a directory or a URI prefix such as s3://bucket/prefix/');
    if (isRemoteUri(raw)) {
      const at = storeAndKey(raw);
      if (!at) throw new SimgrepError('BAD_FLAG', `--allow ${redactUri(raw)}: not an s3://, az://, gs://, http:// or https:// prefix without . or .. segments`);
      uris.push({ shown: redactUri(raw), ...at });
      continue;
    }
    try { local.push(await realpath(path.resolve(raw))); } catch (e) {
      throw new SimgrepError('BAD_FLAG', `--allow ${raw}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such directory' : `cannot be resolved (${(e as NodeJS.ErrnoException).code})`}; name a directory that exists on this machine`);
    }
  }
  const own = o.ownS3Endpoint ? originOf(o.ownS3Endpoint) : null;
  // Compared as bytes (latin1 strings): a name that is not UTF-8 compares as it is on disk.
  const localBytes = local.map((r) => Buffer.from(r).toString('latin1'));
  const uriRoot = (target: string) => {
    const at = storeAndKey(target);
    return at ? uris.find((u) => u.store === at.store && under(at.prefix, u.prefix))?.shown ?? null : null;
  };
  const rootsOf = async (targets: Target[]) => {
    const dirs = new Map<string, Promise<Buffer>>();
    return Promise.all(targets.map(async (target) => {
      if (typeof target === 'string' && isRemoteUri(target)) return uriRoot(target);
      if (local.length === 0) return null;
      const real = (await realFile(typeof target === 'string' ? Buffer.from(target) : target, dirs)).toString('latin1');
      const i = localBytes.findIndex((r) => under(real, r));
      return i < 0 ? null : local[i];
    }));
  };
  return {
    anyPath: o.anyPath,
    shown: [...local, ...uris.map((u) => u.shown)],
    rootOf: async (target) => (await rootsOf([target]))[0],
    rootsOf,
    endpointAllowed: (endpoint) => o.anyPath || (own !== null && originOf(endpoint) === own),
  };
}

/**
 * A file's real path: its directory's (resolved once per directory of a batch), then the file itself
 * only when it is a symbolic link (one lstat: cheap beside a realpath per file).
 */
async function realFile(p: Buffer, dirs: Map<string, Promise<Buffer>>): Promise<Buffer> {
  const i = p.lastIndexOf(0x2f);
  if (i < 0 || p.length <= 1) return realTarget(p);
  const dir = i === 0 ? SLASH : p.subarray(0, i);
  const key = dir.toString('latin1');
  let real = dirs.get(key);
  if (!real) dirs.set(key, real = realTarget(dir));
  let link = false;
  try { link = lstatSync(p).isSymbolicLink(); } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
  }
  if (link) return realTarget(p);
  const d = await real;
  return Buffer.concat([d, d.at(-1) === 0x2f ? Buffer.alloc(0) : SLASH, p.subarray(i + 1)]);
}

/** A URI's store (scheme and bucket, container or origin) and its key; null when it has a . or .. segment. */
function storeAndKey(uri: string): { store: string; prefix: string } | null {
  // s3://, az:// and gs:// by string (a shard names thousands); parseRemoteUri splits them the same way.
  const m = /^(s3|az|gs):\/\/([^/]+)(?:\/(.*))?$/.exec(uri);
  if (m) return m[3] !== undefined && !isSafeKey(m[3]) ? null : { store: `${m[1]}://${m[2]}`, prefix: m[3] ?? '' };
  let u;
  try { u = parseRemoteUri(uri); } catch { return null; }
  if (u.scheme === 'http') {
    // WHATWG URL parsing already resolved dot segments (also %2e%2e); the raw text must not have any either.
    const raw = uri.replace(/^[a-z]+:\/\/[^/?#]*/i, '').split(/[?#]/)[0];
    if (raw.split('/').some((s) => /^(\.|%2e){1,2}$/i.test(s))) return null;
    return { store: u.url.origin, prefix: u.url.pathname.replace(/^\//, '') };
  }
  if (u.key.split('/').some((s) => s === '.' || s === '..')) return null;
  return { store: `${u.scheme}://${u.scheme === 'az' ? u.container : u.bucket}`, prefix: u.key };
}

/** True when `p` is `root` or below it, on whole segments ("app" covers "app/x", not "apple"). */
function under(p: string, root: string): boolean {
  if (root === '' || root === '/' || p === root) return true;
  return p.startsWith(root.endsWith('/') ? root : `${root}/`);
}

function originOf(endpoint: string): string | null {
  try { return new URL(endpoint.includes('://') ? endpoint : `https://${endpoint}`).origin; } catch { return null; }
}

const SLASH = Buffer.from('/');

/**
 * The real path of `p` (absolute): the longest part that exists resolved (symlinks followed), the rest
 * (not yet created, so no link) appended. A part that cannot be resolved for another reason than not
 * existing is an error: the target cannot be checked.
 */
export async function realTarget(p: Buffer): Promise<Buffer> {
  let head = p;
  const tail: Buffer[] = [];
  for (;;) {
    try {
      const real = await realpath(head, { encoding: 'buffer' });
      return tail.reduce((acc, seg) => Buffer.concat([acc, acc.at(-1) === 0x2f ? Buffer.alloc(0) : SLASH, seg]), real);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || head.length <= 1) throw e;
      const i = head.lastIndexOf(0x2f);
      const seg = head.subarray(i + 1);
      if (seg.equals(Buffer.from('..')) || seg.equals(Buffer.from('.'))) throw e;
      if (seg.length > 0) tail.unshift(seg);
      head = i <= 0 ? SLASH : head.subarray(0, i);
    }
  }
}
