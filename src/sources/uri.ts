// Tells remote URIs from local paths, parses the schemes simgrep reads, and redacts secrets from a
// URI before it is shown. Kept free of heavy imports: the CLI loads it on every run.
import { SimgrepError } from '../errors.js';

export type RemoteUri =
  | { scheme: 's3'; uri: string; bucket: string; key: string }
  | { scheme: 'az'; uri: string; container: string; key: string }
  | { scheme: 'gs'; uri: string; bucket: string; key: string }
  | { scheme: 'http'; uri: string; url: URL };

export const SUPPORTED_SCHEMES = ['s3://', 'https://', 'http://', 'az://', 'gs://'] as const;

const URI_RE = /^([a-z][a-z0-9+.-]*):\/\//i;
const SECRET_PARAM = /^(sig|signature|x-amz-signature|x-amz-credential|x-amz-security-token|token|access_token|api_key|apikey|key|secret|password|code)$/i;

/** True for scheme://… (a Windows drive path such as C:\x has no //, so it stays local). */
export function isRemoteUri(p: string): boolean {
  return URI_RE.test(p);
}

/** Parses a remote URI; throws UNSUPPORTED_SCHEME or BAD_FLAG saying what works (the caller names the URI). */
export function parseRemoteUri(uri: string): RemoteUri {
  const scheme = URI_RE.exec(uri)?.[1].toLowerCase();
  if (scheme === 's3' || scheme === 'az' || scheme === 'gs') {
    const rest = uri.slice(scheme.length + 3);
    const slash = rest.indexOf('/');
    const name = slash < 0 ? rest : rest.slice(0, slash);
    const key = slash < 0 ? '' : rest.slice(slash + 1);
    const what = scheme === 'az' ? 'container' : 'bucket';
    if (!name) throw new SimgrepError('BAD_FLAG', `no ${what} name; write ${scheme}://${what}/prefix/`);
    return scheme === 'az' ? { scheme, uri, container: name, key } : { scheme, uri, bucket: name, key };
  }
  if (scheme === 'http' || scheme === 'https') {
    let url: URL;
    try { url = new URL(uri); } catch {
      throw new SimgrepError('BAD_FLAG', 'not a valid URL');
    }
    return { scheme: 'http', uri, url };
  }
  throw new SimgrepError('UNSUPPORTED_SCHEME',
    `simgrep cannot read ${scheme}:// sources; it reads local paths and ${SUPPORTED_SCHEMES.join(', ')} URIs (copy the files locally or to one of those stores)`);
}

/** The URI with any password and secret-looking query values replaced by "***" (signed URLs, SAS). */
export function redactUri(uri: string): string {
  let out = uri.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/@?#:]*):[^/@?#]*@/i, '$1:***@');
  const q = out.indexOf('?');
  if (q >= 0) {
    const hash = out.indexOf('#', q);
    const end = hash < 0 ? out.length : hash;
    const query = out.slice(q + 1, end).split('&').map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      let name = pair.slice(0, eq);
      try { name = decodeURIComponent(name); } catch { /* keep as is */ }
      return SECRET_PARAM.test(name) ? `${pair.slice(0, eq)}=***` : pair;
    }).join('&');
    out = `${out.slice(0, q + 1)}${query}${out.slice(end)}`;
  }
  return out;
}

/**
 * `s` without the slashes it ends with, in one pass from the end. `s.replace(/\/+$/, '')` tries every slash of a run
 * that does not end the string, each to the run's end: time quadratic in the run (8 s for 50,000 slashes).
 */
export function withoutTrailingSlashes(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 0x2f) end--;
  return s.slice(0, end);
}
