// The baseline to beat: plain BM25 over ICU words (Intl.Segmenter, word granularity), NFKC and case
// folded, k1 = 1.2, b = 0.75, document frequencies over the file's own lines. Kept standalone on
// purpose: it is the fixed yardstick, not simgrep's tokenizer.
const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

export function icuWords(text: string): string[] {
  const out: string[] = [];
  for (const s of segmenter.segment(text.normalize('NFKC').toLowerCase())) if (s.isWordLike) out.push(s.segment);
  return out;
}

/** Ranks lines for a query: line indices, best first, up to `k` (lines without a query word left out). */
export function createBm25(lines: string[], k1 = 1.2, b = 0.75): (query: string, k: number) => number[] {
  const docs = lines.map(icuWords);
  const df = new Map<string, number>();
  for (const d of docs) for (const w of new Set(d)) df.set(w, (df.get(w) ?? 0) + 1);
  const avgdl = docs.reduce((s, d) => s + d.length, 0) / Math.max(1, docs.length);
  const n = docs.length;
  return (query, k) => {
    const terms = [...new Set(icuWords(query))];
    const scored: [number, number][] = [];
    docs.forEach((d, i) => {
      let score = 0;
      for (const t of terms) {
        let f = 0;
        for (const w of d) if (w === t) f++;
        if (f === 0) continue;
        const dfT = df.get(t) ?? 0;
        score += Math.log(1 + (n - dfT + 0.5) / (dfT + 0.5)) * (f * (k1 + 1)) / (f + k1 * (1 - b + (b * d.length) / avgdl));
      }
      if (score > 0) scored.push([score, i]);
    });
    scored.sort((x, y) => y[0] - x[0] || x[1] - y[1]);
    return scored.slice(0, k).map(([, i]) => i);
  };
}
