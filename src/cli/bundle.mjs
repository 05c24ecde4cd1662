// The bundles (npm run bundle, after tsc): the CLI's and the worker threads'.
// The CLI's: src/cli/main.ts (the entry: mcp-early.ts, then cli.ts) and what it imports, split where a command is
// loaded on demand (docs/architecture.md, "Build and start-up"). Packages stay external (loaded from
// node_modules at run time) but those in BUNDLED, which go in with the packages they import: the MCP
// engine's SDK, zod and Ajv are ~240 small ES and CommonJS module files (esbuild's count) that Node resolves, reads and links one
// by one before the engine listens, ~0.2 s of an agent's first answer (branch first33); bundled, ~0.1 s.
// Not a package with native code, a worker file loaded by path (piscina) or data read beside its code.
// The workers': each worker entry (workers/embed.worker.ts, workers/stat.worker.ts) and what it imports in one
// file, written over tsc's dist/workers/<name>.js, which the library, the CLI and the tests all load by path
// (src/worker-file.ts): each pool thread resolved, read and linked 57 module files after Node's bootstrap,
// before it could take a task, ~85 ms of its CPU; one file, ~35-50 ms (branch boot35). Every package stays
// external there.
import { readdirSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const BUNDLED = new Set(['@modelcontextprotocol/sdk', 'zod', 'ajv', 'ajv-formats']);

/** The package a bare import names: `@scope/name` or `name`. */
function packageOf(spec) {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const out = 'dist/src/cli';
for (const f of readdirSync(out)) if (f.startsWith('bundle-') || f === 'main.js.map') rmSync(`${out}/${f}`);

const externalPackages = (bundled) => ({
  name: 'external-packages',
  setup(b) {
    // A bare import from simgrep's own code stays external unless bundled; one from inside node_modules
    // is a bundled package's own dependency, bundled with it.
    b.onResolve({ filter: /^[^./]/ }, (a) => {
      if (a.path.startsWith('node:') || /[\\/]node_modules[\\/]/.test(a.importer)) return undefined;
      return bundled.has(packageOf(a.path)) ? undefined : { path: a.path, external: true };
    });
  },
});

await build({
  entryPoints: ['src/cli/main.ts'],
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outdir: out,
  chunkNames: 'bundle-[name]-[hash]',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [externalPackages(BUNDLED)],
});

await build({
  entryPoints: ['workers/embed.worker.ts', 'workers/stat.worker.ts'],
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outdir: 'dist/workers',
  allowOverwrite: true,
  sourcemap: true,
  logLevel: 'warning',
  plugins: [externalPackages(new Set())],
});
