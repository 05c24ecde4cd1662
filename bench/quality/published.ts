// semble's published NDCG@10 ("hit" protocol, its own runs on the upstream revisions) for each dev
// set: semble-dev's README gives means only; semble-dev2's published.json gives every repo.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { mean } from './metrics.js';
import { devSetDir, type DevSetId } from './dataset.js';

export interface PublishedMethod { id: string; label: string }

export interface Published {
  methods: PublishedMethod[];
  /** Means over every repo of the set, as published. */
  means: Record<string, number>;
  /** Per repo and method, where published. */
  byRepo: Record<string, Record<string, number>> | null;
}

/** ../shared/eval/semble-dev/README.md: means over its 13 repos. */
const DEV1: Published = {
  methods: [
    { id: 'semble', label: 'semble (potion-code-16M + BM25)' }, { id: 'CRE-hybrid', label: 'CodeRankEmbed hybrid' },
    { id: 'CodeRankEmbed', label: 'CodeRankEmbed' }, { id: 'ColGREP', label: 'ColGREP' },
    { id: 'potion-raw', label: 'potion-code-16M alone' }, { id: 'BM25-raw', label: 'BM25 alone' },
    { id: 'grepai', label: 'grepai' }, { id: 'ripgrep', label: 'ripgrep' },
  ],
  means: { semble: 0.869, 'CRE-hybrid': 0.869, CodeRankEmbed: 0.795, ColGREP: 0.733, 'potion-raw': 0.69, 'BM25-raw': 0.669, grepai: 0.614, ripgrep: 0.189 },
  byRepo: null,
};

const DEV2_METHODS: PublishedMethod[] = [
  { id: 'semble', label: 'semble (potion-code-16M + BM25)' }, { id: 'CRE-hybrid', label: 'CodeRankEmbed hybrid' },
  { id: 'CodeRankEmbed', label: 'CodeRankEmbed' }, { id: 'potion-raw', label: 'potion-code-16M alone' },
  { id: 'BM25-raw', label: 'BM25 alone' }, { id: 'ripgrep', label: 'ripgrep' },
];

export function loadPublished(id: DevSetId): Published {
  if (id === 'semble-dev') return DEV1;
  const file = path.join(devSetDir(id), 'published.json');
  if (!existsSync(file)) return { methods: DEV2_METHODS, means: {}, byRepo: null };
  const byRepo = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, number>>;
  return { methods: DEV2_METHODS, means: meansOver(byRepo, Object.keys(byRepo), DEV2_METHODS), byRepo };
}

/** Each method's mean over the given repos (those it has a figure for). */
export function meansOver(byRepo: Record<string, Record<string, number>>, repos: string[], methods: PublishedMethod[]): Record<string, number> {
  return Object.fromEntries(methods.map((m) => [m.id, mean(repos.map((r) => byRepo[r]?.[m.id]).filter((x): x is number => x !== undefined))]));
}

/** The published method each of ours is closest to in kind. */
export const COUNTERPART: Record<string, string> = {
  'simgrep-hybrid': 'semble',
  'simgrep-semantic': 'potion-raw',
  'simgrep-lexical': 'BM25-raw',
  'simgrep-line': 'potion-raw',
  bm25: 'BM25-raw',
};
