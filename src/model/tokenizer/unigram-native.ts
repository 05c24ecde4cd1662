// Native Unigram tokenizer (any normalizer + Metaspace or no pre-tokenizer), id-identical to the
// library: same added-token sections, a compiled normalizer, a word-memoized exact Viterbi
// (unigram-lattice.ts), the library's fuse_unk rule, and a bounded whole-line memo on top.
import { createAddedTokenSplitter } from './added-tokens.js';
import type { UnigramSpec } from './config.js';
import { reserveIds, type IdBuffer } from './id-buffer.js';
import { lineTokenizerFrom, type LineTokenizer } from './line-tokenizer.js';
import { createLineMemo, type MemoSizes } from './line-memo.js';
import { compileNormalizer } from './normalizer-pipeline.js';
import { UnigramLattice } from './unigram-lattice.js';
import { PieceTrie } from './piece-trie.js';

export function createUnigramTokenizer(spec: UnigramSpec, sizes: MemoSizes): LineTokenizer {
  const { pieces, unkId, metaspace } = spec;
  // The library's tokens_to_ids: last duplicate wins, then added tokens override.
  const ids = new Map<string, number>();
  for (let i = 0; i < pieces.length; i++) ids.set(pieces[i][0], i);
  for (const t of spec.added) ids.set(t.content, t.id);

  const scores = new Float64Array(pieces.length);
  let minScore = Infinity;
  for (let i = 0; i < pieces.length; i++) { scores[i] = pieces[i][1]; if (pieces[i][1] < minScore) minScore = pieces[i][1]; }
  const unkScore = minScore - 10;
  scores[unkId] = unkScore;

  let totalChars = 0;
  for (const [p] of pieces) totalChars += p.length;
  // The library builds its trie from the model's own pieces (added tokens are not in it).
  const trie = new PieceTrie((totalChars >> 1) + 1);
  // An added token can take over a piece's id; past the score table the library scores it NaN.
  let finiteScores = true;
  for (const [p] of pieces) {
    const id = ids.get(p) as number;
    trie.insert(p, id);
    if (!Number.isFinite(scores[id])) finiteScores = false;
  }

  // Output id of a lone code point (unk nodes), cached for the BMP: -2 = not looked up yet.
  const bmpCharId = new Int32Array(0x10000).fill(-2);
  const charId = (cp: number): number => {
    if (cp >= 0x10000) return ids.get(String.fromCodePoint(cp)) ?? unkId;
    let id = bmpCharId[cp];
    if (id === -2) id = bmpCharId[cp] = ids.get(String.fromCharCode(cp)) ?? unkId;
    return id;
  };
  // Words start at the replacement char; if no piece holds it past index 0, no node crosses a word.
  // Chaining words also needs finite scores (a NaN makes the library keep its first candidate).
  const rep = metaspace?.replacement ?? '';
  const segmentCp = finiteScores && [...rep].length === 1 && metaspace?.strRep === rep && pieces.every(([p]) => p.indexOf(rep, 1) < 0)
    ? (rep.codePointAt(0) as number)
    : -1;
  let maxAbsScore = Math.abs(unkScore);
  for (let i = 0; i < scores.length; i++) maxAbsScore = Math.max(maxAbsScore, Math.abs(scores[i]));
  const lattice = new UnigramLattice({ trie, scores, unkScore, charId, segmentCp, maxAbsScore }, Math.max(1, sizes.words >> 2));
  const normalize = compileNormalizer(spec.normalizer);
  const added = createAddedTokenSplitter(spec.added);
  const memo = createLineMemo({ maxLines: sizes.lines });

  function preTokenize(normalized: string, sectionIndex: number): string {
    if (!metaspace) return normalized;
    let s = normalized.replaceAll(' ', metaspace.strRep);
    const prepend = metaspace.prependScheme === 'always' || (metaspace.prependScheme === 'first' && sectionIndex === 0);
    if (prepend && !s.startsWith(metaspace.replacement)) s = metaspace.strRep + s;
    return s;
  }

  /** Appends the ids of one pre-token, fusing runs of unknown pieces as the library does. */
  function model(token: string, buf: IdBuffer): void {
    lattice.run(token);
    const { pathId, pathLength: m } = lattice;
    reserveIds(buf, m);
    const out = buf.ids;
    let at = buf.length;
    for (let i = 0; i < m; ) {
      const id = pathId[i];
      if (id !== unkId || i + 1 >= m || pathId[i + 1] !== unkId) { out[at++] = id; i++; continue; }
      let fused = piece(i++);
      while (i < m && pathId[i] === unkId) {
        if (ids.get(fused) !== unkId) fused += piece(i);
        i++;
      }
      out[at++] = ids.get(fused) ?? unkId;
    }
    buf.length = at;
  }

  /** Text of the k-th node on the best path. */
  function piece(k: number): string {
    const from = lattice.pathStart[k];
    return String.fromCodePoint(...lattice.codePoints().subarray(from, from + lattice.pathLen[k]));
  }

  function encodeSection(section: string, index: number, buf: IdBuffer): void {
    const normalized = normalize ? normalize(section) : section;
    if (normalized.length === 0) return;
    const whole = added.ids.get(normalized);
    if (whole !== undefined) { reserveIds(buf, 1); buf.ids[buf.length++] = whole; return; }
    model(preTokenize(normalized, index), buf);
  }

  function encodeUncached(text: string, buf: IdBuffer): void {
    const sections = added.split(text);
    if (sections === null) { if (text.length > 0) encodeSection(text, 0, buf); return; }
    for (let k = 0; k < sections.length; k++) {
      const s = sections[k];
      if (s.length === 0) continue;
      const id = added.ids.get(s);
      if (id !== undefined) { reserveIds(buf, 1); buf.ids[buf.length++] = id; }
      else encodeSection(s, k, buf);
    }
  }

  function encodeInto(text: string, buf: IdBuffer): number {
    return memo.encodeInto(text, buf, encodeUncached);
  }

  return lineTokenizerFrom({ kind: 'unigram-native', vocabSize: spec.vocabSize, unkId, encodeInto });
}
