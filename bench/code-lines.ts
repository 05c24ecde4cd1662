// Seeded code-like text for the bench corpora: functions, comments with prose, strings, imports and
// braces in TypeScript, Python, Go and Markdown flavours, with identifiers built from a word list.
import type { Rng } from './prng.js';

export type Lang = 'ts' | 'py' | 'go' | 'md';
export const LANGS: readonly Lang[] = ['ts', 'py', 'go', 'md'];

const NOUNS = ('upload file request response user session token cache queue worker job task record row column table index '
  + 'query result error message event handler callback promise stream buffer chunk line byte path directory config option '
  + 'setting value key map list array item node tree graph edge vertex model vector matrix score weight batch pool thread '
  + 'connection socket client server endpoint route header body payload schema field type parser lexer token builder '
  + 'factory service account password email address order invoice payment price cart product customer report metric log '
  + 'timer deadline timeout retry backoff limit quota lock mutex signal process database transaction migration snapshot '
  + 'bucket object blob image thumbnail document page view template component state store action reducer hook context').split(' ');
const VERBS = ('get set load save read write parse format build create update delete remove insert fetch send receive '
  + 'retry upload download validate check compute render handle process merge split sort filter map reduce flush close '
  + 'open start stop resolve reject wait schedule cancel encode decode compress hash sign verify connect reconnect refresh '
  + 'invalidate evict register emit dispatch subscribe publish serialize normalize convert scan walk match search rank').split(' ');
const ADJS = ('failed pending active stale empty large small default current previous next remote local cached temporary '
  + 'partial invalid missing duplicate expired new old raw parsed encoded nested shared global private public async ready '
  + 'dirty clean slow fast first last maximum minimum total optional required unique sorted').split(' ');
const PREPS = ['for', 'from', 'into', 'with', 'without', 'after', 'before', 'when', 'until', 'unless', 'in', 'on', 'by'];
const ADVS = ['again', 'later', 'first', 'only', 'always', 'never', 'quickly', 'safely', 'once', 'twice', 'eventually'];
const TS_TYPES = ['string', 'number', 'boolean', 'void', 'unknown', 'Buffer', 'Uint8Array', 'Promise<void>', 'string[]'];
const GO_TYPES = ['string', 'int', 'int64', 'bool', 'error', '[]byte', 'context.Context', 'time.Duration', '*Client'];
const PY_MODULES = ['os', 'json', 'time', 'logging', 'typing', 'pathlib', 'asyncio', 'requests', 'numpy', 'itertools'];

const cap = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);
const plural = (w: string): string => (/[^aeiou]y$/.test(w) ? `${w.slice(0, -1)}ies` : /(?:s|sh|ch|x)$/.test(w) ? `${w}es` : `${w}s`);
/** Third person singular spells like a plural: retry -> retries, process -> processes. */
const third = plural;

export interface CodeGenerator {
  /** The lines of one file of `lang`, exactly `lines` long, without trailing newlines. */
  file(lang: Lang, lines: number): string[];
}

export function createCodeGenerator(rng: Rng): CodeGenerator {
  const noun = () => rng.pick(NOUNS);
  const verb = () => rng.pick(VERBS);
  const adj = () => rng.pick(ADJS);
  const words = (): string[] => (rng.chance(0.5) ? [verb(), adj(), noun()] : rng.chance(0.5) ? [verb(), noun()] : [adj(), noun()]);
  const camel = () => words().map((w, i) => (i === 0 ? w : cap(w))).join('');
  const snake = () => words().join('_');
  const pascal = () => words().map(cap).join('');
  const kebab = () => words().join('-');
  const prose = (): string => {
    const subject = rng.pick(['we', 'this', 'the caller', 'it', 'each worker', 'the client']);
    const parts = [subject, subject === 'we' ? verb() : third(verb()), 'the', adj(), noun(), rng.pick(PREPS), 'the', noun()];
    if (rng.chance(0.5)) parts.push(rng.pick(PREPS), rng.pick(['the', 'every']), adj(), noun());
    if (rng.chance(0.3)) parts.push(rng.pick(ADVS));
    return parts.join(' ');
  };
  const sentence = () => cap(prose()) + '.';
  const args = (name: () => string) => Array.from({ length: rng.int(0, 3) }, name).join(', ');

  function tsBlock(out: string[]): void {
    if (rng.chance(0.2)) out.push(`// ${sentence()}`, `// ${cap(prose())}, so ${prose()}.`);
    out.push(`export ${rng.chance(0.4) ? 'async ' : ''}function ${camel()}(${args(() => `${camel()}: ${rng.pick(TS_TYPES)}`)}): ${rng.pick(TS_TYPES)} {`);
    for (let i = rng.int(2, 12); i > 0; i--) {
      const r = rng.next();
      if (r < 0.3) out.push(`  const ${camel()} = ${rng.chance(0.3) ? 'await ' : ''}${camel()}(${args(camel)});`);
      else if (r < 0.45) out.push(`  if (!${camel()}) {`, `    throw new Error('${prose()}');`, '  }');
      else if (r < 0.55) out.push(`  // ${cap(prose())}`);
      else if (r < 0.65) out.push(`  for (const ${noun()} of ${camel()}) {`, `    ${camel()}.${verb()}(${noun()});`, '  }');
      else if (r < 0.75) out.push(`  logger.${rng.pick(['info', 'warn', 'debug'])}(\`${prose()}: \${${camel()}}\`);`);
      else if (r < 0.83) out.push('');
      else out.push(`  ${camel()}.${camel()} = ${rng.chance(0.5) ? `'${kebab()}'` : String(rng.int(0, 5000))};`);
    }
    out.push(`  return ${camel()};`, '}');
  }

  function pyBlock(out: string[]): void {
    const indent = rng.chance(0.3) ? '    ' : '';
    if (indent) out.push(`class ${pascal()}(${pascal()}):`, `    """${sentence()}"""`, '');
    out.push(`${indent}def ${snake()}(${indent ? 'self, ' : ''}${args(snake)}):`, `${indent}    """${sentence()}"""`);
    for (let i = rng.int(2, 12); i > 0; i--) {
      const r = rng.next();
      const p = `${indent}    `;
      if (r < 0.3) out.push(`${p}${snake()} = ${snake()}(${args(snake)})`);
      else if (r < 0.45) out.push(`${p}if ${snake()} is None:`, `${p}    raise ValueError("${prose()}")`);
      else if (r < 0.55) out.push(`${p}# ${cap(prose())}`);
      else if (r < 0.65) out.push(`${p}for ${noun()} in ${snake()}:`, `${p}    ${snake()}.append(${noun()})`);
      else if (r < 0.75) out.push(`${p}logger.${rng.pick(['info', 'warning', 'debug'])}("${prose()}: %s", ${snake()})`);
      else if (r < 0.83) out.push('');
      else out.push(`${p}${snake()}["${snake()}"] = ${rng.chance(0.5) ? `"${kebab()}"` : String(rng.int(0, 5000))}`);
    }
    out.push(`${indent}    return ${snake()}`);
  }

  function goBlock(out: string[]): void {
    out.push(`// ${cap(camel())} ${prose()}.`);
    out.push(`func ${rng.chance(0.5) ? cap(camel()) : camel()}(${args(() => `${camel()} ${rng.pick(GO_TYPES)}`)}) (${rng.pick(GO_TYPES)}, error) {`);
    for (let i = rng.int(2, 12); i > 0; i--) {
      const r = rng.next();
      if (r < 0.3) out.push(`\t${camel()}, err := ${camel()}(${args(camel)})`, '\tif err != nil {', `\t\treturn nil, fmt.Errorf("${prose()}: %w", err)`, '\t}');
      else if (r < 0.45) out.push(`\t${camel()} := ${camel()}.${cap(camel())}(${args(camel)})`);
      else if (r < 0.55) out.push(`\t// ${cap(prose())}`);
      else if (r < 0.65) out.push(`\tfor _, ${noun()} := range ${camel()} {`, `\t\t${camel()} = append(${camel()}, ${noun()})`, '\t}');
      else if (r < 0.75) out.push(`\tlog.Printf("${prose()}: %v", ${camel()})`);
      else if (r < 0.83) out.push('');
      else out.push(`\t${camel()}.${cap(camel())} = ${rng.chance(0.5) ? `"${kebab()}"` : String(rng.int(0, 5000))}`);
    }
    out.push(`\treturn ${camel()}, nil`, '}');
  }

  function mdBlock(out: string[]): void {
    out.push(`${rng.chance(0.3) ? '#' : '##'} ${cap(adj())} ${noun()} ${rng.pick(PREPS)} ${plural(noun())}`, '');
    for (let i = rng.int(1, 5); i > 0; i--) out.push(sentence() + ' ' + sentence());
    out.push('');
    if (rng.chance(0.5)) for (let i = rng.int(2, 5); i > 0; i--) out.push(`- ${cap(prose())} (\`${camel()}\`).`);
    if (rng.chance(0.3)) out.push('', '```ts', `const ${camel()} = await ${camel()}(${args(camel)});`, '```');
  }

  function header(lang: Lang, out: string[]): void {
    if (lang === 'ts') for (let i = rng.int(1, 4); i > 0; i--) out.push(`import { ${camel()}, ${pascal()} } from './${kebab()}.js';`);
    if (lang === 'py') for (let i = rng.int(1, 4); i > 0; i--) out.push(rng.chance(0.5) ? `import ${rng.pick(PY_MODULES)}` : `from ${noun()}.${snake()} import ${snake()}, ${pascal()}`);
    if (lang === 'go') out.push(`package ${noun()}`, '', 'import (', '\t"context"', '\t"fmt"', '\t"log"', ')');
    if (lang === 'md') out.push(`# How to ${verb()} ${adj()} ${plural(noun())}`);
    out.push('');
  }

  const blocks = { ts: tsBlock, py: pyBlock, go: goBlock, md: mdBlock };
  return {
    file(lang, lines) {
      const out: string[] = [];
      header(lang, out);
      while (out.length < lines) {
        blocks[lang](out);
        out.push('');
      }
      out.length = lines;
      return out;
    },
  };
}
