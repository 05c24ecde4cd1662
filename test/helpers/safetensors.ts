// safetensors files for tests: dtype encoders and a writer whose header can be corrupted on purpose.

export interface RawTensor {
  dtype: string;
  shape: number[];
  /** Raw little-endian bytes. */
  data: Uint8Array;
}

export function bytesOf(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

/** float -> IEEE binary16 bits (round-to-nearest is enough for the exact test values used). */
export function toHalf(v: number): number {
  const f32 = new Float32Array([v]);
  const u = new Uint32Array(f32.buffer)[0];
  const sign = (u >>> 16) & 0x8000;
  const exp = ((u >>> 23) & 0xff) - 127 + 15;
  const frac = (u >>> 13) & 0x3ff;
  if (v === 0) return sign;
  if (exp <= 0) return sign | (Math.round(Math.abs(v) / 2 ** -24) & 0x3ff);
  return sign | (exp << 10) | frac;
}

/** Encodes values as `dtype` bytes (F32, F16, BF16, I8, F64, I32, I64). */
export function encode(dtype: string, values: number[]): Uint8Array {
  switch (dtype) {
    case 'F32': return bytesOf(Float32Array.from(values));
    case 'F64': return bytesOf(Float64Array.from(values));
    case 'F16': return bytesOf(Uint16Array.from(values.map(toHalf)));
    case 'BF16': return bytesOf(Uint16Array.from(values.map((v) => new Uint32Array(Float32Array.from([v]).buffer)[0] >>> 16)));
    case 'I8': return bytesOf(Int8Array.from(values));
    case 'I32': return bytesOf(Int32Array.from(values));
    case 'I64': return bytesOf(BigInt64Array.from(values.map(BigInt)));
    default: throw new Error(`encode: ${dtype}`);
  }
}

/** A safetensors file; `header` overrides let tests corrupt individual fields. */
export function safetensorsBytes(tensors: Record<string, RawTensor>, header?: (h: Record<string, unknown>) => unknown): Buffer {
  const h: Record<string, unknown> = { __metadata__: { format: 'pt' } };
  let offset = 0;
  for (const [name, t] of Object.entries(tensors)) {
    h[name] = { dtype: t.dtype, shape: t.shape, data_offsets: [offset, offset + t.data.byteLength] };
    offset += t.data.byteLength;
  }
  let json = JSON.stringify(header ? header(h) : h);
  while ((8 + json.length) % 8 !== 0) json += ' ';
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(Buffer.byteLength(json)));
  return Buffer.concat([len, Buffer.from(json), ...Object.values(tensors).map((t) => Buffer.from(t.data))]);
}
