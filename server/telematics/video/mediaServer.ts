/**
 * The JT/T 1078 media server: terminals asked to stream (0x9101) or to play a recording back (0x9201)
 * connect here over TCP and send media packets; each channel's packets are reassembled into frames
 * and handed to the live channels, or to the playback waiting for that channel (the first connection
 * bringing a channel with a playback waiting is that playback's: a playback always has a connection
 * of its own).
 * A connection is refused (closed, the reason logged) when its bytes are no media packets, when it
 * sends a channel nobody asked for, or when it changes its SIM number; a single bad packet is
 * dropped with its reason. A connection silent for `idleMs` is closed, and its channels' viewers told.
 * While a channel streams, its terminal is told the channel's packet loss every few seconds (0x9105,
 * the platform's transmission status notice of JT/T 1078).
 */

import net from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { FrameAssembler } from './frameAssembler';
import { channelId, type ChannelKey, type LiveChannels } from './liveChannels';
import type { PlaybackFeed, Playbacks } from './playbacks';
import { RtpStreamReader, type MediaPacket } from './rtpPacket';

/** The terminal a media packet's SIM number names (its terminal number or SIM, leading zeros aside), or null. */
export type ResolveTerminal = (sim: string) => Promise<number | null>;

export interface MediaServerOptions {
  channels: LiveChannels;
  /** Recorded playbacks; none when absent. */
  playbacks?: Playbacks;
  resolve: ResolveTerminal;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  /** A connection without a byte for this long is closed, ms. */
  idleMs?: number;
  /**
   * The transmission status notice (0x9105) of a channel streaming to us: its packet loss since the
   * last notice, percent. Sent every `statusEveryMs` while the channel streams.
   */
  status?: (key: ChannelKey, lossRate: number) => void;
  statusEveryMs?: number;
}

/** How often a streaming channel's terminal is told its loss rate (0x9105), ms. */
export const STATUS_EVERY_MS = 5000;

/** Packets held while the SIM is looked up (a terminal sends a few hundred a second at most). */
const MAX_WAITING = 2000;

export interface MediaServerStats {
  connections: number;
  packets: number;
  refusedPackets: number;
  refusedConnections: number;
  lostPackets: number;
}

export class MediaServer {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  /** The connection feeding each channel: a terminal that reconnects replaces its old one. */
  private readonly feeds = new Map<string, net.Socket>();
  readonly stats: MediaServerStats = { connections: 0, packets: 0, refusedPackets: 0, refusedConnections: 0, lostPackets: 0 };

  constructor(private readonly opts: MediaServerOptions) {
    this.server = net.createServer((socket) => this.connection(socket));
  }

  async listen(port: number, host?: string): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      // Exclusive: in a gateway worker the port is this process's own, not shared by node:cluster.
      this.server.listen({ port, host, exclusive: true }, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    return (this.server.address() as net.AddressInfo).port;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private connection(socket: net.Socket): void {
    this.stats.connections++;
    this.sockets.add(socket);
    const remote = `${socket.remoteAddress}:${socket.remotePort}`;
    const reader = new RtpStreamReader();
    const assemblers = new Map<number, FrameAssembler>();
    /** The playback each channel of this connection feeds (channels absent here are live). */
    const feeds = new Map<number, PlaybackFeed | null>();
    const { channels, log } = this.opts;
    let sim: string | null = null;
    let terminalId: number | null = null;
    /** Packets read while the first one's SIM is looked up. */
    let waiting: MediaPacket[] | null = null;
    /** Why the connection ended, when not simply closed by the terminal. */
    let endReason: string | null = null;

    const refuse = (reason: string, extra: object = {}): void => {
      this.stats.refusedConnections++;
      endReason = `media connection refused: ${reason}`;
      log.warn({ remote, sim, terminalId, ...extra, reason }, 'jt1078 media connection refused');
      socket.destroy();
    };

    const take = (p: MediaPacket, id: number): void => {
      const key: ChannelKey = { terminalId: id, channel: p.channel };
      let feed = feeds.get(p.channel);
      if (feed === undefined) {
        feed = this.opts.playbacks?.claim(key, () => socket.destroy()) ?? null;
        feeds.set(p.channel, feed);
      }
      if (!feed) {
        if (!channels.accepts(key)) return refuse('no stream was asked of this channel', { channel: p.channel });
        this.feeds.set(channelId(key), socket);
      }
      this.stats.packets++;
      let a = assemblers.get(p.channel);
      if (!a) assemblers.set(p.channel, (a = new FrameAssembler()));
      const lostBefore = a.stats.lost;
      const frame = a.push(p);
      this.stats.lostPackets += a.stats.lost - lostBefore;
      if (frame) {
        if (feed) feed.frame(frame);
        else channels.frame(key, frame);
      }
    };

    const identify = async (first: string): Promise<void> => {
      const id = await this.opts.resolve(first).catch(() => null);
      if (socket.destroyed) return;
      if (id === null) return refuse('unknown SIM number');
      terminalId = id;
      const queued = waiting ?? [];
      waiting = null;
      for (const p of queued) {
        if (socket.destroyed) return;
        take(p, id);
      }
    };

    /** Each channel's packets and losses at the last 0x9105. */
    const reported = new Map<number, { packets: number; lost: number }>();
    const notify = this.opts.status;
    const statusTimer = notify
      ? setInterval(() => {
          if (terminalId === null) return;
          for (const [channel, a] of assemblers) {
            const last = reported.get(channel) ?? { packets: 0, lost: 0 };
            const packets = a.stats.packets - last.packets;
            const lost = a.stats.lost - last.lost;
            reported.set(channel, { packets: a.stats.packets, lost: a.stats.lost });
            // Nothing came (a paused playback): nothing to report on.
            if (packets + lost === 0) continue;
            notify({ terminalId, channel }, Math.floor((lost * 100) / (packets + lost)));
          }
        }, this.opts.statusEveryMs ?? STATUS_EVERY_MS)
      : null;
    statusTimer?.unref();

    socket.setNoDelay(true);
    socket.setTimeout(this.opts.idleMs ?? 15_000, () => {
      // A paused playback sends nothing until it resumes: its silence is no fault.
      if ([...feeds.values()].some((f) => f?.paused())) return;
      endReason = 'the terminal stopped sending';
      log.info({ remote, sim, terminalId }, 'jt1078 media connection silent, closed');
      socket.destroy();
    });
    socket.on('error', () => undefined); // 'close' follows
    socket.on('data', (chunk: Buffer) => {
      for (const item of reader.push(chunk)) {
        if (socket.destroyed) return;
        if (!('seq' in item)) {
          this.stats.refusedPackets++;
          if (item.fatal) return refuse(item.reason);
          log.warn({ remote, sim, terminalId, reason: item.reason }, 'jt1078 media packet refused');
          continue;
        }
        if (sim === null) {
          sim = item.sim;
          waiting = [];
          void identify(sim);
        } else if (item.sim !== sim) return refuse('the SIM number changed', { other: item.sim });
        if (waiting) {
          if (waiting.length >= MAX_WAITING) return refuse('too many packets before the terminal was known');
          waiting.push(item);
        } else if (terminalId !== null) take(item, terminalId);
      }
    });
    socket.on('close', () => {
      if (statusTimer) clearInterval(statusTimer);
      this.sockets.delete(socket);
      if (terminalId === null) return;
      for (const channel of assemblers.keys()) {
        const feed = feeds.get(channel);
        if (feed) {
          feed.ended(endReason ?? 'the recording ended');
          continue;
        }
        const key = { terminalId, channel };
        if (this.feeds.get(channelId(key)) !== socket) continue;
        this.feeds.delete(channelId(key));
        channels.upstreamEnded(key, endReason ?? 'the terminal closed the media connection');
      }
    });
  }
}
