/**
 * A WebSocket client for tests, over `ws` (installed with @fastify/websocket; it ships no types,
 * so the little used here is typed by hand).
 */
interface WsLike {
  readonly protocol: string;
  on(event: 'open', fn: () => void): void;
  on(event: 'message', fn: (data: Buffer) => void): void;
  on(event: 'close', fn: (code: number, reason: Buffer) => void): void;
  on(event: 'error', fn: (e: Error) => void): void;
  on(event: 'unexpected-response', fn: (req: unknown, res: { statusCode: number }) => void): void;
  send(data: string): void;
  close(): void;
}
type WsCtor = new (url: string, protocols?: string[]) => WsLike;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- untyped CommonJS module
const WebSocketImpl = require('ws') as WsCtor;

export interface TestSocket {
  messages: Array<{ type: string; [k: string]: unknown }>;
  protocol: string;
  send(data: unknown): void;
  close(): void;
  /** How the server closed the socket, once it has. */
  closed: Promise<{ code: number; reason: string }>;
  /** Waits until `check` holds over the received messages. */
  until(check: (messages: TestSocket['messages']) => boolean, timeoutMs?: number): Promise<void>;
}

/** Opens a socket; rejects with the HTTP status when the upgrade is refused. */
export function openSocket(url: string, protocols?: string[]): Promise<TestSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocketImpl(url, protocols);
    const messages: TestSocket['messages'] = [];
    const closed = new Promise<{ code: number; reason: string }>((done) =>
      ws.on('close', (code, reason) => done({ code, reason: reason.toString('utf8') })),
    );
    ws.on('message', (d) => messages.push(JSON.parse(d.toString('utf8'))));
    ws.on('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.on('error', reject);
    ws.on('open', () =>
      resolve({
        messages,
        protocol: ws.protocol,
        send: (data) => ws.send(JSON.stringify(data)),
        close: () => ws.close(),
        closed,
        async until(check, timeoutMs = 5000) {
          const deadline = Date.now() + timeoutMs;
          while (!check(messages)) {
            if (Date.now() > deadline) throw new Error(`condition not met; got ${JSON.stringify(messages).slice(0, 500)}`);
            await new Promise((r) => setTimeout(r, 20));
          }
        },
      }),
    );
  });
}

/** How the server closed the socket, or an error once `ms` have gone by with it still open. */
export function closedWithin(socket: TestSocket, ms = 10_000): Promise<{ code: number; reason: string }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`socket still open after ${ms} ms`)), ms)));
  return Promise.race([socket.closed, late]).finally(() => clearTimeout(timer));
}

export interface BinarySocket {
  /** Every binary message received, in order. */
  chunks: Buffer[];
  close(): void;
  closed: Promise<{ code: number; reason: string }>;
  /** Waits until `check` holds over the bytes received so far. */
  until(check: (bytes: Buffer) => boolean, timeoutMs?: number): Promise<Buffer>;
}

/** Opens a socket that receives binary messages (video); rejects with the HTTP status when refused. */
export function openBinarySocket(url: string): Promise<BinarySocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocketImpl(url);
    const chunks: Buffer[] = [];
    const closed = new Promise<{ code: number; reason: string }>((done) =>
      ws.on('close', (code, reason) => done({ code, reason: reason.toString('utf8') })),
    );
    ws.on('message', (d) => chunks.push(Buffer.from(d)));
    ws.on('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.on('error', reject);
    ws.on('open', () =>
      resolve({
        chunks,
        close: () => ws.close(),
        closed,
        async until(check, timeoutMs = 10_000) {
          const deadline = Date.now() + timeoutMs;
          for (;;) {
            const bytes = Buffer.concat(chunks);
            if (check(bytes)) return bytes;
            if (Date.now() > deadline) throw new Error(`condition not met; ${bytes.length} bytes received`);
            await new Promise((r) => setTimeout(r, 20));
          }
        },
      }),
    );
  });
}
