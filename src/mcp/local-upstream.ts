// The in-process MCP server as a front's upstream (front.ts): where the resident engine cannot be
// reached, the front hands its messages to a server in its own process, checked against the
// JSON-RPC schema as the stdio transport checks them. Loads the SDK (and, on first search, the model).
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Upstream } from './front.js';
import { createMcpServer } from './server.js';
import type { ToolRunner } from './tools.js';

export async function createLocalUpstream(o: { tools: ToolRunner; version: string; note: (m: string) => void }): Promise<Upstream & { closed: Promise<void> }> {
  const server = createMcpServer({ tools: o.tools, version: o.version });
  server.server.onerror = (e) => o.note(e.message);
  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => { resolveClosed = r; });
  const up: Upstream & { closed: Promise<void> } = {
    closed,
    send(message) {
      let checked: JSONRPCMessage;
      try { checked = JSONRPCMessageSchema.parse(message); } catch (e) { o.note((e as Error).message); return; }
      transport.onmessage?.(checked);
    },
    close() { void server.close().then(resolveClosed, resolveClosed); },
  };
  const transport: Transport = {
    async start() {},
    async send(message) { up.onmessage?.(message); },
    async close() { transport.onclose?.(); },
  };
  await server.connect(transport);
  return up;
}
