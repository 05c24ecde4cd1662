// The CLI's bundle (npm run bundle-cli): src/cli/main.ts (the entry: mcp-early.ts, then cli.ts) and what it imports, split where a command is
// loaded on demand (docs/architecture.md, "Build and start-up"). Packages stay external (loaded from
// node_modules at run time) but those in BUNDLED, which go in with the packages they import: the MCP
// engine's SDK, zod and Ajv are ~240 small ES and CommonJS module files (esbuild's count) that Node resolves, reads and links one
// by one before the engine listens, ~0.2 s of an agent's first answer (branch first33); bundled, ~0.1 s.
// Not a package with native code, a worker file loaded by path (piscina) or data read beside its code.
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
  plugins: [{
    name: 'external-packages',
    setup(b) {
      // A bare import from simgrep's own code stays external unless BUNDLED; one from inside node_modules
      // is a bundled package's own dependency, bundled with it.
      b.onResolve({ filter: /^[^./]/ }, (a) => {
        if (a.path.startsWith('node:') || /[\\/]node_modules[\\/]/.test(a.importer)) return undefined;
        return BUNDLED.has(packageOf(a.path)) ? undefined : { path: a.path, external: true };
      });
    },
  }],
});
