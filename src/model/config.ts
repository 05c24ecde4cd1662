// Reads a model's config (config.json or config_sentence_transformers.json) and modules.json into the
// two settings encoding needs: whether to L2-normalise, and the token limit per text.
import { MAX_MODEL_JSON_BYTES, ModelFileProblem, readModelFile } from './model-file.js';
import { corruptModel } from './safetensors.js';

/** model2vec's StaticModel.encode default (max_length=512). */
export const MODEL2VEC_MAX_LENGTH = 512;

const NORMALIZE_MODULE = 'sentence_transformers.models.Normalize';

export interface ModelConfig {
  normalize: boolean;
  maxLength: number;
}

async function readJson(file: string, hint: string): Promise<unknown> {
  let text: string;
  try {
    text = (await readModelFile(file, MAX_MODEL_JSON_BYTES, 'a model\'s config')).toString('utf8');
  } catch (e) {
    if (e instanceof ModelFileProblem) throw corruptModel(file, e.message, hint, e.cause ?? e);
    throw corruptModel(file, `cannot read the file (${(e as NodeJS.ErrnoException).code ?? String(e)})`, hint, e);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw corruptModel(file, 'the file is not valid JSON', hint, e);
  }
}

/**
 * normalize: the config's boolean "normalize" key when present (what Python model2vec reads);
 * otherwise true exactly when modules.json lists a Normalize module (how model2vec writes that
 * setting for sentence-transformers), else false (Python's config.get("normalize", False)).
 */
export async function readModelConfig(configPath: string, modulesPath: string | null, hint: string): Promise<ModelConfig> {
  const config = await readJson(configPath, hint);
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw corruptModel(configPath, 'the config is not a JSON object', hint);
  }
  const value = (config as Record<string, unknown>).normalize;
  let normalize: boolean;
  if (typeof value === 'boolean') normalize = value;
  else if (value !== undefined && value !== null) {
    throw corruptModel(configPath, `"normalize" must be true or false, not ${JSON.stringify(value)}`, hint);
  } else normalize = modulesPath !== null && (await listsNormalize(modulesPath, hint));
  return { normalize, maxLength: MODEL2VEC_MAX_LENGTH };
}

async function listsNormalize(modulesPath: string, hint: string): Promise<boolean> {
  const modules = await readJson(modulesPath, hint);
  if (!Array.isArray(modules)) throw corruptModel(modulesPath, 'modules.json is not a JSON array', hint);
  return modules.some((m) => typeof m === 'object' && m !== null && (m as { type?: unknown }).type === NORMALIZE_MODULE);
}
