// How much one template may build: a repetition or a printf width past these is a template error that
// says what to change, where Python would build it (or raise MemoryError) and Node would abort the whole
// run (a list of 1e9 items ran the heap out: signal 6) or throw a bare "Invalid string length".

/** Items in a list a template builds (`[0] * n`): far over any real workflow's, far under the heap. */
export const MAX_TEMPLATE_ITEMS = 10_000_000;
/** Characters in a string a template builds (`"=" * n`, `"%999999999d"`): 64 MiB. */
export const MAX_TEMPLATE_CHARS = 64 * 1024 * 1024;

/** The error for a value over a bound: what would be built, the bound, and what to change. */
export function tooLarge(what: string, size: number, max: number, unit: string, fix: string): Error {
  const n = (x: number) => x.toLocaleString('en-US');
  return new Error(`MemoryError: ${what} would make ${n(size)} ${unit}, over the ${n(max)} ${unit} a template may build; ${fix}`);
}
