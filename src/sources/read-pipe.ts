// A pipe or device given as a path (a FIFO, <(process substitution), /dev/stdin, a terminal, another
// character device): read as it streams, without blocking the walk, and stopped at the deadline or an abort.
import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { Socket } from 'node:net';
import { isatty, ReadStream } from 'node:tty';
import { STREAM_CHUNK_BYTES } from './source.js';

/**
 * A pipe or device. A named pipe (a FIFO, <(process substitution), /dev/stdin on a pipe) is read as a
 * socket, with epoll: its read can be given up on at the deadline or an abort (destroy() cancels it and
 * closes the fd), where a read on libuv's threads cannot, and a writer holding the pipe open would keep
 * the process alive after its answer. A terminal (a character device that is a tty) is read the same way,
 * as libuv's tty stream (trust44: a read on the threads of a terminal no one typed into kept the CLI up
 * after its answer). Anything else (a device that never blocks, /dev/zero or /dev/urandom, stopped between
 * its reads; off Linux, a FIFO too, since kqueue may report a FIFO without a writer as ended, and a terminal,
 * whose tty stream is untried there) is read on libuv's threads.
 */
export async function* readPipe(p: string, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  if (signal?.aborted) return;
  const st = await stat(p);
  if (process.platform === 'linux' && st.isFIFO()) {
    const fd = openFifo(p);
    if (fd !== null) { yield* readStream(fifoSocket(fd), signal); return; }
  }
  if (process.platform === 'linux' && st.isCharacterDevice()) {
    const fd = openTty(p);
    if (fd !== null) { yield* readStream(ttyStream(fd), signal); return; }
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

/**
 * The terminal at `p` opened without waiting and without becoming this process's controlling terminal
 * (O_NOCTTY), or null if it is no tty (a device that never blocks: read on the threads, stopped between reads).
 */
function openTty(p: string): number | null {
  const fd = openSync(p, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  if (isatty(fd)) return fd;
  closeSync(fd);
  return null;
}

function fifoSocket(fd: number): Socket {
  try { return new Socket({ fd, readable: true, writable: false }); } catch (err) { closeSync(fd); throw err; }
}

/**
 * libuv's tty stream of `fd` (epoll, as a socket's; its line discipline as the terminal has it set). uv_tty_init
 * reopens a terminal that is no pty master by its name (O_NOCTTY), dup2s the new fd over `fd` and reads the new one,
 * which destroy() closes: `fd` stays open, and with it the terminal (mend44: one fd a read). So `fd` is closed here
 * when the stream's handle reads another; when it reads `fd` itself, destroy() closes it.
 */
function ttyStream(fd: number): ReadStream {
  let stream: ReadStream;
  try { stream = new ReadStream(fd); } catch (err) { closeSync(fd); throw err; }
  const read = (stream as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
  if (typeof read === 'number' && read >= 0 && read !== fd) closeSync(fd);
  return stream;
}

/** The stream's bytes as they come, until it ends; an abort stops the read and closes the fd. */
async function* readStream(socket: Socket, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
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
