// Compiles a tokenizer.json normalizer into one string function that gives the library's output:
// native string ops where they are provably the same (BertNormalizer, literal Replace, Strip, NFx,
// Lowercase), the library's own step object otherwise (regex Replace, Precompiled, ...).
import { bertNormalize } from './bert-text.js';
import { corrupt, isObject, readBertNormalizer } from './config.js';
import { hfTokenizers } from './hf-library.js';

export type NormalizeFn = (text: string) => string;
type Json = Record<string, unknown>;
// Exported at runtime, but the package's .d.ts re-exports do not resolve under NodeNext.
type SequenceNormalizerClass = new (config: unknown) => { normalize(text: string): string; normalizers?: { pattern?: unknown }[] };
const sequenceNormalizer = () => (hfTokenizers() as unknown as { SequenceNormalizer: SequenceNormalizerClass }).SequenceNormalizer;

function flatten(node: unknown, out: Json[]): void {
  if (node === null || node === undefined) return;
  if (!isObject(node)) throw corrupt('tokenizer.json has a normalizer that is not an object');
  if (node.type === 'Sequence') {
    if (!Array.isArray(node.normalizers)) throw corrupt('tokenizer.json Sequence normalizer has no "normalizers" list');
    for (const n of node.normalizers) flatten(n, out);
  } else {
    out.push(node);
  }
}

/** A literal one-code-unit Replace whose content has no `$` pattern: safe to run as a char map. */
function charReplace(step: Json): [string, string] | null {
  if (step.type !== 'Replace' || !isObject(step.pattern)) return null;
  const s = step.pattern.String;
  const content = step.content ?? '';
  if (typeof s !== 'string' || s.length !== 1 || typeof content !== 'string' || content.includes('$')) return null;
  const c = s.charCodeAt(0);
  if (c >= 0xd800 && c <= 0xdfff) return null;
  return [s, content];
}

/**
 * Consecutive one-char Replaces run in one pass when no content holds a later step's char (then the
 * sequential and the simultaneous replacement agree).
 */
function fuseCharReplaces(pairs: [string, string][]): NormalizeFn {
  const map = new Map<number, string>(pairs.map(([s, c]) => [s.charCodeAt(0), c]));
  const max = Math.max(...map.keys());
  const table: (string | undefined)[] = new Array(max + 1);
  for (const [c, content] of map) table[c] = content;
  return (text) => {
    let out = '';
    let last = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c > max) continue;
      const content = table[c];
      if (content === undefined) continue;
      out += text.slice(last, i) + content;
      last = i + 1;
    }
    return last === 0 ? text : out + text.slice(last);
  };
}

function nativeStep(step: Json): NormalizeFn | null {
  switch (step.type) {
    case 'BertNormalizer': {
      const spec = readBertNormalizer(step);
      return spec ? (t) => bertNormalize(t, spec) : null;
    }
    case 'Lowercase': return (t) => t.toLowerCase();
    case 'NFC': case 'NFD': case 'NFKC': case 'NFKD': {
      const form = step.type;
      return (t) => t.normalize(form);
    }
    case 'Strip': {
      const left = Boolean(step.strip_left);
      const right = Boolean(step.strip_right);
      if (left && right) return (t) => t.trim();
      if (left) return (t) => t.trimStart();
      if (right) return (t) => t.trimEnd();
      return (t) => t;
    }
    default: return null;
  }
}

/** Regex sources (as the library compiles them) of runs of one char class, and their minimum run. */
const RUN_PATTERNS = new Map<string, number>([
  ['\\p{White_Space}+', 1], ['[\\p{White_Space}]+', 1], ['\\p{White_Space}{2,}', 2], [' +', 1], [' {2,}', 2],
]);

/**
 * Replace of a run of one BMP char class (e.g. `\s+` -> ' '), as a char loop: the class is read off
 * the library's own compiled regex for every BMP char (White_Space has no astral members).
 */
function runReplace(re: RegExp, content: string): NormalizeFn | null {
  const minRun = RUN_PATTERNS.get(re.source);
  if (minRun === undefined || content.includes('$')) return null;
  const single = new RegExp(re.source.replace(/(\+|\{2,\})$/, ''), 'u');
  const inClass = new Uint8Array(0x10000);
  for (let c = 0; c < 0x10000; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    inClass[c] = single.test(String.fromCharCode(c)) ? 1 : 0;
  }
  return (text) => {
    let out = '';
    let last = 0;
    for (let i = 0; i < text.length; i++) {
      if (inClass[text.charCodeAt(i)] === 0) continue;
      let j = i + 1;
      while (j < text.length && inClass[text.charCodeAt(j)] === 1) j++;
      if (j - i >= minRun && !(j - i === 1 && content === text[i])) { out += text.slice(last, i) + content; last = j; }
      i = j - 1;
    }
    return last === 0 ? text : out + text.slice(last);
  };
}

function libraryStep(step: Json): NormalizeFn {
  let n: { normalize(text: string): string; normalizers?: { pattern?: unknown }[] };
  try {
    n = new (sequenceNormalizer())({ type: 'Sequence', normalizers: [step] });
  } catch (e) {
    throw corrupt(`tokenizer.json uses an unsupported normalizer ${JSON.stringify(step.type)}`, e);
  }
  const pattern = n.normalizers?.[0]?.pattern;
  if (step.type === 'Replace' && pattern instanceof RegExp && typeof step.content === 'string') {
    const fast = runReplace(pattern, step.content);
    if (fast) return fast;
  }
  return (t) => n.normalize(t);
}

/** The normalizer as one function, or null when the tokenizer has none (the library then skips it). */
export function compileNormalizer(node: unknown): NormalizeFn | null {
  if (node === null || node === undefined) return null;
  const steps: Json[] = [];
  flatten(node, steps);
  const fns: NormalizeFn[] = [];
  for (let i = 0; i < steps.length; i++) {
    const run: [string, string][] = [];
    while (i < steps.length) {
      const pair = charReplace(steps[i]);
      if (!pair || run.some(([, content]) => content.includes(pair[0])) || run.some(([s]) => s === pair[0])) break;
      run.push(pair);
      i++;
    }
    if (run.length > 0) { fns.push(fuseCharReplaces(run)); i--; continue; }
    fns.push(nativeStep(steps[i]) ?? libraryStep(steps[i]));
  }
  if (fns.length === 0) return (t) => t;
  if (fns.length === 1) return fns[0];
  return (t) => {
    for (let i = 0; i < fns.length; i++) t = fns[i](t);
    return t;
  };
}
