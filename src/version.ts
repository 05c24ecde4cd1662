// simgrep's own version (package.json), read once: the CLI prints it and cluster jobs carry it.
import { readFileSync } from 'node:fs';

let cached: string | null = null;

export function simgrepVersion(): string {
  // From src/ or dist/src/, package.json is one or two levels up; both layouts are tried.
  if (cached) return cached;
  for (const rel of ['../../package.json', '../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version: string };
      if (pkg.name === 'simgrep') return (cached = pkg.version);
    } catch { /* try the other layout */ }
  }
  return (cached = '0.0.0');
}
