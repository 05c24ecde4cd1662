// Finds added tokens (e.g. "[CLS]", "[UNK]") in raw text the way the library does: leftmost
// longest match, then lstrip/rstrip trim the neighbouring sections. Lines without any are untouched.
import type { AddedTokenSpec } from './config.js';

export interface AddedTokenSplitter {
  /** Content -> id of every added token. */
  readonly ids: Map<string, number>;
  /** Sections of `text` (added tokens as their own sections, neighbours trimmed), or null if none. */
  split(text: string): string[] | null;
}

export function createAddedTokenSplitter(tokens: AddedTokenSpec[]): AddedTokenSplitter {
  const ids = new Map<string, number>();
  const specs = new Map<string, AddedTokenSpec>();
  for (const t of tokens) { ids.set(t.content, t.id); specs.set(t.content, t); }
  // Candidates by first code unit, longest first, so the first startsWith hit is the longest match.
  const byFirst = new Map<number, string[]>();
  for (const t of tokens) {
    if (t.content.length === 0) continue;
    const c = t.content.charCodeAt(0);
    const list = byFirst.get(c) ?? [];
    if (!list.includes(t.content)) list.push(t.content);
    byFirst.set(c, list);
  }
  for (const list of byFirst.values()) list.sort((a, b) => b.length - a.length);
  const firsts = [...byFirst.keys()].map((c) => String.fromCharCode(c));

  /** First index >= from where some added token could start, or -1. */
  function nextCandidate(text: string, from: number): number {
    let at = -1;
    for (let k = 0; k < firsts.length; k++) {
      const i = text.indexOf(firsts[k], from);
      if (i >= 0 && (at < 0 || i < at)) at = i;
    }
    return at;
  }

  function split(text: string): string[] | null {
    if (firsts.length === 0) return null;
    let i = nextCandidate(text, 0);
    if (i < 0) return null;
    const sections: string[] = [];
    let start = 0;
    const n = text.length;
    while (i >= 0) {
      const list = byFirst.get(text.charCodeAt(i)) as string[];
      let match: string | undefined;
      for (const c of list) if (text.startsWith(c, i)) { match = c; break; }
      if (match === undefined) { i = nextCandidate(text, i + 1); continue; }
      if (i > start) sections.push(text.slice(start, i));
      sections.push(match);
      start = i + match.length;
      i = nextCandidate(text, start);
    }
    if (sections.length === 0) return null;
    if (start < n) sections.push(text.slice(start));
    for (let k = 0; k < sections.length; k++) {
      const spec = specs.get(sections[k]);
      if (!spec) continue;
      if (spec.lstrip && k > 0) sections[k - 1] = sections[k - 1].trimEnd();
      if (spec.rstrip && k < sections.length - 1) sections[k + 1] = sections[k + 1].trimStart();
    }
    return sections;
  }

  return { ids, split };
}
