// The folder layouts a model2vec model can come in (the same three model2vec's Python loader tries),
// and which files a directory or a hub snapshot must hold to count as a complete model.
import { stat } from 'node:fs/promises';
import path from 'node:path';

export interface LayoutSpec {
  readonly kind: 'model2vec' | 'sentence-transformers';
  /** Paths relative to the model folder. */
  readonly config: string;
  readonly model: string;
  readonly tokenizer: string;
  /** Name of the embedding tensor in model.safetensors. */
  readonly tensor: 'embeddings' | 'embedding.weight';
}

export const LAYOUTS: readonly LayoutSpec[] = [
  { kind: 'model2vec', config: 'config.json', model: 'model.safetensors', tokenizer: 'tokenizer.json', tensor: 'embeddings' },
  {
    kind: 'sentence-transformers',
    config: 'config_sentence_transformers.json',
    model: 'model.safetensors',
    tokenizer: 'tokenizer.json',
    tensor: 'embedding.weight',
  },
  {
    kind: 'sentence-transformers',
    config: 'config_sentence_transformers.json',
    model: '0_StaticEmbedding/model.safetensors',
    tokenizer: '0_StaticEmbedding/tokenizer.json',
    tensor: 'embedding.weight',
  },
];

/** Optional file that may carry the Normalize module when config has no "normalize" key. */
export const MODULES_FILE = 'modules.json';

export interface ModelLayout {
  spec: LayoutSpec;
  dir: string;
  configPath: string;
  modelPath: string;
  tokenizerPath: string;
  /** null when the folder has no modules.json. */
  modulesPath: string | null;
}

export async function isFile(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}

/** The first layout whose three files all exist in `dir`, or null. */
export async function detectLayout(dir: string): Promise<ModelLayout | null> {
  for (const spec of LAYOUTS) {
    const configPath = path.join(dir, spec.config);
    const modelPath = path.join(dir, spec.model);
    const tokenizerPath = path.join(dir, spec.tokenizer);
    const present = await Promise.all([isFile(configPath), isFile(modelPath), isFile(tokenizerPath)]);
    if (present.every(Boolean)) {
      const modules = path.join(dir, MODULES_FILE);
      return { spec, dir, configPath, modelPath, tokenizerPath, modulesPath: (await isFile(modules)) ? modules : null };
    }
  }
  return null;
}

/** For an incomplete folder: the files of the default layout that are absent (for error messages). */
export async function missingFiles(dir: string): Promise<string[]> {
  const spec = LAYOUTS[0];
  const names = [spec.config, spec.tokenizer, spec.model];
  const present = await Promise.all(names.map((n) => isFile(path.join(dir, n))));
  return names.filter((_, i) => !present[i]);
}
