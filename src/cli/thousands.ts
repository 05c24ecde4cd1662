// Counts with thousands separators, as toLocaleString('en-US') writes them, without it: its first
// call loads ICU's locale data (12-17 ms of every `simgrep index` and `--stats` run).

/** `n` rounded to a whole number, with a comma every three digits ("1,234,567"). */
export function thousands(n: number): string {
  const whole = Math.round(n);
  const digits = String(Math.abs(whole)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return whole < 0 ? `-${digits}` : digits;
}
