// Made-up code and prose that a resident process searches once before its first real search
// (searcher.warm): every thread then has its tokenizer and scorer built and its hot loops compiled,
// which a cold first search over a big tree otherwise pays for inside the agent's wait (issue 30).
// Deterministic, and never shown to anyone: the warm-up's answer is dropped.

const VERBS = ['parse', 'retry', 'load', 'save', 'fetch', 'send', 'read', 'write', 'build', 'check', 'open', 'close', 'merge', 'split', 'render', 'update'];
const NOUNS = ['upload', 'config', 'session', 'token', 'request', 'user', 'file', 'index', 'cache', 'queue', 'server', 'record', 'batch', 'stream', 'result', 'error'];
const ADJECTIVES = ['failed', 'stale', 'pending', 'cached', 'remote', 'local', 'parsed', 'default'];

/** The warm-up's query: words that occur in both texts, so code chunks and prose lines both score. */
export const WARM_UP_QUERY = 'retry failed uploads';

/** A TypeScript-like file of `lines` lines (functions of a few statements, identifiers in camelCase). */
export function warmUpCode(lines: number): string {
  const pick = rng(0x5eed);
  const word = (list: string[]) => list[pick(list.length)];
  const ident = () => word(VERBS) + cap(word(ADJECTIVES)) + cap(word(NOUNS));
  const out: string[] = [];
  while (out.length < lines) {
    out.push(`export async function ${ident()}(${word(NOUNS)}: ${cap(word(NOUNS))}, options = {}) {`);
    for (let s = 0, n = 2 + pick(6); s < n; s++) {
      out.push(pick(3) === 0
        ? `  if (!${word(NOUNS)}.${word(ADJECTIVES)}) throw new Error('cannot ${word(VERBS)} the ${word(ADJECTIVES)} ${word(NOUNS)}');`
        : `  const ${word(ADJECTIVES)}${cap(word(NOUNS))} = await ${ident()}(${word(NOUNS)}, ${pick(100)});`);
    }
    out.push(`  return ${word(NOUNS)};`, '}', '');
  }
  return out.slice(0, lines).join('\n') + '\n';
}

/** A Markdown file of `lines` lines: headings and sentences of plain words. */
export function warmUpProse(lines: number): string {
  const pick = rng(0xd0c5);
  const word = (list: string[]) => list[pick(list.length)];
  const out: string[] = [];
  while (out.length < lines) {
    if (out.length % 12 === 0) out.push(`## How to ${word(VERBS)} a ${word(NOUNS)}`, '');
    out.push(`We ${word(VERBS)} the ${word(ADJECTIVES)} ${word(NOUNS)} before we ${word(VERBS)} each ${word(NOUNS)}, and ${word(VERBS)} it again when it has ${word(ADJECTIVES)} ${word(NOUNS)}s.`);
  }
  return out.slice(0, lines).join('\n') + '\n';
}

const cap = (w: string) => w[0].toUpperCase() + w.slice(1);

/** A small seeded generator: pick(n) gives 0..n-1. */
function rng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return Math.floor((s / 2 ** 32) * n);
  };
}
