// Identifier tokens for the BM25 baseline (semble's recipe): [a-zA-Z_][a-zA-Z0-9_]* lower-cased, plus
// the parts of snake_case or camelCase compounds. The product's lexical ranker has its own in src/.

const TOKEN = /[a-zA-Z_][a-zA-Z0-9_]*/g;
/** camelCase / PascalCase pieces: "getHTTPResponse" -> get, HTTP, Response; "XMLParser" -> XML, Parser. */
const CAMEL = /[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+/g;

/** One identifier -> itself lower-cased, then its parts when it has two or more (snake_case wins). */
export function splitIdentifier(token: string): string[] {
  const lower = token.toLowerCase();
  const parts = token.includes('_')
    ? lower.split('_').filter((p) => p !== '')
    : (token.match(CAMEL) ?? []).map((p) => p.toLowerCase());
  return parts.length >= 2 ? [lower, ...parts] : [lower];
}

/** Every identifier in text, expanded by splitIdentifier, in order (duplicates kept: they are term counts). */
export function tokenizeIdentifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(TOKEN)) out.push(...splitIdentifier(m[0]));
  return out;
}
