// Glob matching without backtracking: a hostile pattern (`a*a*a*a*b`) against a long name must not hang
// a walk, and regular expressions (the `ignore` package's, picomatch's) take time exponential in the
// stars. Per segment, the greedy wildcard algorithm (time: name length x pattern length); `**` across
// segments by dynamic programming over segments; braces expanded up front, their alternatives bounded.
import { SimgrepError } from '../errors.js';

/** One character of a pattern: a literal, `?`, or a class `[...]` / `[!...]` / `[^...]`. */
type Token = { kind: 'char'; c: string } | { kind: 'any' } | { kind: 'class'; negated: boolean; set: string; ranges: string[] };
/** A segment: chunks of single-character tokens between its stars (star: whether stars stand between them). */
export interface Segment { chunks: Token[][]; star: boolean; dotLiteral: boolean; never: boolean }
/** `**`: any number of whole segments (min: at least that many). */
export interface Globstar { globstar: true; min: 0 | 1 }
export type PathPart = Segment | Globstar;

export interface SegmentSyntax {
  /** An unclosed `[`: a literal `[` (picomatch) or a pattern that matches nothing (git's wildmatch). */
  unclosedClass: 'literal' | 'never';
  /** Case-insensitive (the `ignore` package's default, which .gitignore matching has always used). */
  fold: boolean;
}

/** The most alternatives braces may expand to; more is refused (a few braces would multiply to millions). */
export const MAX_BRACE_ALTERNATIVES = 1024;
/** The deepest braces may nest (`{a,{b,{c,d}}}` is 3): deeper is refused, so no long glob can recurse without bound. */
export const MAX_BRACE_DEPTH = 32;

const foldChar = (c: string): string => { const l = c.toLowerCase(); return l.length === 1 ? l : c; };
/** Lower case, one UTF-16 unit for one (as a regular expression's `i` flag compares). */
export function foldCase(s: string): string {
  if (/^[\x00-\x7f]*$/.test(s)) return s.toLowerCase();
  let out = '';
  for (const c of s) out += c.length === 1 ? foldChar(c) : c;
  return out;
}

/** Parses one segment (no `/` in it) into its tokens; `\x` is the literal x. */
export function parseSegment(text: string, syntax: SegmentSyntax): Segment {
  const chunks: Token[][] = [[]];
  let star = false;
  const lit = (c: string): Token => ({ kind: 'char', c: syntax.fold ? foldChar(c) : c });
  // Once a [ finds no ], no later one does: they are literal without another scan (a line of [s stays linear).
  let unclosed = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    // Stars in a row are one star: a new chunk only after a non-empty one (or the first, maybe empty).
    if (c === '*') { star = true; if (chunks[chunks.length - 1].length > 0 || chunks.length === 1) chunks.push([]); continue; }
    const chunk = chunks[chunks.length - 1];
    if (c === '\\' && i + 1 < text.length) { chunk.push(lit(text[++i])); continue; }
    if (c === '?') { chunk.push({ kind: 'any' }); continue; }
    if (c === '[') {
      const cls = unclosed ? null : parseClass(text, i);
      if (cls) { chunk.push(cls.token); i = cls.end; continue; }
      unclosed = true;
      if (syntax.unclosedClass === 'never') return { chunks: [[]], star: false, dotLiteral: false, never: true };
    }
    chunk.push(lit(c));
  }
  const first = chunks[0][0];
  // A name starting with a dot is matched (dot: false) only by a literal dot, as in bash: not by a class,
  // negated or not (picomatch lets [^a]* and [.]* match .env, so a glob root [!a]* searched .env without --hidden).
  const dotLiteral = first?.kind === 'char' && first.c === '.';
  return { chunks, star, dotLiteral, never: false };
}

/** `[...]` starting at `open`: its token and the index of its `]`, or null when it is not closed. */
function parseClass(text: string, open: number): { token: Token; end: number } | null {
  let i = open + 1;
  const negated = text[i] === '!' || text[i] === '^';
  if (negated) i++;
  let set = '';
  const ranges: string[] = [];
  for (let first = true; i < text.length; first = false) {
    let c = text[i];
    if (c === ']' && !first) return { token: { kind: 'class', negated, set, ranges }, end: i };
    if (c === '\\' && i + 1 < text.length) c = text[++i];
    if (text[i + 1] === '-' && i + 2 < text.length && text[i + 2] !== ']') {
      let to = text[i + 2];
      i += 2;
      if (to === '\\' && i + 1 < text.length) to = text[++i];
      ranges.push(c + to);
    } else {
      set += c;
    }
    i++;
  }
  return null;
}

function inClass(t: Token & { kind: 'class' }, c: string): boolean {
  if (t.set.includes(c)) return true;
  for (const r of t.ranges) if (c >= r[0] && c <= r[1]) return true;
  return false;
}

function tokenMatches(t: Token, c: string, fold: boolean): boolean {
  if (t.kind === 'char') return t.c === c;
  if (t.kind === 'any') return true;
  // The name is folded to lower case: a class of capitals holds its upper case.
  const hit = inClass(t, c) || (fold && c.toUpperCase() !== c && c.toUpperCase().length === 1 && inClass(t, c.toUpperCase()));
  return hit !== t.negated;
}

function chunkAt(chunk: Token[], s: string, at: number, fold: boolean): boolean {
  for (let k = 0; k < chunk.length; k++) if (!tokenMatches(chunk[k], s[at + k], fold)) return false;
  return true;
}

/** Whether a segment matches the whole name: first chunk at the start, last at the end, each middle one at its leftmost place. */
export function matchSegment(seg: Segment, name: string, o: { dot: boolean; fold: boolean }): boolean {
  if (seg.never) return false;
  if (!o.dot && name[0] === '.' && !seg.dotLiteral) return false;
  const { chunks } = seg;
  const n = name.length;
  if (!seg.star) return chunks[0].length === n && chunkAt(chunks[0], name, 0, o.fold);
  const head = chunks[0];
  const tail = chunks[chunks.length - 1];
  if (head.length + tail.length > n) return false;
  if (!chunkAt(head, name, 0, o.fold) || !chunkAt(tail, name, n - tail.length, o.fold)) return false;
  let at = head.length;
  const end = n - tail.length;
  for (let m = 1; m < chunks.length - 1; m++) {
    const chunk = chunks[m];
    let found = -1;
    for (let p = at; p + chunk.length <= end; p++) if (chunkAt(chunk, name, p, o.fold)) { found = p; break; }
    if (found < 0) return false;
    at = found + chunk.length;
  }
  return true;
}

const isGlobstar = (p: PathPart): p is Globstar => 'globstar' in p;

/**
 * Whether the parts match these names exactly: the segments before the first `**` against the first
 * names, those after the last against the last names, and between, a dynamic programme over segments
 * (parts x names) where there is more than one `**`.
 */
export function matchParts(parts: readonly PathPart[], names: readonly string[], o: { dot: boolean; fold: boolean }): boolean {
  let lo = 0;
  let hi = parts.length;
  let first = 0;
  let last = names.length;
  for (; lo < hi && !isGlobstar(parts[lo]); lo++, first++) if (first >= last || !matchSegment(parts[lo] as Segment, names[first], o)) return false;
  if (lo === hi) return first === last;
  for (; !isGlobstar(parts[hi - 1]); hi--, last--) if (last <= first || !matchSegment(parts[hi - 1] as Segment, names[last - 1], o)) return false;
  if (hi - lo === 1) return last - first >= (parts[lo] as Globstar).min && crossable(names, first, last, o.dot);
  let reach = new Uint8Array(last - first + 1);
  reach[0] = 1;
  for (let k = lo; k < hi; k++) {
    const part = parts[k];
    const next = new Uint8Array(reach.length);
    if (isGlobstar(part)) {
      // next[j]: some reached i <= j (i < j when min is 1) whose names i..j-1 a globstar crosses (no
      // dot name unless dot). open: the latest reached i < j with such a run to j.
      let open = -1;
      for (let j = 0; j < reach.length; j++) {
        if ((part.min === 0 && reach[j]) || open >= 0) next[j] = 1;
        if (reach[j]) open = j;
        if (j < last - first && !o.dot && names[first + j][0] === '.') open = -1;
      }
    } else {
      for (let j = 0; j < last - first; j++) if (reach[j] && matchSegment(part, names[first + j], o)) next[j + 1] = 1;
    }
    reach = next;
  }
  return reach[last - first] === 1;
}

/** Whether a `**` crosses names[from..to): no name starting with a dot, unless dot. */
function crossable(names: readonly string[], from: number, to: number, dot: boolean): boolean {
  if (dot) return true;
  for (let k = from; k < to; k++) if (names[k][0] === '.') return false;
  return true;
}

/** Splits a pattern at its `/`s (not those escaped or in a class). */
export function splitSegments(pattern: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\' && i + 1 < pattern.length) { cur += c + pattern[++i]; continue; }
    if (c === '/') { out.push(cur); cur = ''; continue; }
    cur += c;
  }
  out.push(cur);
  return out;
}

/**
 * `{a,b}` expanded (nested too) into its alternatives; `\{`, `\,`, a brace in a class and a brace
 * without a comma are literal. Throws when there would be more than MAX_BRACE_ALTERNATIVES, or braces
 * nest deeper than MAX_BRACE_DEPTH: both counted in one pass before anything is expanded, so a long
 * hostile glob (`{a,{a,{a,...}}}`) is refused at once instead of expanded (quadratic) and recursed (a stack overflow).
 */
export function expandBraces(pattern: string): string[] {
  const why = braceProblem(pattern);
  if (why) throw new SimgrepError('BAD_FLAG', `glob ${showGlob(pattern)} ${why}`);
  return expand(pattern);
}

/** Why braces in this pattern are refused (too many alternatives, nested too deep), saying how to fix it; null when they are not. */
export function braceProblem(pattern: string): string | null {
  const { count, depth } = countBraces(pattern);
  if (depth > MAX_BRACE_DEPTH) return `nests braces more than ${MAX_BRACE_DEPTH} deep; use fewer nested {a,b}, or escape a brace as \\{`;
  if (count > MAX_BRACE_ALTERNATIVES) return TOO_MANY;
  return null;
}

const TOO_MANY = `has more than ${MAX_BRACE_ALTERNATIVES} alternatives in its braces; use fewer braces or escape them as \\{`;
const tooMany = (pattern: string) => new SimgrepError('BAD_FLAG', `glob ${showGlob(pattern)} ${TOO_MANY}`);
/** A long glob shown in a message: its start and length, not 60 KB of it. */
export const showGlob = (p: string): string => (p.length > 200 ? `${JSON.stringify(p.slice(0, 200))}... (${p.length} characters)` : JSON.stringify(p));

/** The expansion, once countBraces has bounded it (its recursion: at most MAX_BRACE_DEPTH x log2 MAX_BRACE_ALTERNATIVES deep). */
function expand(pattern: string): string[] {
  const open = findBrace(pattern);
  if (!open) return [pattern];
  const [start, end, commas] = open;
  const head = pattern.slice(0, start);
  const tails = expand(pattern.slice(end + 1));
  const out: string[] = [];
  let from = start + 1;
  for (const cut of [...commas, end]) {
    for (const alt of expand(pattern.slice(from, cut))) {
      for (const tail of tails) {
        out.push(head + alt + tail);
        if (out.length > MAX_BRACE_ALTERNATIVES) throw tooMany(pattern);
      }
    }
    from = cut + 1;
  }
  return out;
}

/**
 * How many alternatives the braces expand to (capped just above MAX_BRACE_ALTERNATIVES) and how deep
 * braces with a comma nest, in one pass that scans as findBrace does: a group's count is the sum of its
 * alternatives' (each the product of the groups in it); a brace without a comma, or without its `}`, passes its groups' product on.
 */
function countBraces(p: string): { count: number; depth: number } {
  const cap = MAX_BRACE_ALTERNATIVES + 1;
  const mul = (a: number, b: number) => Math.min(cap, a * b);
  interface Frame { sum: number; cur: number; all: number; commas: boolean; depth: number }
  const frame = (): Frame => ({ sum: 0, cur: 1, all: 1, commas: false, depth: 0 });
  const stack: Frame[] = [frame()];
  let noClassClose = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') { i++; continue; }
    if (c === '[' && !noClassClose) { const end = classEnd(p, i); if (end > 0) { i = end; continue; } noClassClose = true; }
    const top = stack[stack.length - 1];
    if (c === '{') stack.push(frame());
    else if (c === ',' && stack.length > 1) { top.commas = true; top.sum = Math.min(cap, top.sum + top.cur); top.cur = 1; }
    else if (c === '}' && stack.length > 1) {
      stack.pop();
      const up = stack[stack.length - 1];
      const n = top.commas ? Math.min(cap, top.sum + top.cur) : top.all;
      up.cur = mul(up.cur, n);
      up.all = mul(up.all, n);
      up.depth = Math.max(up.depth, top.depth + (top.commas ? 1 : 0));
    }
  }
  // Braces left open are literal: their groups multiply into the one around them.
  while (stack.length > 1) {
    const top = stack.pop()!;
    const up = stack[stack.length - 1];
    up.cur = mul(up.cur, top.all);
    up.all = mul(up.all, top.all);
    up.depth = Math.max(up.depth, top.depth);
  }
  return { count: stack[0].cur, depth: stack[0].depth };
}

/**
 * The first `{` that has a matching `}` and a top-level comma: [its index, the `}`'s, the commas'].
 * One pass with a stack of open braces (nested braces cost no rescans).
 */
function findBrace(p: string): [number, number, number[]] | null {
  const open: { start: number; commas: number[] }[] = [];
  let best: [number, number, number[]] | null = null;
  let noClassClose = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') { i++; continue; }
    if (c === '[' && !noClassClose) { const end = classEnd(p, i); if (end > 0) { i = end; continue; } noClassClose = true; }
    if (c === '{') open.push({ start: i, commas: [] });
    else if (c === ',' && open.length > 0) open[open.length - 1].commas.push(i);
    else if (c === '}' && open.length > 0) {
      const b = open.pop()!;
      if (b.commas.length > 0 && (!best || b.start < best[0])) best = [b.start, i, b.commas];
    }
  }
  return best;
}

function classEnd(p: string, open: number): number {
  let i = open + 1;
  if (p[i] === '!' || p[i] === '^') i++;
  for (let first = true; i < p.length; i++, first = false) {
    if (p[i] === '\\') { i++; continue; }
    if (p[i] === ']' && !first) return i;
  }
  return -1;
}

const GLOB_SYNTAX: SegmentSyntax = { unclosedClass: 'literal', fold: false };

/**
 * A glob (ripgrep's -g syntax: `*`, `?`, `[...]`, `**` as a whole segment, `{a,b}`, `\` escapes) as a
 * matcher of '/'-separated relative paths; case-sensitive; `dot: false` keeps `*`, `?`, `[...]` and
 * `**` off names that start with a dot (as picomatch's option). `a/**` matches a too.
 */
export function compileGlob(pattern: string, o: { dot: boolean }): (rel: string) => boolean {
  const body = markGlobstars(pattern.replace(/^(?:\.\/)+/, ''));
  // P/** matches P too, as in picomatch, except where P ends in a star (picomatch's a*/** needs a name below).
  const segs = splitSegments(body);
  let end = segs.length;
  while (end > 0 && segs[end - 1] === GLOBSTAR_MARK) end--;
  const starBefore = end > 0 && end < segs.length && /(?:^|[^\\])\*$/.test(segs[end - 1]);
  const alternatives = expandBraces(body).map((p) => globParts(p, starBefore));
  const opts = { dot: o.dot, fold: false };
  return (rel) => {
    const names = rel.split('/');
    return alternatives.some((parts) => matchParts(parts, names, opts));
  };
}

/** Stands for a `**` that is a whole segment of the pattern as written, through brace expansion. */
const GLOBSTAR_MARK = '\uE000';

/**
 * A `**` that is a whole segment of the pattern as written becomes GLOBSTAR_MARK; any other run of
 * stars is one `*` (`a**`, `{,a}**`: picomatch's reading), as is a `**` that braces put together (`*{,a}*`).
 */
function markGlobstars(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') { out += pattern.slice(i, i + 2); i++; continue; }
    if (c !== '*') { out += c; continue; }
    let end = i;
    while (pattern[end] === '*') end++;
    const whole = end - i === 2 && (i === 0 || pattern[i - 1] === '/') && (end === pattern.length || pattern[end] === '/');
    out += whole ? GLOBSTAR_MARK : '*';
    i = end - 1;
  }
  return out;
}

function globParts(pattern: string, starBefore: boolean): PathPart[] {
  const segs = splitSegments(pattern);
  return segs.map((s, i): PathPart => (s === GLOBSTAR_MARK ? { globstar: true, min: starBefore && i === segs.length - 1 ? 1 : 0 } : parseSegment(s, GLOB_SYNTAX)));
}

/** A glob's leading segments without a glob character (the directory to walk) and the rest (as picomatch.scan splits it). */
export function globBase(pattern: string): { base: string; glob: string } {
  const body = pattern.replace(/^(?:\.\/)+/, '');
  const segs = body.split('/');
  const at = segs.findIndex((s) => /[*?[\]{}()\\]/.test(s));
  if (at < 0) return { base: body, glob: '' };
  return { base: segs.slice(0, at).join('/') || (body.startsWith('/') ? '/' : ''), glob: segs.slice(at).join('/') };
}
