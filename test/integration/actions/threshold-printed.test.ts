// The search actions' max_distance keeps what they reported: top_k's answer with the results at or past
// it left out (score45). Before, in the ranked modes it was applied to each chunk before the top K's file
// spreading moved its distance, so a result reported at d did not come back from max_distance just past d.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Action } from '../../../src/index.js';
import { createActionFixture, type ActionFixture } from '../../helpers/action-fixture.js';

let fx: ActionFixture;
let actions: Record<string, Action>;
let dir = '';

const pad = (n: number, tag: string): string => Array.from({ length: n }, (_, i) => `const ${tag}_${i} = ${i} * width;`).join('\n');
const fn = (name: string, body: string): string => `export async function ${name}(part) {\n  ${body}\n}`;

beforeAll(() => {
  // upload.ts holds three matching chunks: its best raised by file coherence, its others lowered.
  fx = createActionFixture('project', {
    'upload.ts': [
      fn('retryFailedUpload', 'for (let attempt = 0; attempt < 3; attempt++) await sendUpload(part); // retry the failed upload'), pad(50, 'a'),
      fn('uploadPart', 'return sendUpload(part); // upload one part, retried on failure'), pad(50, 'b'),
      fn('failedUploads', 'return parts.filter((p) => p.failed); // the failed uploads to retry'), pad(10, 'c'),
    ].join('\n') + '\n',
    'retry.py': 'def retry_failed_upload(part):\n    """Retry a failed upload with backoff."""\n    return send(part)\n',
    'backoff.ts': fn('backoff', 'return 2 ** attempt * 100; // delay before the next attempt after a failure') + '\n',
    'send.go': 'func sendUpload(p Part) error {\n\t// send one part of an upload\n\treturn client.Put(p)\n}\n',
  });
  ({ actions, dir } = fx);
});
afterAll(() => fx.close());

type Result = { filename: string; match_line: number; distance: number };
const shown = (r: Record<string, unknown>): Array<[string, number, number]> =>
  (r.results as Result[]).map((x) => [path.basename(x.filename), x.match_line, x.distance]);

describe('search.semantic: max_distance just past a reported distance keeps that result and every one above it', () => {
  for (const mode of ['hybrid', 'lexical']) {
    it(`mode ${mode}, top_k 4`, async () => {
      const args = { query: 'retry failed upload', paths: [dir], mode, top_k: 4, n_lines: 0 };
      const all = shown(await actions['search.semantic']({}, args));
      expect(all.length).toBeGreaterThanOrEqual(3);
      for (const [, , d] of all) {
        const kept = shown(await actions['search.semantic']({}, { ...args, max_distance: d + 1e-6 }));
        expect(kept, `max_distance ${d + 1e-6}`).toEqual(all.filter((s) => s[2] <= d));
      }
    });
  }
});
