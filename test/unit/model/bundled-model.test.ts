// The bundled default model (src/model/bundled/model, trained by fixtures/train-model/) and its
// lexicon: the model loads through loadModel, fits the 16 MB budget and finds code for plain-English
// queries; lexicon.tsv has the documented format. Queries and code here are hand-written.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createStaticKernel } from '../../../src/embed/static.js';
import { bundledModelDir } from '../../../src/model/default-model.js';
import { loadModel } from '../../../src/model/load.js';
import { createLineTokenizer, type LineTokenizer } from '../../../src/model/tokenizer/index.js';
import type { ModelData } from '../../../src/types.js';

const MODEL_DIR = bundledModelDir();
const LEXICON = path.join(path.dirname(MODEL_DIR), 'lexicon.tsv');

/** Each query's matching line comes first; the others are decoys from the same kind of code. */
const CASES: Array<{ query: string; lines: string[] }> = [
  {
    query: 'retry the upload when the network fails',
    lines: [
      'for attempt in range(max_retries): upload_chunk(buf)',
      'const total = items.reduce((a, b) => a + b, 0);',
      'logger.setLevel(logging.DEBUG)',
    ],
  },
  {
    query: 'parse the json configuration file',
    lines: [
      'config = json.load(open(config_path))',
      'socket.sendall(payload)',
      'return sorted(values, key=lambda v: v.priority)',
    ],
  },
  {
    query: 'remove a temporary directory',
    lines: [
      'shutil.rmtree(tmp_dir, ignore_errors=True)',
      'const user = await db.users.findOne({ id });',
      'print(f"{name}: {score:.2f}")',
    ],
  },
  {
    query: 'cancel a pending request',
    lines: [
      'controller.abort();',
      'img.resize((width, height))',
      'return a.concat(b).sort();',
    ],
  },
  {
    query: 'hash the user password',
    lines: [
      'digest = hashlib.sha256(password.encode()).hexdigest()',
      'window.scrollTo(0, document.body.scrollHeight);',
      'df = pd.read_csv(path)',
    ],
  },
];

function dirBytes(dir: string): number {
  return readdirSync(dir).reduce((n, f) => n + statSync(path.join(dir, f)).size, 0);
}

describe('bundled model', () => {
  let model: ModelData;
  let tokenizer: LineTokenizer;

  beforeAll(async () => {
    model = await loadModel(MODEL_DIR, { offline: true });
    tokenizer = createLineTokenizer(JSON.parse(readFileSync(model.tokenizerPath, 'utf8')));
  });

  async function distances(query: string, lines: string[]): Promise<number[]> {
    const kernel = createStaticKernel(model);
    const encode = (t: string) => Array.from(tokenizer.encode(t)).filter((id) => id !== model.unkId).slice(0, model.maxLength);
    const q = encode(query);
    const qv = await kernel.embed({ ids: Int32Array.from(q), lineStarts: Uint32Array.from([0, q.length]) });
    const ids: number[] = [];
    const starts = [0];
    for (const l of lines) {
      ids.push(...encode(l));
      starts.push(ids.length);
    }
    return Array.from(await kernel.score({ ids: Int32Array.from(ids), lineStarts: Uint32Array.from(starts) }, qv));
  }

  it('loads through loadModel as a normalised model2vec model within the 16 MB budget', () => {
    expect({ normalize: model.normalize, dim: model.dim, rows: model.rows, wordPiece: tokenizer.kind }).toEqual({
      normalize: true,
      dim: 256,
      rows: 34857,
      wordPiece: 'wordpiece-native',
    });
    expect(dirBytes(MODEL_DIR)).toBeLessThanOrEqual(16 * 1024 * 1024);
  });

  it.each(CASES)('ranks the matching line first for "$query"', async ({ query, lines }) => {
    const d = await distances(query, lines);
    expect(d.indexOf(Math.min(...d))).toBe(0);
  });
});

describe('bundled lexicon', () => {
  const rows = readFileSync(LEXICON, 'utf8').split('\n').filter((l) => l.length > 0);

  it('starts with the document count and lists terms by df descending, then term', () => {
    const [head, ...terms] = rows;
    expect(head).toMatch(/^#docs\t[1-9]\d*$/);
    const docs = Number(head.split('\t')[1]);
    const parsed = terms.map((l) => l.split('\t'));
    expect(parsed.every((p) => p.length === 2 && /^[a-z0-9_]+$/.test(p[0]) && /^[1-9]\d*$/.test(p[1]))).toBe(true);
    const df = parsed.map((p) => Number(p[1]));
    expect(df.every((v) => v <= docs)).toBe(true);
    const sorted = parsed.every((p, i) => i === 0 || df[i - 1] > df[i] || (df[i - 1] === df[i] && parsed[i - 1][0] < p[0]));
    expect(sorted).toBe(true);
    expect(terms.length).toBeGreaterThanOrEqual(50_000);
    expect(statSync(LEXICON).size).toBeLessThan(2 * 1024 * 1024);
  });

  it('holds common identifier parts with plausible frequencies', () => {
    const df = new Map(rows.slice(1).map((l) => l.split('\t') as [string, string]));
    for (const t of ['self', 'return', 'function', 'init', 'validator']) expect(Number(df.get(t))).toBeGreaterThan(0);
    expect(Number(df.get('return'))).toBeGreaterThan(Number(df.get('validator')));
  });
});
