// The walls around workflow templates. nunjucks compiles a template to JavaScript that reaches values
// only through a few runtime hooks (member lookup, name lookup, calls, filters, tests, loaders); each is
// narrowed here so that no template reaches a constructor, a prototype or the host (Function, process).
import nunjucks from 'nunjucks';
import { isFloat, isNumeric, isPyFloat } from './py-float.js';
import { hasSurrogates } from './py-text.js';
import { LIST_EQ_METHODS, pyEq, pyIn, pyRange, pySlice, STR_METHODS } from './py-methods.js';
import { DICT_METHODS as PY_DICT_METHODS, LIST_METHODS, MORE_STR_METHODS, numberMember } from './py-object-methods.js';
import { installAggregates } from './template-parse.js';
import { forgetMissing, noteMissing, noteMissingName, undefinedMessage } from './template-missing.js';
import { installPythonSyntax, type PyRuntime } from './template-python.js';
import { isNamespace, isTuple, markNamespace, pyStr } from './py-values.js';

type Lookup = (obj: unknown, val: unknown, ...rest: unknown[]) => unknown;
interface Runtime {
  inOperator: typeof pyIn;
  memberLookup: Lookup;
  contextOrFrameLookup: (context: unknown, frame: unknown, name: string) => unknown;
  callWrap: (obj: unknown, name: string, context: unknown, args: unknown[]) => unknown;
  suppressValue: (val: unknown, autoescape: boolean) => unknown;
  ensureDefined: (val: unknown, lineno: number, colno: number) => unknown;
}
interface FrameLike { lookup(name: string): unknown }
interface ContextLike { ctx: Record<string, unknown>; env: { globals: Record<string, unknown> } }

/** Names that lead from a value to its prototype or constructor, on any value (also as bare names). */
const BLOCKED = new Set(['constructor', 'prototype', 'caller', 'callee', 'arguments']);

export function isBlockedName(name: string): boolean {
  // `__proto__`, `__defineGetter__`, `__lookupGetter__`, ...: every dunder is out, as in Jinja's sandbox.
  return BLOCKED.has(name) || name.startsWith('__');
}

// Function and its async and generator kin compile strings to code; eval runs them.
const CODE_RUNNERS: ReadonlySet<unknown> = new Set([
  Function,
  Object.getPrototypeOf(async function () {}).constructor,
  Object.getPrototypeOf(function* () {}).constructor,
  Object.getPrototypeOf(async function* () {}).constructor,
  globalThis.eval,
]);

/** Mappings whose members are a declared set (the workflow's `env`): any other name is an error. */
const declared = new WeakMap<object, ReadonlySet<string>>();
const DICT_METHODS = new Set(['get', 'items', 'keys', 'values']);
// The dict methods Jinja's compatibility gives every mapping (a state key of the same name wins).
const JINJA_DICT_METHODS = new Set(['get', 'items', 'keys', 'values', 'setdefault', 'pop', 'popitem', 'has_key', 'update', 'clear', 'copy', 'iteritems', 'iterkeys', 'itervalues']);
const KEYED_METHODS = new Set(['get', 'setdefault', 'pop', 'has_key']);

/** A frozen, prototype-less mapping of `values`; reading a name outside `names` fails with `undeclared(name)`. */
export function declaredMapping(values: Record<string, unknown>, names: Iterable<string>, undeclared: (name: string) => string): Readonly<Record<string, unknown>> {
  const o = Object.freeze(Object.assign(Object.create(null) as Record<string, unknown>, values));
  declared.set(o, new Set(names));
  undeclaredMessage.set(o, undeclared);
  return o;
}
const undeclaredMessage = new WeakMap<object, (name: string) => string>();

class TemplateSandboxError extends Error {}

// TEA's DotDict: the mappings TEA hands a template (state, variables, ..., result) are copies, and so is a
// mapping read from one by name (state.d); template-python.ts's dotLookup makes the copies.
const dotDicts = new WeakSet<object>();

function isPlainMapping(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || isNamespace(v) || declared.has(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function dotDict(v: Record<string, unknown>): Record<string, unknown> {
  // fromEntries defines each key (Object.assign would run a "__proto__" key's setter).
  const copy = Object.fromEntries(Object.entries(v));
  dotDicts.add(copy);
  return copy;
}

/** The context a template sees, as TEA's process_template builds it: each top-level mapping a DotDict copy. */
export function dotContext(ctx: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(ctx)) out[k] = isPlainMapping(v) ? dotDict(v) : v;
  return out;
}

// Jinja's namespace(): the one kind of object `{% set ns.name = value %}` may change (TEA's docs count
// loop items with it: a plain {% set %} inside a loop is gone after the loop). py-values.ts marks them.
/** namespace(count=0): a prototype-less mapping of its keyword arguments. */
export function namespace(...args: unknown[]): Record<string, unknown> {
  const ns = Object.create(null) as Record<string, unknown>;
  for (const a of args) {
    if (a === null || typeof a !== 'object' || Array.isArray(a)) refuse('namespace() takes keyword arguments (namespace(count=0)) or a mapping');
    for (const [k, v] of Object.entries(a)) if (k !== '__keywords') ns[memberName(k) as string] = v;
  }
  return markNamespace(ns);
}

/** Jinja's dict() global: dict(a=1), dict(mapping), dict(pairs), dict(mapping, b=2): a plain mapping. */
function pyDict(...args: unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const put = (k: unknown, v: unknown) => Object.defineProperty(out, memberName(k), { value: v, enumerable: true, writable: true, configurable: true });
  for (const a of args) {
    if (Array.isArray(a)) {
      for (const p of a) {
        if (!Array.isArray(p) || p.length !== 2) refuse('TypeError: dict() takes a mapping or a list of (key, value) pairs');
        put(p[0], p[1]);
      }
    } else if (a !== null && typeof a === 'object' && !isPyFloat(a) && !isNamespace(a)) {
      for (const [k, v] of Object.entries(a)) if (k !== '__keywords') put(k, v);
    } else {
      refuse(`TypeError: dict() takes a mapping or a list of (key, value) pairs, not ${a === null ? 'None' : typeof a}`);
    }
  }
  return out;
}

/** {% set obj.key = value %}: only on a namespace(), as in Jinja. */
function nsSet(obj: unknown, key: unknown, value: unknown): void {
  if (obj === null || typeof obj !== 'object' || !isNamespace(obj)) refuse('cannot assign attribute on non-namespace object (make it with namespace(...))');
  (obj as Record<string | number, unknown>)[memberName(key)] = value;
}

function refuse(message: string): never {
  throw new TemplateSandboxError(message);
}

function checkValue(v: unknown): unknown {
  if (CODE_RUNNERS.has(v)) refuse('a template cannot reach a code constructor');
  return v;
}

/** A member name as the lookup will use it: a primitive (an object as a key would run its own toString). */
function memberName(val: unknown): string | number {
  if (typeof val === 'number') return val;
  if ((val !== null && typeof val === 'object') || typeof val === 'function' || typeof val === 'symbol') refuse(`a member name must be a string or a number (got ${typeof val})`);
  const name = String(val);
  if (isBlockedName(name)) refuse(`"${name}" cannot be read in a template (it leads to a prototype or a constructor)`);
  return name;
}

// Jinja's spellings, which nunjucks' Jinja compatibility adds in the lookup this one replaces.
const JINJA_CONSTANTS: Record<string, boolean | null> = { True: true, False: false, None: null };

let installed = false;

/** Patches nunjucks' runtime hooks once (they are module-wide; simgrep is their only user). */
function installRuntimeWalls(): void {
  if (installed) return;
  installed = true;
  installAggregates();
  nunjucks.installJinjaCompat();
  const runtime = nunjucks.runtime as unknown as Runtime;
  const compatLookup = runtime.memberLookup;
  runtime.memberLookup = function memberLookup(this: unknown, obj: unknown, val: unknown, ...rest: unknown[]) {
    // A slice (obj[a:b:c]) as Python answers it (nunjucks' own made a string a list of characters and
    // padded a slice past the end with undefined).
    if (rest.length === 2) return pySlice(obj, val, rest[0], rest[1]);
    const key = memberName(val);
    const v = lookupMember.call(this, obj, key);
    if (v === undefined) noteMissing(obj, key);
    else forgetMissing();
    return v;
  } as Lookup;
  const lookupMember = function lookupMember(this: unknown, obj: unknown, key: ReturnType<typeof memberName>): unknown {
    if (typeof obj === 'function') refuse('a template cannot read members of a function');
    // A number has Python's members only (.real, .is_integer(), .bit_length()): a float's box has no
    // .value, .keys(), .update(), and an int no JavaScript toFixed, so those are undefined, as in Jinja.
    if (isPyFloat(obj) || typeof obj === 'number' || typeof obj === 'boolean') return typeof key === 'string' ? numberMember(obj, key) : undefined;
    // Jinja's StrictUndefined: a member of an undefined name is an error (nunjucks gave undefined).
    if (obj === undefined) refuse(`UndefinedError: an undefined value has no member "${String(key)}" (check the name before it, or add | default(...))`);
    // Python's str methods, not JavaScript's of the same name (replace would change only the first).
    if (typeof obj === 'string' && typeof key === 'string' && (STR_METHODS[key] || MORE_STR_METHODS[key])) return (STR_METHODS[key] ?? MORE_STR_METHODS[key]).bind(obj);
    // list.count/index/remove by Python's equality (1.0 == 1), where nunjucks' compared with ===.
    if (Array.isArray(obj) && typeof key === 'string' && LIST_EQ_METHODS[key] && !Object.hasOwn(obj, key)) return LIST_EQ_METHODS[key].bind(obj);
    // append/extend/insert/pop/sort/reverse/copy/clear as Python's (a tuple has none of them).
    if (Array.isArray(obj) && typeof key === 'string' && LIST_METHODS[key] && !Object.hasOwn(obj, key)) return isTuple(obj) ? undefined : LIST_METHODS[key].bind(obj);
    // Python's index of a list or a string: -1 is the last, a string's by code point (state.messages[-1]).
    if (typeof key === 'number' && Number.isInteger(key) && (Array.isArray(obj) || typeof obj === 'string')) {
      const items: ArrayLike<unknown> = typeof obj === 'string' && hasSurrogates(obj) ? Array.from(obj) : obj;
      const i = key < 0 ? key + items.length : key;
      return i >= 0 && i < items.length ? items[i] : undefined;
    }
    if (obj !== null && typeof obj === 'object') {
      const names = declared.get(obj);
      if (names && typeof key === 'string' && !names.has(key) && !DICT_METHODS.has(key)) refuse(undeclaredMessage.get(obj)!(key));
      // A state key wins over a same-named Python method (state.items is the list, not dict.items).
      if (Object.hasOwn(obj, key)) {
        const v = (obj as Record<PropertyKey, unknown>)[key];
        return typeof v === 'function' ? (checkValue(v) as (...a: unknown[]) => unknown).bind(obj) : checkValue(v);
      }
    }
    // dict.items()/keys()/values() as Python's views (dict_items([('a', 1)])), copy() and clear().
    if (obj !== null && typeof obj === 'object' && !Array.isArray(obj) && !isNamespace(obj) && typeof key === 'string' && PY_DICT_METHODS[key]) return PY_DICT_METHODS[key].bind(obj as Record<string, unknown>);
    // TEA's DotDict (state, a mapping read from it by name): a key it lacks is None. Any other mapping (a
    // list's item, state['d'], a literal) is Jinja's plain dict: a key it lacks is undefined, an error
    // when printed, as in TEA ('dict object' has no attribute ...).
    if (obj !== null && typeof obj === 'object' && !Array.isArray(obj) && typeof key === 'string' && !JINJA_DICT_METHODS.has(key) && !declared.has(obj)) return dotDicts.has(obj) ? null : undefined;
    const v = checkValue(compatLookup.call(this, obj, key));
    // Jinja's dict.get/setdefault/pop/has_key read this[key] themselves: state.setdefault("__proto__")
    // would hand out Object.prototype (and .update() on it would change every object of the process).
    if (typeof v === 'function' && typeof key === 'string' && KEYED_METHODS.has(key) && !Array.isArray(obj)) {
      // d.get('missing') and d.setdefault('k') are None, as Python's (nunjucks' gave undefined: an error printed).
      return (k: unknown, ...args: unknown[]) => checkValue((v as (...a: unknown[]) => unknown)(memberName(k), ...args)) ?? null;
    }
    return v;
  };
  // Bare names: the template's own variables, then the context's own keys, then the globals' own keys.
  // nunjucks' own lookup uses `in`, so {{ constructor }} or {{ toString }} read Object.prototype.
  runtime.contextOrFrameLookup = (context, frame, name) => {
    forgetMissing();
    if (isBlockedName(name)) refuse(`"${name}" cannot be read in a template (it leads to a prototype or a constructor)`);
    const fromFrame = (frame as FrameLike).lookup(name);
    if (fromFrame !== undefined) return checkValue(fromFrame);
    const c = context as ContextLike;
    if (Object.hasOwn(c.ctx, name)) return checkValue(c.ctx[name]);
    if (Object.hasOwn(c.env.globals, name)) return c.env.globals[name];
    if (Object.hasOwn(JINJA_CONSTANTS, name)) return JINJA_CONSTANTS[name];
    noteMissingName(name);
    return undefined;
  };
  // Printed values read as Jinja prints them (None, True, ['a']); only an undefined name is an error.
  const suppress = runtime.suppressValue;
  // A float prints as Python's (2.0): the output's + would have read its valueOf (2).
  runtime.suppressValue = (val, autoescape) => (forgetMissing(), suppress(typeof val === 'string' || (val !== null && typeof val === 'object' && !Array.isArray(val) && !isPyFloat(val) && Object.getPrototypeOf(val) !== Object.prototype && Object.getPrototypeOf(val) !== null) ? val : pyStr(val), autoescape));
  const ensureDefined = runtime.ensureDefined;
  runtime.ensureDefined = (val, lineno, colno) => {
    if (val !== undefined) return val === null ? val : ensureDefined(val, lineno, colno);
    try {
      return ensureDefined(val, lineno, colno);
    } catch (err) {
      // Say what was missing and how to fix it (nunjucks' text names neither).
      if (err instanceof Error) err.message = undefinedMessage(err.message);
      throw err;
    }
  };
  // `in` by Python's equality and own keys (nunjucks' found "toString" in every mapping).
  runtime.inOperator = pyIn;
  const py = runtime as unknown as PyRuntime;
  py.dotLookup = function dotLookup(this: unknown, obj, key) {
    const v = runtime.memberLookup.call(this, obj, key);
    return dotDicts.has(obj as object) && isPlainMapping(v) ? dotDict(v as Record<string, unknown>) : v;
  };
  installPythonSyntax(py, nsSet);
  const callWrap = runtime.callWrap;
  runtime.callWrap = (obj, name, context, args) => {
    const v = checkValue(callWrap(checkValue(obj), name, context, args));
    forgetMissing();
    return v;
  };
}

/**
 * A nunjucks environment for untrusted-shaped templates: no loaders ({% include %}, {% import %} and
 * {% extends %} find nothing), globals limited to range/cycler/joiner/namespace, and filters and tests looked up
 * among their own names only (an inherited `constructor` filter would be Object).
 */
export function createSandboxedEnvironment(filters: Record<string, (...args: never[]) => unknown>): nunjucks.Environment {
  installRuntimeWalls();
  const env = new nunjucks.Environment([], { autoescape: false, throwOnUndefined: true });
  for (const [name, fn] of Object.entries(filters)) env.addFilter(name, fn as (...args: unknown[]) => unknown);
  const e = env as unknown as { globals: object; filters: object; tests: object };
  const own = (o: object) => Object.freeze(Object.assign(Object.create(null) as object, o));
  const g = e.globals as Record<string, unknown>;
  e.globals = own({ range: pyRange, cycler: g.cycler, joiner: g.joiner, namespace, dict: pyDict });
  // A filter hands out its own value: a miss before it is not what an undefined result came from.
  const filtered = Object.entries(e.filters as Record<string, (...a: unknown[]) => unknown>).map(([name, fn]) => [name, function (this: unknown, ...a: unknown[]) {
    const v = fn.apply(this, a);
    forgetMissing();
    return v;
  }]);
  e.filters = own(Object.fromEntries(filtered));
  // Jinja's number, float and integer tests: a float's box is a number (nunjucks' number test said no).
  Object.assign(e.tests, {
    number: (v: unknown) => isNumeric(v),
    float: (v: unknown) => isFloat(v),
    integer: (v: unknown) => typeof v === 'number' && Number.isInteger(v),
    none: (v: unknown) => v === null,
    // A mapping is a plain object: not a float's box nor a namespace() (nunjucks' took any object).
    mapping: (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v) && !isPyFloat(v) && !isNamespace(v),
    // Python's ==, as Jinja's tests compare (1.0 is eq(1), selectattr("a", "equalto", 1)): nunjucks' used
    // ===, which a float's box (and a list, a mapping) never passes. sameas stays identity, Python's `is`.
    equalto: (v: unknown, other: unknown) => pyEq(v, other),
    eq: (v: unknown, other: unknown) => pyEq(v, other),
    ne: (v: unknown, other: unknown) => !pyEq(v, other),
    // Jinja's in test (select("in", [1, 2])), which nunjucks lacks: Python's `in`.
    in: (v: unknown, seq: unknown) => pyIn(v, seq),
    // Jinja's sequence test: a string, a list, a tuple or a mapping (len() and [] both work).
    sequence: (v: unknown) => typeof v === 'string' || Array.isArray(v) || (v !== null && typeof v === 'object' && !isPyFloat(v) && !isNamespace(v)),
  });
  e.tests = own(e.tests);
  return env;
}
