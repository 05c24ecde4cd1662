// A TCP proxy on 127.0.0.1 in front of a real server: it records each request line it forwards and
// lets a test act on one (hold it, cut its reply after so many bytes, or cut everything as if the
// server had died).
import net from 'node:net';

export interface Proxy {
  endpoint: string;
  /** "GET /bucket?list-type=2…" for each request seen, in order. */
  requests: string[];
  /** Closes the listener and every connection: clients then see resets and refused connections. */
  cut(): void;
  close(): Promise<void>;
}

export interface ProxyOptions {
  /**
   * Bytes of the reply to this request (headers included) to pass on before the connection is reset,
   * as a network that fails mid-body; undefined: the whole reply.
   */
  cutReplyAfter?: (line: string) => number | undefined;
}

/** `onRequest` may return a promise to hold that request (and its connection) until it resolves. */
export async function startProxy(targetPort: number, onRequest?: (line: string, proxy: Proxy) => void | Promise<void>, o: ProxyOptions = {}): Promise<Proxy> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    const drop = () => { client.destroy(); upstream.destroy(); sockets.delete(client); sockets.delete(upstream); };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    /** Reply bytes still to pass on before the cut (undefined: no cut asked for). */
    let budget: number | undefined;
    upstream.on('data', (chunk: Buffer) => {
      if (budget !== undefined && chunk.length >= budget) {
        const head = chunk.subarray(0, budget);
        budget = undefined;
        upstream.destroy();
        // A reset (RST) once the bytes before the cut are out, as a failed network shows it.
        client.write(head, () => client.resetAndDestroy());
        return;
      }
      if (budget !== undefined) budget -= chunk.length;
      if (!client.write(chunk)) { upstream.pause(); client.once('drain', () => upstream.resume()); }
    });
    upstream.on('end', () => client.end());
    let chain = Promise.resolve();
    client.on('data', (chunk: Buffer) => {
      const lines = [...chunk.toString('latin1').matchAll(/^(GET|HEAD|PUT|POST|DELETE) (\S+) HTTP\/1\.[01]\r$/gm)].map((m) => `${m[1]} ${m[2]}`);
      chain = chain.then(async () => {
        for (const line of lines) {
          proxy.requests.push(line);
          await onRequest?.(line, proxy);
          const cut = o.cutReplyAfter?.(line);
          if (cut !== undefined) budget = cut;
        }
        if (!upstream.destroyed) upstream.write(chunk);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const proxy: Proxy = {
    endpoint: `http://127.0.0.1:${port}`,
    requests: [],
    cut() {
      server.close();
      for (const s of sockets) s.destroy();
    },
    close() {
      proxy.cut();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}
