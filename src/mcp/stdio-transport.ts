// The MCP server's stdio transport: the line transport (line-transport.ts: a message over the size cap
// is answered with an error and the server keeps serving) with each line checked by the SDK against
// the JSON-RPC schema, as the SDK's own StdioServerTransport does.
import type { Readable, Writable } from 'node:stream';
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { LineTransport, type LineTransportOptions } from './line-transport.js';

export { INVALID_REQUEST, requestIdOf } from './line-transport.js';

export type StdioTransportOptions = Omit<LineTransportOptions, 'parse'>;

export class StdioTransport extends LineTransport {
  constructor(input: Readable, output: Writable, o: StdioTransportOptions = {}) {
    super(input, output, { ...o, parse: deserializeMessage });
  }
}
