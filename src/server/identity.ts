// What a client and a server must share for the server's answer to be the client's own: the protocol,
// simgrep's version, the model (a local directory by its real path) and the embedder.
import { existsSync, realpathSync } from 'node:fs';
import { defaultModelSpec } from '../model/default-model.js';
import { simgrepVersion } from '../version.js';
import { PROTOCOL, type Identity } from './protocol.js';

export function identityOf(o: { model?: string; embedder?: string }): Identity {
  const spec = o.model ?? defaultModelSpec();
  return { protocol: PROTOCOL, version: simgrepVersion(), model: existsSync(spec) ? realpathSync(spec) : spec, embedder: o.embedder ?? null };
}

/** Why a client's request cannot be answered here (null: it can). */
export function mismatch(server: Identity, client: Identity): string | null {
  if (client.protocol !== server.protocol || client.version !== server.version) return `it runs simgrep ${server.version}, this is ${client.version}`;
  if (client.model !== server.model) return `it serves model ${server.model}, not ${client.model}`;
  if (client.embedder !== server.embedder) return `it embeds with ${server.embedder ?? 'the default embedder'}, not ${client.embedder ?? 'the default embedder'}`;
  return null;
}
