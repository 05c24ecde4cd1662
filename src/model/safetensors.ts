// safetensors reader: validates the header (8-byte LE length + JSON) against the file size, then
// reads single tensors straight into SharedArrayBuffer-backed arrays (one copy, shareable by workers).
import type { FileHandle } from 'node:fs/promises';
import os from 'node:os';
import { SimgrepError } from '../errors.js';
import { DTYPE_BYTES, decodeFloats, decodeInts } from './dtype.js';
import { ModelFileProblem, openModelFile } from './model-file.js';
import type { FileIdentity } from '../types.js';

/** The safetensors library's own limit; anything larger is not a real header. */
const MAX_HEADER_BYTES = 100 * 1024 * 1024;
/** Per read(2) call; well under Node's 2 GiB limit. */
const DIRECT_CHUNK_BYTES = 64 * 1024 * 1024;
/** Scratch buffer for dtype conversion. */
const CONVERT_CHUNK_BYTES = 4 * 1024 * 1024;

const DEFAULT_HINT = 'Replace the file, or pass --model <dir> with a valid model2vec model.';

export interface TensorInfo {
  name: string;
  dtype: string;
  shape: number[];
  /** Element count (product of shape). */
  length: number;
  /** Absolute byte offset of the data in the file. */
  offset: number;
  byteLength: number;
}

export interface SafetensorsReader {
  readonly path: string;
  /** The file's identity as opened (lazy tables check it again before each later read: model/lazy-rows.ts). */
  readonly identity: FileIdentity;
  readonly tensors: ReadonlyMap<string, TensorInfo>;
  /**
   * Expands F32/F16/BF16/I8/F64 (as allowed) into a Float32Array on a SharedArrayBuffer: `into` (a shared
   * array of t.length floats the caller laid out) when given, else a new one.
   */
  readFloat32(t: TensorInfo, allowed: readonly string[], into?: Float32Array): Promise<Float32Array>;
  /** Reads an I8 tensor as it is into an Int8Array on a SharedArrayBuffer. */
  readInt8(t: TensorInfo): Promise<Int8Array>;
  /** Reads I32/I64 into an Int32Array on a SharedArrayBuffer. */
  readInt32(t: TensorInfo, allowed: readonly string[]): Promise<Int32Array>;
  close(): Promise<void>;
}

export function corruptModel(file: string, problem: string, hint = DEFAULT_HINT, cause?: unknown): SimgrepError {
  return new SimgrepError('MODEL_CORRUPT', `${file}: ${problem}. ${hint}`, { cause });
}

function isDim(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

/** Parses and checks the header JSON; offsets come back absolute. */
export function parseHeader(file: string, json: string, dataStart: number, fileBytes: number, hint = DEFAULT_HINT): Map<string, TensorInfo> {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (e) {
    throw corruptModel(file, 'the safetensors header is not valid JSON (truncated or not a safetensors file)', hint, e);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw corruptModel(file, 'the safetensors header is not a JSON object', hint);
  }
  const dataBytes = fileBytes - dataStart;
  const tensors = new Map<string, TensorInfo>();
  for (const [name, entry] of Object.entries(raw as Record<string, unknown>)) {
    if (name === '__metadata__') continue;
    const e = entry as { dtype?: unknown; shape?: unknown; data_offsets?: unknown } | null;
    const dtype = e?.dtype;
    if (typeof dtype !== 'string' || !(dtype in DTYPE_BYTES)) {
      throw corruptModel(file, `tensor "${name}" has unknown dtype ${JSON.stringify(dtype)}`, hint);
    }
    const shape = e?.shape;
    const offsets = e?.data_offsets;
    if (!Array.isArray(shape) || !shape.every(isDim)) {
      throw corruptModel(file, `tensor "${name}" has an invalid shape ${JSON.stringify(shape)}`, hint);
    }
    if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every(isDim) || offsets[0] > offsets[1]) {
      throw corruptModel(file, `tensor "${name}" has invalid data_offsets ${JSON.stringify(offsets)}`, hint);
    }
    const length = (shape as number[]).reduce((a, b) => a * b, 1);
    const byteLength = length * DTYPE_BYTES[dtype];
    const [begin, end] = offsets as number[];
    if (!Number.isSafeInteger(byteLength) || end - begin !== byteLength) {
      throw corruptModel(
        file,
        `tensor "${name}" has shape [${shape.join(', ')}] (${byteLength} bytes of ${dtype}) but its data_offsets cover ${end - begin} bytes`,
        hint,
      );
    }
    if (end > dataBytes) {
      throw corruptModel(
        file,
        `the file is truncated: tensor "${name}" ends at byte ${dataStart + end} but the file has ${fileBytes} bytes`,
        hint,
      );
    }
    tensors.set(name, { name, dtype, shape: shape as number[], length, offset: dataStart + begin, byteLength });
  }
  return tensors;
}

async function readExact(fh: FileHandle, file: string, dst: Uint8Array, position: number, hint: string): Promise<void> {
  let done = 0;
  while (done < dst.byteLength) {
    const want = Math.min(dst.byteLength - done, DIRECT_CHUNK_BYTES);
    const { bytesRead } = await fh.read(dst, done, want, position + done);
    if (bytesRead === 0) throw corruptModel(file, `unexpected end of file at byte ${position + done}`, hint);
    done += bytesRead;
  }
}

/** Opens a safetensors file and validates its header; the caller must close() it. */
export async function openSafetensors(file: string, hint = DEFAULT_HINT): Promise<SafetensorsReader> {
  if (os.endianness() !== 'LE') {
    throw new SimgrepError('INTERNAL', 'simgrep reads safetensors tables only on little-endian hosts.');
  }
  let fh: FileHandle;
  try {
    fh = await openModelFile(file);
  } catch (e) {
    if (e instanceof ModelFileProblem) throw corruptModel(file, e.message, hint, e.cause ?? e);
    throw corruptModel(file, `cannot open the model file (${(e as NodeJS.ErrnoException).code ?? String(e)})`, hint, e);
  }
  try {
    const st = await fh.stat();
    const fileBytes = st.size;
    if (fileBytes < 8) throw corruptModel(file, `the file is truncated (${fileBytes} bytes, no safetensors header)`, hint);
    const lenBuf = new Uint8Array(8);
    await readExact(fh, file, lenBuf, 0, hint);
    const headerLen = Number(new DataView(lenBuf.buffer).getBigUint64(0, true));
    if (headerLen > MAX_HEADER_BYTES || 8 + headerLen > fileBytes) {
      throw corruptModel(file, `the safetensors header claims ${headerLen} bytes but the file has ${fileBytes} (truncated or not a safetensors file)`, hint);
    }
    const headerBuf = new Uint8Array(headerLen);
    await readExact(fh, file, headerBuf, 8, hint);
    const tensors = parseHeader(file, Buffer.from(headerBuf).toString('utf8'), 8 + headerLen, fileBytes, hint);
    return createReader(fh, file, tensors, hint, { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino, dev: st.dev });
  } catch (e) {
    await fh.close();
    throw e;
  }
}

function createReader(fh: FileHandle, file: string, tensors: Map<string, TensorInfo>, hint: string, identity: SafetensorsReader['identity']): SafetensorsReader {
  function checkDtype(t: TensorInfo, allowed: readonly string[]): void {
    if (!allowed.includes(t.dtype)) {
      throw corruptModel(file, `tensor "${t.name}" has dtype ${t.dtype}; supported: ${allowed.join(', ')}`, hint);
    }
  }

  /** Streams the tensor through a scratch buffer, handing whole elements to `decode`. */
  async function convert(t: TensorInfo, decode: (chunk: Uint8Array, at: number) => void): Promise<void> {
    const size = DTYPE_BYTES[t.dtype];
    const chunkBytes = Math.max(size, CONVERT_CHUNK_BYTES - (CONVERT_CHUNK_BYTES % size));
    const scratch = new Uint8Array(Math.min(chunkBytes, Math.max(t.byteLength, size)));
    for (let done = 0; done < t.byteLength; ) {
      const n = Math.min(scratch.byteLength, t.byteLength - done);
      const chunk = scratch.subarray(0, n);
      await readExact(fh, file, chunk, t.offset + done, hint);
      decode(chunk, done / size);
      done += n;
    }
  }

  return {
    path: file,
    identity,
    tensors,
    async readFloat32(t, allowed, into) {
      checkDtype(t, allowed);
      if (into && into.length !== t.length) throw new SimgrepError('INTERNAL', `tensor "${t.name}" has ${t.length} floats, not the ${into.length} laid out for it`);
      if (into && !(into.buffer instanceof SharedArrayBuffer)) throw new SimgrepError('INTERNAL', `tensor "${t.name}" must be read into shared memory (the worker threads share one copy)`);
      const out = into ?? new Float32Array(new SharedArrayBuffer(t.length * 4));
      if (t.dtype === 'F32') await readExact(fh, file, new Uint8Array(out.buffer, out.byteOffset, out.byteLength), t.offset, hint);
      else await convert(t, (chunk, at) => decodeFloats(t.dtype, chunk, out, at));
      return out;
    },
    async readInt8(t) {
      checkDtype(t, ['I8']);
      const out = new Int8Array(new SharedArrayBuffer(t.length));
      await readExact(fh, file, new Uint8Array(out.buffer), t.offset, hint);
      return out;
    },
    async readInt32(t, allowed) {
      checkDtype(t, allowed);
      const out = new Int32Array(new SharedArrayBuffer(t.length * 4));
      if (t.dtype === 'I32') {
        await readExact(fh, file, new Uint8Array(out.buffer), t.offset, hint);
        return out;
      }
      await convert(t, (chunk, at) => {
        const bad = decodeInts(t.dtype, chunk, out, at);
        if (bad >= 0) throw corruptModel(file, `tensor "${t.name}" value at index ${bad} does not fit in 32 bits`, hint);
      });
      return out;
    },
    close: () => fh.close(),
  };
}
