// BertNormalizer + BertPreTokenizer exactly as @huggingface/tokenizers 0.2.0 runs them (the reference
// for id parity), as whole-string operations for non-ASCII text, plus the ASCII class table that the
// fast path uses instead.
import type { BertNormalizerSpec } from './config.js';

/*
 * Where the library differs from the Rust crate (kept, since ids must match the library): only BMP
 * CJK blocks are isolated (Ext. B+ are not); lowercasing is String#toLowerCase (word-final Σ -> ς,
 * Rust always gives σ); unassigned code points (Cn) are kept (Rust drops them as control chars).
 */

/** Cc/Cf/Co/Cs except \t \n \r, plus U+FFFD: dropped by clean_text (\0 is Cc). */
const CONTROL_RE = /(?![\t\n\r])[\p{Cc}\p{Cf}\p{Co}\p{Cs}\uFFFD]/gu;
/** The library tests each char with the non-unicode /^\s$/, so astral chars never match. */
const SPACE_RE = /\s/g;
/** The library tests UTF-16 code units, so only the BMP CJK blocks are isolated. */
const CJK_RE = /[\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF]/g;
const MARK_RE = /\p{Mn}/gu;
const PUNCT = '\\p{P}\\u0021-\\u002F\\u003A-\\u0040\\u005B-\\u0060\\u007B-\\u007E';
const PRE_TOKEN_RE = new RegExp(`[^\\s${PUNCT}]+|[${PUNCT}]`, 'gu');

export function bertNormalize(text: string, spec: BertNormalizerSpec): string {
  // Printable ASCII (and tabs) only: every step but lowercasing and the tab->space is a no-op.
  let printable = true;
  let tabs = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 9) tabs = true;
    else if (c < 32 || c > 126) { printable = false; break; }
  }
  if (printable) {
    if (tabs && spec.cleanText) text = text.replaceAll('\t', ' ');
    return spec.lowercase ? text.toLowerCase() : text;
  }
  if (spec.cleanText) text = text.replace(CONTROL_RE, '').replace(SPACE_RE, ' ');
  if (spec.handleChineseChars) text = text.replace(CJK_RE, ' $& ');
  if (spec.lowercase) text = text.toLowerCase();
  if (spec.stripAccents) text = text.normalize('NFD').replace(MARK_RE, '');
  return text;
}

/** Words and single punctuation marks of normalized text, as BertPreTokenizer splits them. */
export function bertPreTokenize(normalized: string): string[] {
  return normalized.trim().match(PRE_TOKEN_RE) ?? [];
}

/** ASCII classes for the fast path. */
export const WORD = 0;
export const SPACE = 1;
export const PUNCT_CHAR = 2;
/** A char the normalizer removes: the fast path hands such lines to the general path. */
export const DROPPED = 3;

/** Class of each ASCII code unit under `spec` (what normalize + pre-tokenize make of it). */
export function asciiClasses(spec: BertNormalizerSpec): Uint8Array {
  const cls = new Uint8Array(128);
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    if (spec.cleanText && (c < 32 || c === 127) && c !== 9 && c !== 10 && c !== 13) cls[c] = DROPPED;
    else if (/\s/.test(ch)) cls[c] = SPACE;
    else if (new RegExp(`[${PUNCT}]`, 'u').test(ch)) cls[c] = PUNCT_CHAR;
    else cls[c] = WORD;
  }
  return cls;
}

/** Normalized form of each ASCII code unit inside a word (lowercase table or identity). */
export function asciiFold(spec: BertNormalizerSpec): Uint8Array {
  const fold = new Uint8Array(128);
  for (let c = 0; c < 128; c++) fold[c] = spec.lowercase && c >= 65 && c <= 90 ? c + 32 : c;
  return fold;
}
