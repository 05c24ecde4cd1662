// A hex digest in one call: crypto.hash (Node 20.12+) is ~4x faster than a Hash object on the small
// inputs a build hashes by the thousand (a file, each chunk); older Nodes take the Hash object. Also
// what searches use to check a file's bytes against the sha256 the index recorded for it.
import crypto, { createHash } from 'node:crypto';

export const hexDigest: (algorithm: string, bytes: Uint8Array) => string = typeof crypto.hash === 'function'
  ? (algorithm, bytes) => crypto.hash(algorithm, bytes, 'hex')
  : (algorithm, bytes) => createHash(algorithm).update(bytes).digest('hex');

/** The sha256 of bytes, in hex: the form the index records a file's hash in. */
export const sha256Hex = (bytes: Uint8Array): string => hexDigest('sha256', bytes);
