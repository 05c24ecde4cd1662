// The walls around workflow templates. nunjucks compiles a template to JavaScript that reaches values
// only through a few runtime hooks (member lookup, name lookup, calls, filters, tests, loaders); each is
// narrowed here so that no template reaches a constructor, a prototype or the host (Function, process).
import nunjucks from 'nunjucks';
import { pyMod } from './py-format.js';
import { isFloat, isNumeric, isPyFloat, pyFloat, pyNeg, pyPos } from './py-float.js';
import { hasSurrogates } from './py-text.js';
import { LIST_EQ_METHODS, pyAdd, pyBinary, pyConcat, pyEq, pyIn, pyMul, pyRange, pySlice, STR_METHODS } from './py-methods.js';
import { isNamespace, markNamespace, pyStr, pyTruthy } from './py-values.js';

type Lookup = (obj: unknown, val: unknown, ...rest: unknown[]) => unknown;
interface Runtime {
  pyAdd: typeof pyAdd;
  pyConcat: typeof pyConcat;
  pyEq: typeof pyEq;
  pyTruthy: typeof pyTruthy;
  pyMod: typeof pyMod;
  pyMul: typeof pyMul;
  pyBinary: typeof pyBinary;
  pyNeg: typeof pyNeg;
  pyPos: typeof pyPos;
  pyFloat: typeof pyFloat;
  nsSet: typeof nsSet;
  inOperator: typeof pyIn;
  memberLookup: Lookup;
  contextOrFrameLookup: (context: unknown, frame: unknown, name: string) => unknown;
  callWrap: (obj: unknown, name: string, context: unknown, args: unknown[]) => unknown;
  suppressValue: (val: unknown, autoescape: boolean) => unknown;
  ensureDefined: (val: unknown, lineno: number, colno: number) => unknown;
}
interface BinOp { left: unknown; right: unknown }
interface CompareNode { expr: unknown; ops: { type: string; expr: unknown }[] }
interface CompilerLike { _emit(code: string): void; compile(node: unknown, frame: unknown): void }
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
  nunjucks.installJinjaCompat();
  const runtime = nunjucks.runtime as unknown as Runtime;
  const compatLookup = runtime.memberLookup;
  runtime.memberLookup = function memberLookup(this: unknown, obj: unknown, val: unknown, ...rest: unknown[]) {
    // A slice (obj[a:b:c]) as Python answers it (nunjucks' own made a string a list of characters and
    // padded a slice past the end with undefined).
    if (rest.length === 2) return pySlice(obj, val, rest[0], rest[1]);
    const key = memberName(val);
    if (typeof obj === 'function') refuse('a template cannot read members of a function');
    // A float's box has no members a template may see: Jinja's float lacks .value, .keys(), .update(),
    // so the lookup is undefined (None alone, an UndefinedError printed, a call an error), as in Jinja.
    if (isPyFloat(obj)) return undefined;
    // Jinja's StrictUndefined: a member of an undefined name is an error (nunjucks gave undefined).
    if (obj === undefined) refuse(`UndefinedError: an undefined value has no member "${String(key)}" (check the name before it, or add | default(...))`);
    // Python's str methods, not JavaScript's of the same name (replace would change only the first).
    if (typeof obj === 'string' && typeof key === 'string' && STR_METHODS[key]) return STR_METHODS[key].bind(obj);
    // list.count/index/remove by Python's equality (1.0 == 1), where nunjucks' compared with ===.
    if (Array.isArray(obj) && typeof key === 'string' && LIST_EQ_METHODS[key] && !Object.hasOwn(obj, key)) return LIST_EQ_METHODS[key].bind(obj);
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
    // TEA's DotDict: a key a mapping lacks is None (not undefined, which is an error when printed).
    if (obj !== null && typeof obj === 'object' && !Array.isArray(obj) && typeof key === 'string' && !JINJA_DICT_METHODS.has(key) && !declared.has(obj)) return null;
    const v = checkValue(compatLookup.call(this, obj, key));
    // Jinja's dict.get/setdefault/pop/has_key read this[key] themselves: state.setdefault("__proto__")
    // would hand out Object.prototype (and .update() on it would change every object of the process).
    if (typeof v === 'function' && typeof key === 'string' && KEYED_METHODS.has(key) && !Array.isArray(obj)) {
      return (k: unknown, ...args: unknown[]) => checkValue((v as (...a: unknown[]) => unknown)(memberName(k), ...args));
    }
    return v;
  } as Lookup;
  // Bare names: the template's own variables, then the context's own keys, then the globals' own keys.
  // nunjucks' own lookup uses `in`, so {{ constructor }} or {{ toString }} read Object.prototype.
  runtime.contextOrFrameLookup = (context, frame, name) => {
    if (isBlockedName(name)) refuse(`"${name}" cannot be read in a template (it leads to a prototype or a constructor)`);
    const fromFrame = (frame as FrameLike).lookup(name);
    if (fromFrame !== undefined) return checkValue(fromFrame);
    const c = context as ContextLike;
    if (Object.hasOwn(c.ctx, name)) return checkValue(c.ctx[name]);
    if (Object.hasOwn(c.env.globals, name)) return c.env.globals[name];
    return Object.hasOwn(JINJA_CONSTANTS, name) ? JINJA_CONSTANTS[name] : undefined;
  };
  // Printed values read as Jinja prints them (None, True, ['a']); only an undefined name is an error.
  const suppress = runtime.suppressValue;
  // A float prints as Python's (2.0): the output's + would have read its valueOf (2).
  runtime.suppressValue = (val, autoescape) => suppress(typeof val === 'string' || (val !== null && typeof val === 'object' && !Array.isArray(val) && !isPyFloat(val) && Object.getPrototypeOf(val) !== Object.prototype && Object.getPrototypeOf(val) !== null) ? val : pyStr(val), autoescape);
  const ensureDefined = runtime.ensureDefined;
  runtime.ensureDefined = (val, lineno, colno) => (val === null ? val : ensureDefined(val, lineno, colno));
  // `+`, `*`, `~` and `%` as Python's: lists concatenate (JavaScript joined them into one string), `~` prints
  // each side with str(). The compiled template calls these through the runtime it is handed.
  runtime.pyAdd = pyAdd;
  runtime.pyConcat = pyConcat;
  runtime.pyMod = pyMod;
  runtime.pyMul = pyMul;
  runtime.pyEq = pyEq;
  // `in` by Python's equality and own keys (nunjucks' found "toString" in every mapping).
  runtime.inOperator = pyIn;
  const compiler = (nunjucks as unknown as { compiler: { Compiler: { prototype: Record<string, unknown> } } }).compiler.Compiler.prototype;
  const emitCall = (fn: string) => function (this: CompilerLike, node: BinOp, frame: unknown) {
    this._emit(`runtime.${fn}(`);
    this.compile(node.left, frame);
    this._emit(', ');
    this.compile(node.right, frame);
    this._emit(')');
  };
  compiler.compileAdd = emitCall('pyAdd');
  runtime.nsSet = nsSet;
  type SetNode = { targets: { target?: unknown; val?: unknown }[]; value: unknown };
  const compileSet = compiler.compileSet as (this: CompilerLike, node: SetNode, frame: unknown) => void;
  compiler.compileSet = function (this: CompilerLike, node: SetNode, frame: unknown) {
    const [t] = node.targets;
    if (node.targets.length !== 1 || t.target === undefined || t.val === undefined) return compileSet.call(this, node, frame);
    if (!node.value) refuse('{% set ns.name %}...{% endset %} is not supported; write {% set ns.name = value %}');
    this._emit('runtime.nsSet(');
    this.compile(t.target, frame);
    this._emit(', ');
    this.compile(t.val, frame);
    this._emit(', ');
    this.compile(node.value, frame);
    this._emit(');\n');
  };
  // -, /, //, ** and unary minus as Python's: 4 / 2 is the float 2.0, 7 // 2 the int 3, 1 / 0 an error.
  runtime.pyBinary = pyBinary;
  runtime.pyNeg = pyNeg;
  runtime.pyPos = pyPos;
  runtime.pyFloat = pyFloat;
  const emitBinary = (op: string) => function (this: CompilerLike, node: BinOp, frame: unknown) {
    this._emit(`runtime.pyBinary(${JSON.stringify(op)}, `);
    this.compile(node.left, frame);
    this._emit(', ');
    this.compile(node.right, frame);
    this._emit(')');
  };
  compiler.compileSub = emitBinary('-');
  compiler.compileDiv = emitBinary('/');
  compiler.compileFloorDiv = emitBinary('//');
  compiler.compilePow = emitBinary('**');
  const emitUnary = (fn: string) => function (this: CompilerLike, node: { target: unknown }, frame: unknown) {
    this._emit(`runtime.${fn}(`);
    this.compile(node.target, frame);
    this._emit(')');
  };
  compiler.compileNeg = emitUnary('pyNeg');
  compiler.compilePos = emitUnary('pyPos');
  // A float literal (2.0) stays a float: the parser marks the literal a float token made.
  const parser = (nunjucks as unknown as { parser: { Parser: { prototype: Record<string, unknown> } } }).parser.Parser.prototype;
  const parsePrimary = parser.parsePrimary as (this: { peekToken(): { type: string } | null }, noPostfix?: boolean) => { value?: unknown; target?: { value?: unknown } };
  parser.parsePrimary = function (this: { peekToken(): { type: string } | null }, noPostfix?: boolean) {
    const float = this.peekToken()?.type === 'float';
    const node = parsePrimary.call(this, noPostfix);
    if (float) {
      const literal = typeof node.value === 'number' ? node : node.target;
      if (literal && typeof literal.value === 'number') (literal as { pyFloat?: boolean }).pyFloat = true;
    }
    return node;
  };
  const compileLiteral = compiler.compileLiteral as (this: CompilerLike, node: { value: unknown; pyFloat?: boolean }, frame: unknown) => void;
  compiler.compileLiteral = function (this: CompilerLike, node: { value: unknown; pyFloat?: boolean }, frame: unknown) {
    if (node.pyFloat === true && typeof node.value === 'number') return this._emit(`runtime.pyFloat(${node.value})`);
    return compileLiteral.call(this, node, frame);
  };
  // A parenthesised list with commas is a tuple (a list here), not JavaScript's comma operator.
  const compileGroup = compiler.compileGroup as (this: CompilerLike, node: { children: unknown[] }, frame: unknown) => void;
  compiler.compileGroup = function (this: CompilerLike & { compileArray(n: unknown, f: unknown): void }, node: { children: unknown[] }, frame: unknown) {
    return node.children.length > 1 ? this.compileArray(node, frame) : compileGroup.call(this, node, frame);
  };
  compiler.compileConcat = emitCall('pyConcat');
  compiler.compileMod = emitCall('pyMod');
  compiler.compileMul = emitCall('pyMul');
  // Python's truth in {% if %}, `x if c else y`, `not`, `and`, `or`: [] and {} are false (JavaScript's are
  // true), and `a or b` hands back a or b as Python does.
  runtime.pyTruthy = pyTruthy;
  type Nodes = { Group: { extend(name: string): new (lineno: number, colno: number, children: unknown[]) => unknown } };
  const PyTruth = (nunjucks as unknown as { nodes: Nodes }).nodes.Group.extend('PyTruth');
  const truth = (n: { lineno: number; colno: number }) => new PyTruth(n.lineno, n.colno, [n]);
  compiler.compilePyTruth = function (this: CompilerLike, node: { children: unknown[] }, frame: unknown) {
    this._emit('runtime.pyTruthy(');
    this.compile(node.children[0], frame);
    this._emit(')');
  };
  for (const [method, field] of [['compileIf', 'cond'], ['compileInlineIf', 'cond'], ['compileNot', 'target']] as const) {
    const original = compiler[method] as (this: unknown, node: Record<string, unknown>, ...rest: unknown[]) => unknown;
    compiler[method] = function (this: unknown, node: Record<string, unknown>, ...rest: unknown[]) {
      if (!(node[field] instanceof PyTruth)) node[field] = truth(node[field] as { lineno: number; colno: number });
      return original.call(this, node, ...rest);
    };
  }
  const shortCircuit = (keepLeftWhenTrue: boolean) => function (this: CompilerLike, node: BinOp, frame: unknown) {
    this._emit('((pyT) => (');
    this._emit(keepLeftWhenTrue ? 'runtime.pyTruthy(pyT)' : '!runtime.pyTruthy(pyT)');
    this._emit(' ? pyT : (');
    this.compile(node.right, frame);
    this._emit(')))(');
    this.compile(node.left, frame);
    this._emit(')');
  };
  compiler.compileOr = shortCircuit(true);
  compiler.compileAnd = shortCircuit(false);
  // `==` and `!=` by Python's equality: JavaScript's compared lists by identity and "1" == 1.
  const compileCompare = compiler.compileCompare as (this: CompilerLike, node: CompareNode, frame: unknown) => void;
  compiler.compileCompare = function (this: CompilerLike, node: CompareNode, frame: unknown) {
    const op = node.ops.length === 1 ? node.ops[0].type : '';
    if (!['==', '!=', '===', '!=='].includes(op)) return compileCompare.call(this, node, frame);
    this._emit(op.startsWith('!') ? '!runtime.pyEq(' : 'runtime.pyEq(');
    this.compile(node.expr, frame);
    this._emit(', ');
    this.compile(node.ops[0].expr, frame);
    this._emit(')');
  };
  const callWrap = runtime.callWrap;
  runtime.callWrap = (obj, name, context, args) => checkValue(callWrap(checkValue(obj), name, context, args));
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
  e.globals = own({ range: pyRange, cycler: g.cycler, joiner: g.joiner, namespace });
  e.filters = own(e.filters);
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
  });
  e.tests = own(e.tests);
  return env;
}
