// semble's file-level metrics over a ranked file list: NDCG@10 (binary gain, ideal over
// min(10, #targets)), Recall@10 and MRR@10, plus the two ways a ranked output becomes a file list.

export const K = 10;

/** The dev set's matching rule: equal, or one ends with "/" + the other. */
export function pathMatches(a: string, b: string): boolean {
  const x = a.replace(/\\/g, '/');
  const y = b.replace(/\\/g, '/');
  return x === y || x.endsWith(`/${y}`) || y.endsWith(`/${x}`);
}

/** 1-based rank of each target's first match within the top k, or null when absent. */
export function targetRanks(files: string[], targets: string[], k = K): (number | null)[] {
  const top = files.slice(0, k);
  return targets.map((t) => {
    const i = top.findIndex((f) => pathMatches(f, t));
    return i < 0 ? null : i + 1;
  });
}

const dcg = (rels: number[]): number => rels.reduce((s, r, i) => s + r / Math.log2(i + 2), 0);

/** NDCG@k: a slot holding any target has gain 1 (once); ideal DCG over min(k, #targets) ones. */
export function ndcgAt(files: string[], targets: string[], k = K): number {
  if (targets.length === 0) return 0;
  const rels = new Array<number>(k).fill(0);
  for (const r of targetRanks(files, targets, k)) if (r !== null) rels[r - 1] = 1;
  return dcg(rels) / dcg(new Array<number>(Math.min(k, targets.length)).fill(1));
}

/** Fraction of targets found in the top k. */
export function recallAt(files: string[], targets: string[], k = K): number {
  if (targets.length === 0) return 0;
  return targetRanks(files, targets, k).filter((r) => r !== null).length / targets.length;
}

/** 1 / rank of the first target in the top k; 0 when none is there. */
export function mrrAt(files: string[], targets: string[], k = K): number {
  const found = targetRanks(files, targets, k).filter((r): r is number => r !== null);
  return found.length ? 1 / Math.min(...found) : 0;
}

export interface Scores { ndcg: number; recall: number; mrr: number }

export function score(files: string[], targets: string[], k = K): Scores {
  return { ndcg: ndcgAt(files, targets, k), recall: recallAt(files, targets, k), mrr: mrrAt(files, targets, k) };
}

/** "hit" protocol: one slot per returned hit, in order (two hits of one file take two slots). */
export function hitList(hitFiles: string[], k = K): string[] {
  return hitFiles.slice(0, k);
}

/** "file" protocol: distinct files in order of their best (first) hit. */
export function fileList(hitFiles: string[], k = K): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const f of hitFiles) {
    if (seen.has(f)) continue;
    seen.add(f);
    out.push(f);
    if (out.length === k) break;
  }
  return out;
}

export const mean = (xs: number[]): number => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);
