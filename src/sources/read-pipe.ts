// A pipe or device given as a path (a FIFO, <(process substitution), /dev/stdin, a character device): read
// as it streams, without blocking the walk, and stopped at the deadline or an abort.
import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { Socket } from 'node:net';
import { STREAM_CHUNK_BYTES } from './source.js';

/**
 * A pipe or device. A named pipe (a FIFO, <(process substitution), /dev/stdin on a pipe) is read as a
 * socket, with epoll: its read can be given up on at the deadline or an abort (destroy() cancels it and
 * closes the fd), where a read on libuv's threads cannot, and a writer holding the pipe open would keep
 * the process alive after its answer. Anything else (a character device; off Linux, a FIFO too, since
 * kqueue may report a FIFO without a writer as ended) is read on libuv's threads.
 */
export async function* readPipe(p: string, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  if (signal?.aborted) return;
  if (process.platform === 'linux' && (await stat(p)).isFIFO()) {
    const fd = openFifo(p);
    if (fd !== null) { yield* readFifo(fd, signal); return; }
  }
  const handle = await open(p, 'r');
  try {
    for (;;) {
      if (signal?.aborted) return;
      const chunk = Buffer.allocUnsafe(STREAM_CHUNK_BYTES);
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) return;
      yield chunk.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/**
 * The FIFO at `p` opened without waiting for a writer (O_NONBLOCK), or null if it is no FIFO by the time
 * it is opened. On Linux epoll reports no end until a writer has come and gone, so a FIFO without a
 * writer yet is waited for, as the blocking open did, and never read as empty.
 */
function openFifo(p: string): number | null {
  const fd = openSync(p, constants.O_RDONLY | constants.O_NONBLOCK);
  if (fstatSync(fd).isFIFO()) return fd;
  closeSync(fd);
  return null;
}

/** The FIFO's bytes as they come, until its writers close it; an abort stops the read and closes the fd. */
async function* readFifo(fd: number, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  let socket: Socket;
  try { socket = new Socket({ fd, readable: true, writable: false }); } catch (err) { closeSync(fd); throw err; }
  const stop = () => socket.destroy();
  signal?.addEventListener('abort', stop, { once: true });
  try {
    for await (const chunk of socket) yield chunk as Buffer;
  } catch (err) {
    if (!signal?.aborted) throw err; // the abort's own ERR_STREAM_PREMATURE_CLOSE is a stop, not a failure
  } finally {
    signal?.removeEventListener('abort', stop);
    socket.destroy();
  }
}
