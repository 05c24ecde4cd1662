// The places outside the root that the MCP server itself knows (the home directory, $SIMGREP_HOME and
// its workspaces, the caches, the model's folder, the temp and socket directories, the working
// directory), in every form a message may name them: the path, its real path, its file: URL and its
// percent-encoded form. Redaction replaces these as exact strings first, so a path with spaces or
// punctuation in one of them (/home/John Smith's home/...) goes whole, not word by word.
import { realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { hubCacheDir } from '../model/hf-env.js';
import { simgrepCacheDir } from '../model/tokenizer-file.js';
import { bundledModelDir, defaultModelSpec } from '../model/default-model.js';
import { expandHome, looksLikePath } from '../model/resolve.js';
import { socketDir } from '../server/socket-path.js';
import { simgrepHome, workspacesDir } from '../workspace/registry.js';
import { isInside } from './scope.js';

/** A model spec that names a local directory (as model/resolve.ts reads one), made absolute; null for a Hugging Face id. */
function localModelDir(spec: string): string | null {
  return looksLikePath(spec) ? path.resolve(expandHome(spec)) : null;
}

function real(p: string): string | null {
  try { return realpathSync.native(p); } catch { return null; }
}

/** The forms of one place a message may hold: as given, real, as a file: URL, percent-encoded. */
function formsOf(p: string): string[] {
  const forms = new Set<string>();
  for (const q of [p, real(p)]) {
    if (!q) continue;
    forms.add(q);
    const url = pathToFileURL(q).href;
    forms.add(url);
    forms.add(`file://${q}`);
    forms.add(encodeURIComponent(q));
    forms.add(encodeURI(q));
  }
  return [...forms];
}

/** `p` and every folder above it, but not the filesystem's root (`/`, `C:\\`). */
function withAncestors(p: string): string[] {
  const out: string[] = [];
  for (let q = p; path.parse(q).root !== q; q = path.dirname(q)) out.push(q);
  return out;
}

/**
 * The places outside the root this process knows and the folders above them, longest first, in each of
 * their forms. A place that is the root or lies inside it is left out (the root's own paths show), and so
 * is a filesystem's root.
 */
export function outsidePlaces(o: { root: string; rootGiven?: string; model?: string; env?: NodeJS.ProcessEnv }): string[] {
  const env = o.env ?? process.env;
  const model = localModelDir(o.model ?? defaultModelSpec());
  const cache = simgrepCacheDir(env);
  const places = [
    os.homedir(), simgrepHome(env), workspacesDir(env), hubCacheDir(env), cache, os.tmpdir(), socketDir(env),
    // The package's own folder (the bundled model's: ~/.nvm/.../simgrep), the working directory.
    model, path.resolve(bundledModelDir(), '..', '..', '..', '..'), process.cwd(),
  ].filter((p): p is string => typeof p === 'string' && p !== '').map((p) => path.resolve(p));
  const roots = [o.root, o.rootGiven, real(o.root)].filter((r): r is string => !!r);
  // With the folders that hold them (/home/John Smith's home holds its .simgrep): a message may name one.
  // The folders above a place's real path too (a home that is a link to /data/Real Place/John Smith).
  const kept = [...new Set(places.flatMap((p) => [p, real(p)]).filter((p): p is string => !!p).flatMap(withAncestors))].filter((p) => !roots.some((r) => isInside(r, p)));
  return [...new Set(kept.flatMap(formsOf))]
    .filter((f) => f.length > 1 && !roots.some((r) => isInside(r, f)))
    .sort((a, b) => b.length - a.length);
}
