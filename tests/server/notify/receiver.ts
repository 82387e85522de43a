import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Receiver {
  url: string;
  port: number;
  status: number;
  hits: Array<{ path: string; headers: IncomingHttpHeaders; body: string }>;
  close(): Promise<void>;
}

/**
 * A real HTTP receiver answering `status`, keeping every request by path. On 127.0.0.2 by default:
 * the address the tests allow (WEBHOOK_ALLOW), apart from the loopback the guard refuses; `'::'`
 * listens on every address of both families (a trap any refused loopback form would reach).
 */
export async function receiver(status: number, host = '127.0.0.2'): Promise<Receiver> {
  const hits: Receiver['hits'] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hits.push({ path: req.url ?? '', headers: req.headers, body });
      res.statusCode = r.status;
      res.end();
    });
  });
  await new Promise<void>((done) => server.listen(0, host, done));
  const port = (server.address() as AddressInfo).port;
  // Keep-alive sockets the client left open must not keep the server (and jest) alive.
  const r: Receiver = {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    status,
    hits,
    close: () => new Promise<void>((done) => server.close(() => done()).closeAllConnections()),
  };
  return r;
}
