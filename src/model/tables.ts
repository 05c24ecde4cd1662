// model.safetensors -> the embedding table (plus mapping and weights for vocab-quantized models),
// each on a SharedArrayBuffer, checked for shape and range so the kernel can index without checks.
import { FLOAT_TABLE_DTYPES, FLOAT_WEIGHT_DTYPES, INDEX_DTYPES } from './dtype.js';
import { corruptModel, openSafetensors, type TensorInfo } from './safetensors.js';
import type { EmbeddingTable, LazyRows, ModelFileId } from '../types.js';
import { lazyRowsOf } from './lazy-rows.js';
import path from 'node:path';

export interface ModelTables {
  table: EmbeddingTable;
  rows: number;
  dim: number;
  mapping?: Int32Array;
  weights?: Float32Array;
  /** An int8 table left unread, its rows read as met (`lazy` asked for). */
  lazyRows?: LazyRows;
  file: ModelFileId;
}

/** model2vec writes "embeddings"; sentence-transformers StaticEmbedding writes "embedding.weight". */
const TABLE_NAMES = ['embeddings', 'embedding.weight'] as const;

/**
 * `floatTable`: where a float table of `length` floats in rows of `dim` is read (a shared array the caller
 * lays out, loadModel's option of that name); undefined from it, or absent: a SharedArrayBuffer of its own.
 */
export async function readModelTables(file: string, preferred: string, hint: string, floatTable?: (length: number, dim: number) => Float32Array | undefined, lazy = false): Promise<ModelTables> {
  const st = await openSafetensors(file, hint);
  try {
    const names = [preferred, ...TABLE_NAMES.filter((n) => n !== preferred)];
    const emb = names.map((n) => st.tensors.get(n)).find((t): t is TensorInfo => t !== undefined);
    if (!emb) {
      const found = [...st.tensors.keys()].join(', ') || 'none';
      throw corruptModel(file, `no embedding tensor (expected "embeddings" or "embedding.weight"; found: ${found})`, hint);
    }
    if (emb.shape.length !== 2 || emb.shape[0] === 0 || emb.shape[1] === 0) {
      throw corruptModel(file, `tensor "${emb.name}" must be a non-empty 2-D [rows, dim] table, not [${emb.shape.join(', ')}]`, hint);
    }
    const [rows, dim] = emb.shape;
    const mappingInfo = oneDim(st.tensors.get('mapping'), file, hint);
    const weightsInfo = oneDim(st.tensors.get('weights'), file, hint);
    if (mappingInfo && weightsInfo && mappingInfo.length !== weightsInfo.length) {
      throw corruptModel(file, `"mapping" has ${mappingInfo.length} entries but "weights" has ${weightsInfo.length}`, hint);
    }

    // An int8 table asked lazily is only laid out (zeros, mapped by the system as written): its rows are read as met.
    const lazyRows = lazy && emb.dtype === 'I8' ? lazyRowsOf(st.path, emb.offset, rows, dim, st.identity) : undefined;
    const table = lazyRows ? new Int8Array(new SharedArrayBuffer(emb.length))
      : emb.dtype === 'I8' ? await st.readInt8(emb) : await st.readFloat32(emb, FLOAT_TABLE_DTYPES, floatTable?.(emb.length, dim));
    const mapping = mappingInfo ? await st.readInt32(mappingInfo, INDEX_DTYPES) : undefined;
    if (mapping) {
      for (let i = 0; i < mapping.length; i++) {
        const row = mapping[i];
        if (row < 0 || row >= rows) {
          throw corruptModel(file, `"mapping"[${i}] = ${row} is outside the ${rows}-row table`, hint);
        }
      }
    }
    const weights = weightsInfo ? await st.readFloat32(weightsInfo, FLOAT_WEIGHT_DTYPES) : undefined;
    return { table, rows, dim, ...(mapping && { mapping }), ...(weights && { weights }), ...(lazyRows && { lazyRows }), file: { path: path.resolve(file), size: st.identity.size, mtimeMs: st.identity.mtimeMs, ino: st.identity.ino, dev: st.identity.dev } };
  } finally {
    await st.close();
  }
}

function oneDim(t: TensorInfo | undefined, file: string, hint: string): TensorInfo | undefined {
  if (t && t.shape.length !== 1) {
    throw corruptModel(file, `tensor "${t.name}" must be 1-D, not [${t.shape.join(', ')}]`, hint);
  }
  return t;
}
