// Opens and reads a model directory's files (config.json, modules.json, tokenizer.json, model.safetensors):
// only a regular file, opened without blocking, and no more of it than such a file can sensibly hold. A model
// directory may be a cloned repository's or a workflow's choice (`settings.rag.embedding_model`). The layout
// check (layout.ts) sees a FIFO or a device as a missing file, but the reads came after it: a FIFO put there
// between the two hung the load for ever (no --timeout reaches a model load), and a tokenizer.json of 1.9 GB
// (a sparse file, made in a moment) was read whole: 16 s and 2 GB of memory before "not valid JSON".
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/** config.json and modules.json: a few hundred bytes in every model seen. */
export const MAX_MODEL_JSON_BYTES = 16 << 20;
/** tokenizer.json: the largest vocabularies' (250,000 tokens and their merges) are tens of MB. */
export const MAX_TOKENIZER_BYTES = 256 << 20;

/** O_NONBLOCK: opening a FIFO would otherwise wait for a writer forever (it is no help on a regular file, and no harm). */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** Why a model file cannot be read, in words for `${file}: ${problem}` (never thrown with a stack of its own). */
export class ModelFileProblem extends Error {}

/** `file` opened for reading when it is a regular file (links followed); the caller closes it. */
export async function openModelFile(file: string): Promise<FileHandle> {
  let fh: FileHandle;
  try { fh = await open(file, OPEN_FLAGS); } catch (e) {
    throw new ModelFileProblem(`cannot open the file (${(e as NodeJS.ErrnoException).code ?? String(e)})`, { cause: e });
  }
  try {
    const st = await fh.stat();
    if (st.isDirectory()) throw new ModelFileProblem('is a directory, not a file');
    if (!st.isFile()) throw new ModelFileProblem('is not a regular file (a pipe, socket or device); a model\'s files are plain files');
    return fh;
  } catch (e) {
    await fh.close();
    throw e;
  }
}

/** The whole of a regular file of at most `maxBytes` (`what` names it in the problem: "a config file"). */
export async function readModelFile(file: string, maxBytes: number, what: string): Promise<Buffer> {
  const fh = await openModelFile(file);
  try {
    const { size } = await fh.stat();
    if (size > maxBytes) throw new ModelFileProblem(`is ${size} bytes, more than ${what} can be (at most ${maxBytes})`);
    // Its size as of now: a file that grows while read is read as of now (a /proc file, whose size is 0, as empty).
    const buf = Buffer.allocUnsafe(size);
    let at = 0;
    while (at < size) {
      const { bytesRead } = await fh.read(buf, at, size - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return buf.subarray(0, at);
  } finally {
    await fh.close();
  }
}
