/**
 * A child process for bench/video-channels.bench.ts: camera terminals (each streams the shipped
 * test clip on every channel a 0x9101 asks for, as the simulator does) and browser-like viewers of
 * the media server's FLV over WebSocket, so neither takes the server's core. Receives its plan as
 * the first IPC message; 'watch' opens the viewers of the stream URLs it is given and answers once
 * every viewer got its first picture; 'stats' answers the bytes and messages each viewer got so far.
 */

import { SimTerminal } from '../../server/simulator/terminal';
import { attachCamera } from '../../server/simulator/camera';

interface WsLike {
  on(event: 'open', fn: () => void): void;
  on(event: 'message', fn: (data: Buffer) => void): void;
  on(event: 'close', fn: () => void): void;
  on(event: 'error', fn: (e: Error) => void): void;
  close(): void;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- untyped CommonJS module (installed with @fastify/websocket)
const WebSocketImpl = require('ws') as new (url: string) => WsLike;

export interface VideoClientPlan {
  host: string;
  port: number;
  phones: string[];
}

export interface ViewerStats {
  /** ms from opening the socket to its first FLV video tag (type 9) past the header. */
  firstPictureMs: number | null;
  bytes: number;
  messages: number;
  closed: boolean;
}

export type VideoClientMessage =
  | { type: 'connected'; terminals: number }
  | { type: 'watching'; viewers: ViewerStats[] }
  | { type: 'stats'; viewers: ViewerStats[]; rssBytes: number };

/** An FLV stream's first video tag: after the 9-byte header and 4-byte tag size, tag type 9. */
const hasVideoTag = (first: Buffer) => first.length > 0 && (first[0] === 9 || (first.length > 13 && first[13] === 9));

function view(url: string): { stats: ViewerStats; picture: Promise<void>; close(): void } {
  const ws = new WebSocketImpl(url);
  const opened = Date.now();
  const stats: ViewerStats = { firstPictureMs: null, bytes: 0, messages: 0, closed: false };
  const picture = new Promise<void>((resolve, reject) => {
    ws.on('message', (d) => {
      stats.bytes += d.length;
      stats.messages++;
      if (stats.firstPictureMs === null && hasVideoTag(d)) {
        stats.firstPictureMs = Date.now() - opened;
        resolve();
      }
    });
    ws.on('close', () => {
      stats.closed = true;
      reject(new Error('the stream closed before its first picture'));
    });
    ws.on('error', reject);
  });
  picture.catch(() => undefined); // awaited by 'watch'; a later close is only counted
  return { stats, picture, close: () => ws.close() };
}

async function main(plan: VideoClientPlan): Promise<void> {
  const send = (m: VideoClientMessage) => process.send!(m);
  const terminals = plan.phones.map((phone) => new SimTerminal({ host: plan.host, port: plan.port, phone }));
  terminals.forEach((t, i) => attachCamera(t, plan.phones[i]));
  await Promise.all(terminals.map((t) => t.connect()));
  send({ type: 'connected', terminals: terminals.length });
  const viewers: Array<ReturnType<typeof view>> = [];
  process.on('message', (m: { type: string; urls?: string[] }) => {
    if (m.type === 'watch') {
      const added = (m.urls ?? []).map(view);
      viewers.push(...added);
      void Promise.all(added.map((v) => v.picture)).then(
        () => send({ type: 'watching', viewers: added.map((v) => v.stats) }),
        () => send({ type: 'watching', viewers: added.map((v) => v.stats) }),
      );
    }
    if (m.type === 'stats') send({ type: 'stats', viewers: viewers.map((v) => v.stats), rssBytes: process.memoryUsage().rss });
    if (m.type === 'stop') {
      for (const v of viewers) v.close();
      for (const t of terminals) t.destroy();
      setTimeout(() => process.exit(0), 100);
    }
  });
}

process.once('message', (m: { type: string; plan: VideoClientPlan }) => {
  void main(m.plan).catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
});
