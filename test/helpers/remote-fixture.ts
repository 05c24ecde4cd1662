// What the remote-source tests share: a tiny topic model, an empty HOME (so no real ~/.aws is read),
// credential env for s3rver, and a deterministic S3 corpus: >1,000 objects under one prefix (two
// listing pages), strong matches just outside it, a binary object, non-UTF-8 bytes, a hidden object.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeTinyModel } from './tiny-model.js';
import { S3RVER_KEYS } from './s3-server.js';

export const BUCKET = 'corpus';
export const NEEDLE_KEY = 'logs/2026/day-07/part-0351.log';
export const NEEDLE_LINE = 'we retry the failed upload after a network timeout';
/** Text objects under logs/2026/ a default walk searches (the 1,500 parts and latin1.txt). */
export const PREFIX_TEXT_OBJECTS = 1501;

/** The objects of the S3 corpus, by key. */
export function s3Corpus(mirror: Record<string, string>): Record<string, string | Buffer> {
  const objects: Record<string, string | Buffer> = {};
  for (let d = 0; d < 30; d++) {
    for (let f = 0; f < 50; f++) {
      const n = d * 50 + f;
      objects[`logs/2026/day-${String(d).padStart(2, '0')}/part-${String(n).padStart(4, '0')}.log`] = `entry ${n} lorem ipsum dolor\nstatus ok sit amet\n`;
    }
  }
  objects[NEEDLE_KEY] = `entry lorem ipsum\n${NEEDLE_LINE}\nstatus ok\n`;
  objects['logs/2026/misc/latin1.txt'] = Buffer.from('caf\xe9 lorem\nparse the json config file\n', 'latin1');
  objects['logs/2026/misc/blob.bin'] = Buffer.concat([Buffer.from('database query table sql\n'), Buffer.from([0, 1, 2, 0])]);
  objects['logs/2026/misc/.hidden.md'] = 'render the button color page\n';
  // Outside the prefix, and better matches than anything inside it: listing them would show.
  for (let i = 0; i < 300; i++) objects[`logs/2025/old-${i}.log`] = 'retry failed upload network timeout\n';
  objects['logs/2026.txt'] = 'retry failed upload network timeout\n';
  for (const [rel, text] of Object.entries(mirror)) objects[`mirror/${rel}`] = text;
  return objects;
}

/** A small tree searched from disk and from S3/Azure/HTTP alike. */
export const MIRROR: Record<string, string> = {
  'src/net.ts': 'function send() {\n  // retry failed upload\n  return network timeout;\n}\n',
  'src/parse.py': 'def load():\n    # parse json config file\n    return yaml\n',
  'db/schema.sql': 'create table users;\n-- database index query\n',
  'ui/page.md': '# Page\n\nrender the button with a color\nclick to retry\n',
};

export interface RemoteFixture {
  home: string;
  model: string;
  /** Env for s3rver: its keys, a HOME without ~/.aws, nothing inherited that would change the outcome. */
  s3Env(endpoint: string): Record<string, string>;
  cleanup(): Promise<void>;
}

export async function remoteFixture(): Promise<RemoteFixture> {
  const home = await mkdtemp(path.join(tmpdir(), 'simgrep-home-'));
  const model = await writeTinyModel(path.join(home, 'model'));
  return {
    home,
    model,
    s3Env: (endpoint) => ({
      HOME: home, AWS_PROFILE: '', AWS_DEFAULT_PROFILE: '', AWS_REGION: 'us-east-1', AWS_SESSION_TOKEN: '',
      AWS_ACCESS_KEY_ID: S3RVER_KEYS.accessKeyId, AWS_SECRET_ACCESS_KEY: S3RVER_KEYS.secretAccessKey,
      AWS_ENDPOINT_URL: endpoint, AWS_ENDPOINT_URL_S3: '', AWS_SHARED_CREDENTIALS_FILE: '', AWS_CONFIG_FILE: '',
      SIMGREP_REMOTE_TIMEOUT_MS: '5000', SIMGREP_REMOTE_RETRIES: '2',
    }),
    cleanup: () => rm(home, { recursive: true, force: true }),
  };
}
