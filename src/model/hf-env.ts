// The huggingface_hub environment variables, read in one place and at call time (so tests and long
// runs see changes): cache location, endpoint, offline switch and token.
import os from 'node:os';
import path from 'node:path';

type Env = Record<string, string | undefined>;

const TRUE_VALUES = new Set(['1', 'ON', 'YES', 'TRUE']);

function expandHome(p: string): string {
  if (p === '~') return os.homedir();
  if (p.startsWith('~/') || p.startsWith('~\\')) return path.join(os.homedir(), p.slice(2));
  return p;
}

function nonEmpty(v: string | undefined): string | undefined {
  return v !== undefined && v.trim() !== '' ? v : undefined;
}

/** `$HF_HUB_CACHE`, else `$HF_HOME/hub`, else `$XDG_CACHE_HOME/huggingface/hub`, else `~/.cache/huggingface/hub`. */
export function hubCacheDir(env: Env = process.env): string {
  const explicit = nonEmpty(env.HF_HUB_CACHE) ?? nonEmpty(env.HUGGINGFACE_HUB_CACHE);
  if (explicit) return path.resolve(expandHome(explicit));
  const xdg = nonEmpty(env.XDG_CACHE_HOME);
  const home = nonEmpty(env.HF_HOME) ?? path.join(xdg ? expandHome(xdg) : path.join(os.homedir(), '.cache'), 'huggingface');
  return path.resolve(expandHome(home), 'hub');
}

/** Hub base URL without a trailing slash. */
export function hubEndpoint(env: Env = process.env): string {
  return (nonEmpty(env.HF_ENDPOINT) ?? 'https://huggingface.co').replace(/\/+$/, '');
}

/** huggingface_hub semantics: HF_HUB_OFFLINE in {1, ON, YES, TRUE}, case-insensitive. */
export function hubOffline(env: Env = process.env): boolean {
  const v = nonEmpty(env.HF_HUB_OFFLINE);
  return v !== undefined && TRUE_VALUES.has(v.trim().toUpperCase());
}

/** Only the environment is consulted: simgrep never reads token files. */
export function hubToken(env: Env = process.env): string | undefined {
  return nonEmpty(env.HF_TOKEN) ?? nonEmpty(env.HUGGING_FACE_HUB_TOKEN);
}
