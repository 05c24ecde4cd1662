// The names definition lines define, across the languages the quality bench measures.
import { describe, expect, it } from 'vitest';
import { definedName } from '../../../src/rank/definitions.js';
import { chunkStats } from '../../../src/rank/chunk-scorer.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import { parseLexicon } from '../../../src/rank/lexical/lexicon.js';

describe('definedName', () => {
  it('finds the names that Python and JavaScript definition lines define', () => {
    expect(definedName('class Blueprint(Scaffold):')).toBe('Blueprint');
    expect(definedName('  async def render_template(name):')).toBe('render_template');
    expect(definedName('export default function mergeConfig(a, b) {')).toBe('mergeConfig');
    expect(definedName('  static from(value) {')).toBe('from');
    expect(definedName('  if (x) {')).toBeNull();
    expect(definedName('module.exports.retry = retry;')).toBe('retry');
    expect(definedName('x = 1')).toBeNull();
  });

  // Before: only bare keywords at the start of a line counted, so the symbol boosts never fired for
  // most Java, Kotlin, Scala, Swift, C#, Rust, PHP and C definitions (semble-dev2: hybrid 0.830).
  const behindModifiers: [string, string][] = [
    ['public final class Application: Sendable {', 'Application'], // Swift
    ['public protocol Content: Codable, RequestDecodable {', 'Content'],
    ['public interface Flow<out T> {', 'Flow'], // Kotlin
    ['public sealed interface Job : CoroutineContext.Element {', 'Job'],
    ['data class Foo(val x: Int)', 'Foo'],
    ['enum class Color { RED }', 'Color'],
    ['final class Uri(', 'Uri'], // Scala
    ['private[http4s] final case class Request[F[_]](', 'Request'],
    ['sealed trait Entity[+F[_]]', 'Entity'],
    ['object HttpRoutes {', 'HttpRoutes'],
    ['public static partial class JsonConvert', 'JsonConvert'], // C#
    ['    public abstract class Foo<T> : IFoo', 'Foo'], // Java / C#
    ['pub struct Notify {', 'Notify'], // Rust
    ['pub(crate) fn spawn_inner<T>(future: T)', 'spawn_inner'],
    ['final class Application extends Container', 'Application'], // PHP
    ['    public static function make($abstract)', 'make'],
    ['typedef struct client {', 'client'], // C
    ['struct redisServer {', 'redisServer'],
    ['defmodule Ecto.Repo do', 'Repo'], // Elixir
    ['  defp do_thing(x) do', 'do_thing'],
    ['newtype Parser a = Parser', 'Parser'], // Haskell
    ['data Value = Object !Object', 'Value'],
    ['@objc public class Foo: NSObject {', 'Foo'],
  ];
  it.each(behindModifiers)('finds the name behind modifiers: %s', (line, name) => {
    expect(definedName(line)).toBe(name);
  });

  it.each([
    '  // returns the type of the value',
    ' * A class that holds the data',
    'impl Foo for Bar {',
    'return new Foo(x);',
    'public String name;',
  ])('defines nothing in prose or plain statements: %s', (line) => {
    expect(definedName(line)).toBeNull();
  });

  it('gives a symbol query its definition boost for a Kotlin interface, x1.5 in the file named after it', () => {
    const plan = { ...buildRankPlan('Flow', 'hybrid', parseLexicon('#docs\t1000\nflow\t50\n')), chunkLines: 32 };
    const lines = ['package kotlinx.coroutines.flow', '', 'public interface Flow<out T> {', '    public suspend fun collect(c: FlowCollector<T>)', '}'];
    expect(chunkStats(lines, 0, 'flow/Builders.kt', plan)[0].symbol).toBe(1);
    expect(chunkStats(lines, 0, 'flow/Flow.kt', plan)[0].symbol).toBe(1.5);
  });

  // left37: a name of another script or with an emoji was cut at its first non-ASCII letter (`class
  // Straße:` defined `Stra`) or not seen (`func 👍🏽()`), and the symbol side lower-cased a name where the
  // terms fold it (`straße` is no `strasse`): such a definition missed its boost.
  it.each([
    ['class Straße:', 'Straße'], ['def größe():', 'größe'], ['class Café {', 'Café'], ['let café = 1', 'café'],
    ['func 👍🏽Handler() -> Int {', '👍🏽Handler'], ['func 👍🏽() {}', '👍🏽'], ['public final class Ωmega<T> {', 'Ωmega'],
    ['defmodule Ecto.Répo do', 'Répo'], ['exports.straße = 1', 'straße'], ['class Foo: # café', 'Foo'], ['// the café is open', null],
  ])('a name of any script: %s defines %s', (line, name) => {
    expect(definedName(line)).toBe(name);
  });

  it('a definition named in another script or with a toned emoji gets its boost, its name folded as the terms (left37)', () => {
    const lexicon = parseLexicon('#docs\t1000\nthe\t990\n');
    const symbol = (q: string, lines: string[], path: string) => chunkStats(lines, 0, path, buildRankPlan(q, 'hybrid', lexicon))[0];
    const roads = ['# straße notes', 'class Straße:', '    pass'];
    // STRASSE is a symbol query: its symbol, folded, is the name folded.
    expect(symbol('STRASSE', roads, 'src/roads.py')).toMatchObject({ symbol: 1, best: 1 });
    expect(symbol('STRASSE', roads, 'src/Straße.py')).toMatchObject({ symbol: 1.5, best: 1 });
    expect(symbol('Straße', roads, 'src/roads.py').best).toBe(1);
    expect(symbol('👍', ['// 👍🏽 reactions', 'func 👍🏽Handler() {', '}'], 'src/Reactions.swift').best).toBe(1);
    expect(symbol('👍🏽', ['// 👍 reactions', 'func 👍() {', '}'], 'src/Reactions.swift').best).toBe(1);
  });
});

describe('definedName on a hostile line (trust47)', () => {
  // A run of white space between a name and its `(` made the forms' adjacent \s* try every split: 1 s a line of
  // 16,000 spaces (the longest line kept whole), so a cloned repository's file of 40 such lines took 24 s to index.
  const pad = ' '.repeat(16_000);
  const lines: [string, string | null][] = [
    ['x' + pad + '(', null], ['function' + pad + '\u0001', null], ['function' + pad + 'run(a) {', 'run'],
    ['  static' + pad + 'handle' + pad + '(req)' + pad + '{', 'handle'], ['f()' + pad + ':' + pad + 'x', null],
  ];
  it('16,000-space runs answer at once, as their one-space forms do', () => {
    const started = performance.now();
    for (const [line, name] of lines) for (const ascii of [true, false]) expect(definedName(line, ascii)).toBe(name);
    // Base: 1.4 s at load 4 (0.65 s the first line alone); now a few ms.
    expect(performance.now() - started).toBeLessThan(250);
    for (const [line, name] of lines) expect(definedName(line.replace(/ {2,}/g, ' '))).toBe(name);
  });
});
