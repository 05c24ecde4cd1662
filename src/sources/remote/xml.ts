// Just enough XML for S3 and Azure listings and error documents: flat elements, entities decoded.
import { SimgrepError } from '../../errors.js';
import type { ResponseHead } from './http-client.js';

const cache = new Map<string, RegExp>();

function tagRe(tag: string): RegExp {
  let re = cache.get(tag);
  if (!re) {
    re = new RegExp(`<${tag}(?:\\s[^>]*)?(?:/>|>([\\s\\S]*?)</${tag}>)`, 'g');
    cache.set(tag, re);
  }
  re.lastIndex = 0;
  return re;
}

/** Raw inner XML of every <tag>…</tag> (not nested in itself), in document order. */
export function xmlBlocks(xml: string, tag: string): string[] {
  const out: string[] = [];
  for (const m of xml.matchAll(tagRe(tag))) out.push(m[1] ?? '');
  return out;
}

/** Decoded text of the first <tag>, or undefined when absent. */
export function xmlText(xml: string, tag: string): string | undefined {
  const m = tagRe(tag).exec(xml);
  return m ? decodeXml(m[1] ?? '') : undefined;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeXml(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ent: string) => {
    if (ent[0] === '#') {
      const code = ent[1] === 'x' || ent[1] === 'X' ? parseInt(ent.slice(2), 16) : parseInt(ent.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : whole;
    }
    return NAMED[ent] ?? whole;
  });
}

/** Whether the document has the root element `root`, opened and closed (a cut body is not a listing). */
export function isComplete(xml: string, root: string): boolean {
  return new RegExp(`<${root}[\\s>]`).test(xml) && xml.trimEnd().endsWith(`</${root}>`);
}

/** The error for a listing reply that is not the store's listing document (an HTML page, a proxy's answer, a cut body). */
export function notAListing(opened: { res: ResponseHead }, body: string, expected: string, hint: string): SimgrepError {
  const type = opened.res.headers.get('content-type') ?? 'no content type';
  const start = body.trim().slice(0, 60).replace(/\s+/g, ' ');
  const trimmed = body.trim();
  const what = trimmed === '' ? 'an empty body'
    : /^<(!doctype html|html)/i.test(trimmed) ? 'an HTML page'
      : /<(ListBucketResult|EnumerationResults)[\s>]/.test(trimmed) ? `a listing cut short (${trimmed.length} characters, no closing tag)`
        : `"${start}${trimmed.length > 60 ? '…' : ''}"`;
  return new SimgrepError('REMOTE_ERROR', `the listing request was answered with ${what} (${type}), not ${expected}; ${hint}`);
}
