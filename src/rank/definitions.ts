// Which name a source line defines (class, type, function, module, constant), for the symbol boosts. The
// scan (chunk-scorer) and the index (chunk-features) both ask here, so indexed and one-shot answers agree.

/**
 * Words that may stand before a definition keyword: visibility and other modifiers of the measured
 * languages (`public final class`, `pub(crate) struct`, `private[http4s] object`, `data class`,
 * `enum class`, `typedef struct`) and annotations (`@objc`). Only these, so prose such as "returns the
 * type of x" in a comment or docstring defines nothing.
 */
const MODIFIERS = [
  'public', 'private', 'protected', 'internal', 'fileprivate', 'open', 'static', 'final', 'abstract', 'sealed',
  'data', 'case', 'enum', 'annotation', 'value', 'inline', 'export', 'default', 'declare', 'async', 'unsafe',
  'extern', 'override', 'partial', 'readonly', 'implicit', 'lazy', 'inner', 'companion', 'external', 'expect',
  'actual', 'suspend', 'virtual', 'new', 'typedef',
  String.raw`pub(?:\([^)]*\))?`, String.raw`(?:private|protected)\[[^\]]*\]`, String.raw`@[A-Za-z_][\w.]*(?:\([^)]*\))?`,
].join('|');

/** Definition keywords across languages, after semble's list (MinishLab/semble, ranking/boosting.py; MIT). */
const KEYWORDS = [
  'class', 'interface', 'struct', 'enum', 'union', 'trait', 'type', 'object', 'protocol', 'record', 'typedef',
  'module', 'defmodule', 'namespace', 'def', 'defp', 'defmacro', 'fn', 'fun', 'func', 'function', 'data', 'newtype',
].join('|');

const DEFINITION = [
  // Modifiers, a keyword, an optional namespace (`defmodule Ecto.Repo`, `class Foo::Bar`), the name: not
  // itself a keyword (`typedef struct client` defines client), followed by what a declaration continues with.
  new RegExp(String.raw`^\s*(?:(?:${MODIFIERS})\s+)*(?:${KEYWORDS})\s+(?:[A-Za-z_]\w*(?:\.|::))*(?!(?:${KEYWORDS})\b)([A-Za-z_$][\w$]*)(?=\s|[<({:\[;=]|$)`),
  // The start-of-line form: JavaScript generators and bindings (`function* gen`, `export const x`) and
  // names the form above does not see end (`def save!`).
  /^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:def|class|function\*?|interface|type|enum|struct|trait|fn|func|const|let|var|module|namespace)\s+([A-Za-z_$][\w$]*)/,
  /^\s*(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*=/,
  /\.prototype\.([A-Za-z_$][\w$]*)\s*=/,
  /^\s*(?:(?:static|async|get|set|public|private|protected|override|readonly)\s+)*([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\([^)]*\)\s*(?::[^{]*)?\{\s*$/,
];
const NOT_NAMES = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'function', 'with', 'elif', 'else']);

const NON_ASCII = /[^\x00-\x7f]/;
/** Past this length a line's runs of white space are shrunk before the forms are tried (definedName). */
const LONG_LINE = 256;
const WHITE_RUN = /\s{2,}/g;
/** A name's first and later characters in any script: letters, marks, numbers, `_`, `$`, and emoji with what joins them (Swift's `func 👍🏽()`). */
const ANY_START = String.raw`[\p{L}\p{Nl}_$\p{Extended_Pictographic}]`;
const ANY_REST = String.raw`[\p{L}\p{M}\p{N}_$\p{Extended_Pictographic}\p{Emoji_Modifier}\u200d\ufe0e\ufe0f]`;
/**
 * DEFINITION for a line that is not ASCII: the same forms, a name of any script. On such a line the
 * ASCII forms cut a name at its first other letter (`class Straße:` defined `Stra`) or saw none
 * (`func 👍🏽()`: left37); ASCII lines keep the ASCII forms, and their answers.
 */
const DEFINITION_ANY = DEFINITION.map((re) => new RegExp(re.source
  .replaceAll(String.raw`([A-Za-z_$][\w$]*)`, `(${ANY_START}${ANY_REST}*)`)
  .replaceAll(String.raw`[A-Za-z_]\w*`, `${ANY_START}${ANY_REST}*`), 'u'));

/**
 * The name a line defines (class, type, function, method, module, constant), or null. `ascii`: whether
 * the line is ASCII, where the caller knows it (the index's identifier counter, the scan's ASCII file):
 * testing every line again cost ~35% of this call on ASCII code (mend37).
 */
export function definedName(line: string, ascii = !NON_ASCII.test(line)): string | null {
  // The forms' adjacent \s* and \s+ (`name\s*(?:<…>)?\s*\(`) backtrack over every split of a run of white
  // space: a line of `x`, 16,000 spaces and `(` cost 1 s, so a file of such lines indexed at 2 lines a second.
  // Every form reads white space only as \s (one or a run alike) and names hold none, so a run shrunk to one
  // character defines the same name. Short lines cannot cost much and are left as they are.
  if (line.length > LONG_LINE) line = line.replace(WHITE_RUN, ' ');
  for (const re of ascii ? DEFINITION : DEFINITION_ANY) {
    const m = re.exec(line);
    if (m && !NOT_NAMES.has(m[1])) return m[1];
  }
  return null;
}
