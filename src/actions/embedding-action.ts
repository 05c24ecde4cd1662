// embedding.create with TEA's contract (rag_actions.py): `text` (a string or a list), optional `model`
// and `batch`; one text gives {embedding, model, dimensions}, a list (or batch: true) gives
// {embeddings, model, count, dimensions}. Vectors are the engine's model's, at unit length, exactly
// as every search embeds a line.
import type { ActionEngine } from './engine.js';
import { fail } from './errors.js';
import { bool, str, type Params } from './params.js';

export async function embeddingCreate(engine: ActionEngine, _state: unknown, p: Params) {
  const text = p.text;
  const list = Array.isArray(text);
  if (!(typeof text === 'string' || (list && text.every((t) => typeof t === 'string')))) {
    return fail('validation_error', `Embedding creation failed: parameter text must be a string or a list of strings (got ${JSON.stringify(text) ?? String(text)})`);
  }
  const texts = list ? text as string[] : [text as string];
  const m = await engine.searcher.model();
  const model = str(p, 'model');
  // One engine, one model: asking for another is an error rather than vectors of a model not asked for.
  if (model !== undefined && model !== m.id) {
    return fail('validation_error', `Embedding creation failed: parameter model is ${JSON.stringify(model)} but this engine embeds with ${m.id}; leave model out or start simgrep with --model ${model}`);
  }
  const flat = await engine.searcher.embed(texts);
  const dim = m.dim;
  const rows = texts.map((_, i) => Array.from(flat.subarray(i * dim, (i + 1) * dim)));
  if (list || bool(p, 'batch', false) || texts.length > 1) return { embeddings: rows, model: m.id, count: rows.length, dimensions: dim };
  return { embedding: rows[0], model: m.id, dimensions: dim };
}
