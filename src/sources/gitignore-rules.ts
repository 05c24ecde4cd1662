// One rule file's patterns (.gitignore, .ignore, .git/info/exclude) and their verdict for a path, as
// the `ignore` package gave it (git's syntax; case-insensitive, as that package's default always was
// here), matched by wildcard.ts in time polynomial in the name and pattern, never exponential.
import { foldCase, matchParts, matchSegment, parseSegment, splitSegments, type PathPart, type Segment, type SegmentSyntax } from './wildcard.js';

interface Rule { negative: boolean; dirOnly: boolean; anchored: boolean; parts: PathPart[] }

export interface Verdict { ignored: boolean; unignored: boolean }

const SYNTAX: SegmentSyntax = { unclosedClass: 'never', fold: true };
const MATCH = { dot: true, fold: true };
const NONE: Verdict = { ignored: false, unignored: false };

/** One line of a rule file as a rule, or null for a blank line, a comment or a line git drops. */
export function parseRuleLine(line: string): Rule | null {
  let text = line.replace(/^\uFEFF/, '');
  if (text === '' || /^\s+$/.test(text) || text.startsWith('#')) return null;
  // A trailing backslash escapes nothing: git drops the line.
  if (/(?:[^\\]|^)\\$/.test(text)) return null;
  // Trailing spaces go unless escaped (`\ ` keeps one).
  text = trimTrailingSpaces(text);
  const negative = text.startsWith('!');
  if (negative) text = text.slice(1);
  if (text.startsWith('\\!') || text.startsWith('\\#')) text = text.slice(1);
  if (text === '') return null;
  const dirOnly = text.endsWith('/');
  if (dirOnly) text = text.slice(0, -1);
  // A slash at the start or in the middle anchors the pattern at the rule file's directory.
  const anchored = text.includes('/');
  if (text.startsWith('/')) text = text.slice(1);
  // /**/: every directory, at any depth (as the ignore package read it).
  if (anchored && dirOnly && text === '**') return { negative, dirOnly, anchored, parts: [{ globstar: true, min: 1 }] };
  const segs = splitSegments(text);
  const parts: PathPart[] = [];
  segs.forEach((s, i) => {
    // a/**: everything inside a, not a (a/**/, as the ignore package read it: a too).
    if (s === '**' && i === segs.length - 1 && segs.length > 1) parts.push({ globstar: true, min: dirOnly ? 0 : 1 });
    // **/a, a/**/b; but **/**/a: the second ** is one name (the ignore package's reading, kept).
    else if (s === '**' && segs.length > 1 && !(i === 1 && segs[0] === '**')) parts.push({ globstar: true, min: 0 });
    else parts.push(parseSegment(s, SYNTAX));
  });
  return { negative, dirOnly, anchored, parts };
}

/**
 * Trailing whitespace goes, unless a backslash escapes its first character: that stays, as one
 * space. In one pass (the ignore package's regular expression took time quadratic in a run of spaces).
 */
function trimTrailingSpaces(text: string): string {
  let end = text.length;
  while (end > 0 && /\s/.test(text[end - 1])) end--;
  if (end === text.length) return text;
  let slashes = 0;
  while (end - slashes > 0 && text[end - 1 - slashes] === '\\') slashes++;
  return slashes % 2 === 1 ? `${text.slice(0, end)} ` : text.slice(0, end);
}

function matches(r: Rule, names: readonly string[], isDir: boolean): boolean {
  if (r.dirOnly && !isDir) return false;
  // Without an anchoring slash the pattern matches the last name at any depth.
  if (!r.anchored) return names.length > 0 && matchSegment(r.parts[0] as Segment, names[names.length - 1], MATCH);
  return matchParts(r.parts, names, MATCH);
}

/** The rules of one rule file: add() its text, test() a '/'-separated relative path (a directory's ends in '/'). */
export class GitignoreRules {
  private readonly rules: Rule[] = [];
  /** Verdicts of directories (few beside files), as a parent's decides for all below it. */
  private readonly dirs = new Map<string, Verdict>();

  add(text: string): this {
    for (const line of text.split(/\r?\n/)) {
      const rule = parseRuleLine(line);
      if (rule) this.rules.push(rule);
    }
    this.dirs.clear();
    return this;
  }

  /** The last rule that matches decides; a path below an ignored directory is ignored whatever its own rules say. */
  test(rel: string): Verdict {
    const isDir = rel.endsWith('/');
    const names = foldCase(isDir ? rel.slice(0, -1) : rel).split('/').filter(Boolean);
    if (names.length === 0) return NONE;
    for (let depth = 1; depth < names.length; depth++) {
      const parent = this.dirVerdict(names.slice(0, depth));
      if (parent.ignored) return parent;
    }
    return isDir ? this.dirVerdict(names) : this.own(names, false);
  }

  private dirVerdict(names: string[]): Verdict {
    const key = names.join('/');
    let v = this.dirs.get(key);
    if (!v) { v = this.own(names, true); this.dirs.set(key, v); }
    return v;
  }

  private own(names: readonly string[], isDir: boolean): Verdict {
    for (let i = this.rules.length - 1; i >= 0; i--) {
      const r = this.rules[i];
      if (matches(r, names, isDir)) return { ignored: !r.negative, unignored: r.negative };
    }
    return NONE;
  }
}
