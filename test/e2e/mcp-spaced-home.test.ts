// Regression (left37, issue 30: "nothing outside the root ever appears"): where the index home
// ($SIMGREP_HOME) and the model's folder lie under a directory with spaces and an apostrophe (/tmp/…/John
// Smith's home/), the MCP server's errors let a piece of that path through: `[outside the root] Smith's
// home is not a model2vec model directory`. Through the MCP SDK's own client and a real `simgrep mcp`:
// a broken index and each kind of bad model name none of it, and still say what failed and how to fix it.
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpClient } from '../helpers/mcp-client.js';
import { defaultName, workspacesDir } from '../../src/workspace/registry.js';
import { bundledModelDir } from '../../src/model/default-model.js';

type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown> };
const OUTSIDE = '[outside the root]';

let base = '';
let home = '';
let root = '';
let env: Record<string, string> = {};

beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'simgrep-mcp-spaced-')));
  home = path.join(base, "John Smith's home");
  root = path.join(base, 'project');
  env = { SIMGREP_HOME: path.join(home, '.simgrep'), SIMGREP_CACHE_DIR: path.join(home, '.cache', 'simgrep') };
  for (const d of ['broken', 'ok']) {
    mkdirSync(path.join(root, d), { recursive: true });
    writeFileSync(path.join(root, d, 'upload.ts'), 'export function retryUpload(file) {\n  return backoff(() => upload(file));\n}\n');
  }
  // broken: its workspace directory is a file (INDEX_UNREADABLE).
  mkdirSync(workspacesDir(env), { recursive: true });
  writeFileSync(path.join(workspacesDir(env), defaultName([path.join(root, 'broken')])), 'not a directory\n');
  // A model whose config.json is not JSON.
  cpSync(bundledModelDir(), path.join(home, 'models', 'bad'), { recursive: true });
  writeFileSync(path.join(home, 'models', 'bad', 'config.json'), '{bad');
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** One tool call on a `simgrep mcp` of the root with these variables. */
async function callOnce(extra: Record<string, string>, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  const client = await mcpClient(root, { ...env, ...extra });
  try {
    return await client.callTool({ name, arguments: args }) as ToolResult;
  } finally {
    await client.close();
  }
}

describe('MCP errors name nothing of a home with spaces and an apostrophe (left37)', () => {
  it('a broken index: status and index name it "the index"', async () => {
    const r = await callOnce({}, 'status', { directory: 'broken' });
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toBe('INDEX_UNREADABLE: cannot read the index directory the index: ENOTDIR; check its permissions');
  }, 60_000);

  const models: [string, () => string, string][] = [
    ['the home itself as the model', () => home,
      `MODEL_NOT_FOUND: ${OUTSIDE} is not a model2vec model directory: it has no config.json, tokenizer.json or model.safetensors. Copy the complete model (config.json, tokenizer.json, model.safetensors) into it, or pass --model with a complete model directory.`],
    ['a model whose config.json is not JSON', () => path.join(home, 'models', 'bad'),
      `MODEL_CORRUPT: ${OUTSIDE}: the file is not valid JSON. Replace it with a valid copy, or pass --model with a valid model2vec model directory.`],
    ['a model folder that does not exist', () => path.join(home, 'models', 'gone'),
      `MODEL_NOT_FOUND: Model directory ${OUTSIDE} does not exist. Pass --model with a directory holding config.json, tokenizer.json and model.safetensors, or a Hugging Face id like minishlab/potion-base-8M.`],
    ['a sibling of the home, named with parentheses', () => `${home} (copy)`,
      `MODEL_NOT_FOUND: Model directory ${OUTSIDE} does not exist. Pass --model with a directory holding config.json, tokenizer.json and model.safetensors, or a Hugging Face id like minishlab/potion-base-8M.`],
  ];
  it.each(models)('%s: the search error says what failed, nothing of where', async (_, model, want) => {
    const r = await callOnce({ SIMGREP_MODEL: model() }, 'search', { query: 'retry the upload', directory: 'ok' });
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toBe(want);
    for (const piece of ['John', 'Smith', "'s home", base]) expect(JSON.stringify(r)).not.toContain(piece);
  }, 60_000);
});
