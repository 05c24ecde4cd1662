// simgrep's own version (package.json), read once: the CLI prints it and cluster jobs carry it.
import { readFileSync } from 'node:fs';

let cached: string | null = null;

export function simgrepVersion(): string {
  // From src/, dist/src/ or the bundled CLI in dist/src/cli/, package.json is one to three levels up.
  if (cached) return cached;
  for (const rel of ['../../package.json', '../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version: string };
      if (pkg.name === 'simgrep') return (cached = pkg.version);
    } catch { /* try the other layout */ }
  }
  return (cached = '0.0.0');
}
