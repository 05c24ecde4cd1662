// Property tests (fast-check) for flag parsing of outside input: any valid flags from the one table,
// written in any of their forms and mixed with positionals, parse to their values; any argv either
// parses or fails as BAD_FLAG, never another throw.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSimgrepError } from '../../../src/errors.js';
import { FLAGS, SEMTOOLS_FLAGS, parseArgs, type FlagDef } from '../../../src/cli/flags.js';

/** A value for the flag, as typed and as parsed. */
function valueOf(def: FlagDef): fc.Arbitrary<[string, string | number]> {
  switch (def.kind) {
    case 'int': return fc.integer({ min: -1000, max: 100000 }).map((n) => [String(n), n]);
    case 'number': return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).map((n) => [String(n), Number(String(n))]);
    case 'size': return fc.tuple(fc.integer({ min: 0, max: 4096 }), fc.constantFrom(['', 1], ['K', 1024], ['m', 1024 ** 2], ['G', 1024 ** 3], ['MiB', 1024 ** 2], ['kb', 1024]))
      .map(([n, [unit, mult]]) => [`${n}${unit}`, n * (mult as number)]);
    default: return def.choices ? fc.constantFrom(...def.choices).map((c) => [c, c]) : fc.string({ maxLength: 12 }).map((s) => [s, s]);
  }
}

/** One flag occurrence: its argv words and the [name, value] it sets. */
interface Occurrence { words: string[]; name: string; value: string | number | boolean }
const occurrence = (table: readonly FlagDef[]): fc.Arbitrary<Occurrence> => fc.constantFrom(...table).chain((def) => fc.constantFrom(def.name, ...(def.aliases ?? [])).map((longName) => [def, longName] as const)).chain(([def, longName]): fc.Arbitrary<Occurrence> => {
  if (def.kind === 'bool') {
    const forms = [[`--${def.name}`, true], ...(def.short ? [[`-${def.short}`, true]] : []), ...(def.negatable ? [[`--no-${def.name}`, false]] : [])] as Array<[string, boolean]>;
    return fc.constantFrom(...forms).map(([w, v]) => ({ words: [w], name: def.name, value: v }));
  }
  return fc.tuple(valueOf(def), fc.nat(3)).map(([[typed, parsed], form]) => {
    const long = `--${longName}`;
    // -n3 attaches the value (an empty one cannot be attached; -n=3 drops the "=").
    const words = form === 0 ? [long, typed] : form === 1 ? [`${long}=${typed}`] : def.short && form === 2 ? [`-${def.short}`, typed] : def.short && typed !== '' && !typed.startsWith('=') ? [`-${def.short}${typed}`] : [long, typed];
    return { words, name: def.name, value: parsed };
  });
});

/** Words that are positionals wherever they stand (not starting with "-" unless "-" or "-<digit>"). */
const positional = fc.oneof(fc.string({ maxLength: 10 }).filter((s) => !s.startsWith('-')), fc.constantFrom('-', '-1', '-0.5'));

// simgrep's own table, and the semtools personality's (with its clap aliases: --context, --threshold).
describe.each([['FLAGS', FLAGS], ['SEMTOOLS_FLAGS', SEMTOOLS_FLAGS]] as const)('flag parsing (property): %s', (_name, table) => {
  it('valid flags in any form, mixed with positionals, parse to their values; the last one wins (a repeatable one collects them all, in order)', () => {
    fc.assert(fc.property(fc.array(fc.oneof(occurrence(table), positional), { maxLength: 8 }), fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }), (items, afterDashes) => {
      const argv = [...items.flatMap((it) => (typeof it === 'string' ? [it] : it.words)), '--', ...afterDashes];
      const flags: Record<string, unknown> = {};
      const positionals: string[] = [];
      for (const it of items) {
        if (typeof it === 'string') positionals.push(it);
        else if (table.find((f) => f.name === it.name)!.repeatable) flags[it.name] = [...((flags[it.name] as unknown[] | undefined) ?? []), it.value];
        else flags[it.name] = it.value;
      }
      expect(parseArgs(argv, table)).toEqual({ flags, positionals: [...positionals, ...afterDashes] });
    }), { numRuns: 400 });
  });

  it('any argv parses or fails as BAD_FLAG, never another throw', () => {
    const word = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(...table.flatMap((f) => [f.name, ...(f.aliases ?? [])].flatMap((n) => [`--${n}`, `--no-${n}`, `--${n}=`]).concat(f.short ? [`-${f.short}`] : []))).chain((w) => fc.string({ maxLength: 4 }).map((s) => w + s)));
    fc.assert(fc.property(fc.array(word, { maxLength: 8 }), (argv) => {
      try {
        parseArgs(argv, table);
      } catch (e) {
        expect(isSimgrepError(e) && e.code).toBe('BAD_FLAG');
      }
    }), { numRuns: 400 });
  });
});
