// The MCP stdio transport: newline-delimited JSON-RPC in, one line per message out; a message over the
// cap is dropped unread, answered with a JSON-RPC error when it is a request whose id can be found,
// and the messages after it are still read (issue 28 item 10: the SDK's transport closed instead).
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { INVALID_REQUEST, requestIdOf, StdioTransport } from '../../../src/mcp/stdio-transport.js';

function harness(maxMessageBytes: number | undefined) {
  const input = new PassThrough();
  const output = new PassThrough();
  const warnings: string[] = [];
  const received: unknown[] = [];
  const errors: string[] = [];
  let sent = '';
  output.on('data', (d) => { sent += String(d); });
  const t = new StdioTransport(input, output, { maxMessageBytes, warn: (m) => warnings.push(m) });
  t.onmessage = (m) => received.push(m);
  t.onerror = (e) => errors.push(e.message);
  const answers = () => sent.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
  return { input, t, warnings, received, errors, answers };
}
const flush = () => new Promise((r) => setImmediate(r));
const ping = (id: number) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })}\n`;

describe('MCP stdio transport', () => {
  it('reads messages split anywhere across chunks, and skips blank lines', async () => {
    const h = harness(1024);
    await h.t.start();
    const text = `${ping(1)}\n\r\n${ping(2)}`;
    for (let i = 0; i < text.length; i += 7) h.input.write(text.slice(i, i + 7));
    await flush();
    expect(h.received).toEqual([{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 2, method: 'ping' }]);
    expect(h.errors).toEqual([]);
  });

  it('an over-long request (the SDK client\'s key order) is answered with an error; the next message is read', async () => {
    const h = harness(1024);
    await h.t.start();
    const big = JSON.stringify({ method: 'tools/call', params: { name: 'search', arguments: { query: 'x'.repeat(5000) } }, jsonrpc: '2.0', id: 7 });
    for (let i = 0; i < big.length; i += 300) h.input.write(big.slice(i, i + 300));
    h.input.write(`\n${ping(8)}`);
    await flush();
    expect(h.answers()).toEqual([{ jsonrpc: '2.0', id: 7, error: { code: INVALID_REQUEST, message: `message too large: ${big.length} bytes; simgrep mcp reads messages of at most 1024 bytes, so this one was dropped unread (send less, e.g. a shorter query)` } }]);
    expect(h.warnings).toEqual([`a message of ${big.length} bytes is over the 1024 bytes limit and was dropped unread; answered request 7 with an error`]);
    expect(h.received).toEqual([{ jsonrpc: '2.0', id: 8, method: 'ping' }]);
  });

  it('the default cap is the SDK\'s 10 MiB, named in the answer', async () => {
    const h = harness(undefined);
    await h.t.start();
    const big = JSON.stringify({ jsonrpc: '2.0', id: 'q-1', method: 'tools/call', params: { query: 'y'.repeat(10 * 1024 * 1024) } });
    h.input.write(`${big}\n`);
    await flush();
    expect(h.answers()[0]).toMatchObject({ id: 'q-1', error: { code: INVALID_REQUEST, message: expect.stringContaining('at most 10 MiB (10485760 bytes)') } });
  });

  it('an over-long response or notification is dropped with a note and no answer', async () => {
    const h = harness(1024);
    await h.t.start();
    h.input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 3, result: { text: 'z'.repeat(3000) } })}\n`);
    h.input.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { text: 'z'.repeat(3000) } })}\n`);
    await flush();
    expect(h.answers()).toEqual([]);
    expect(h.warnings).toHaveLength(2);
    expect(h.warnings[0]).toMatch(/dropped unread \(no request id found: nothing to answer\)$/);
  });

  it('a line that is not JSON-RPC is an error for the server to log, and reading goes on', async () => {
    const h = harness(1024);
    await h.t.start();
    h.input.write(`not json\n${ping(4)}`);
    await flush();
    expect(h.errors).toHaveLength(1);
    expect(h.received).toEqual([{ jsonrpc: '2.0', id: 4, method: 'ping' }]);
  });

  const ids: [string, string, string | number | undefined][] = [
    ['{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"q":"', '"}}', 12],
    ['{"method":"tools/call","params":{"q":"', '"},"jsonrpc":"2.0","id":"abc"}', 'abc'],
    ['{"method":"tools/call","params":{"q":"', '","id":5}},"jsonrpc":"2.0","id":6}', 6],
    ['{"jsonrpc":"2.0","id":12,"result":{"q":"', '"}}', undefined],
    ['{"jsonrpc":"2.0","method":"notify","params":{"q":"', '"}}', undefined],
    ['garbage', 'garbage', undefined],
  ];
  it.each(ids)('the request id of %s…%s is %j', (head, tail, id) => {
    expect(requestIdOf(head, tail)).toBe(id);
  });
});
