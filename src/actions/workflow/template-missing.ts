// What an undefined value printed in a template was: the last member lookup that found nothing, so the
// stop says Jinja's words ('dict object' has no attribute 'x') and how to fix it, where nunjucks said
// only "attempted to output null or undefined value".
import { typeName } from './py-methods.js';
import { isTuple, pyStr } from './py-values.js';

let last: { what: string | null; key: string | number } | undefined;

/** A lookup of key on obj found nothing (the value is undefined): remember what, for the stop. */
export function noteMissing(obj: unknown, key: unknown): void {
  const what = obj === null || obj === undefined ? 'NoneType' : isTuple(obj) ? 'tuple' : typeName(obj);
  last = typeof key === 'string' || typeof key === 'number' ? { what, key } : undefined;
}

/** A bare name found nowhere. */
export function noteMissingName(name: string): void {
  last = { what: null, key: name };
}

/** Anything else that may hand out an undefined value (a name, a call): the last miss is not its cause. */
export function forgetMissing(): void {
  last = undefined;
}

/** The message for an undefined value printed: Jinja's UndefinedError text where the lookup is known. */
export function undefinedMessage(nunjucksMessage: string): string {
  const miss = last;
  last = undefined;
  if (miss === undefined) return `${nunjucksMessage} (an undefined value: check the name, or add | default(...))`;
  if (miss.what === null) return `${pyStr([miss.key]).slice(1, -1)} is undefined (check the name, or add | default(...))`;
  if (typeof miss.key === 'number') return `${miss.what} object has no element ${miss.key} (add | default(...))`;
  const repr = pyStr([miss.key]).slice(1, -1);
  const get = miss.what === 'dict' ? ` or read it with .get(${repr}), which is None` : '';
  return `'${miss.what} object' has no attribute ${repr} (add | default(...)${get})`;
}
