/**
 * The JT/T 1078 media server: terminals asked to stream (0x9101) or to play a recording back (0x9201)
 * connect here over TCP, or send datagrams to the same port number over UDP, with media packets (a
 * terminal's link: its TCP connection, or the datagrams from one UDP address, each holding whole
 * packets); each channel's packets are reassembled into frames
 * and handed to the live channels, or to the playback waiting for that channel (the first connection
 * bringing a channel with a playback waiting is that playback's: a playback always has a connection
 * of its own).
 * A link is refused (closed, the reason logged; a refused UDP address's datagrams are ignored until
 * it falls silent) when its bytes are no media packets, when it sends a channel nobody asked for, or
 * when it changes its SIM number; a single bad packet is dropped with its reason. A link silent for
 * `idleMs` is closed, and its channels' viewers told. UDP repairs nothing: a lost or reordered
 * datagram costs its frame and the pictures until the next I frame, as a gap on TCP does.
 * While a channel streams, its terminal is told the channel's packet loss every few seconds (0x9105,
 * the platform's transmission status notice of JT/T 1078).
 */

import dgram from 'node:dgram';
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
  /** Also take media over UDP on the same port number (default: yes). */
  udp?: boolean;
}

/** A terminal's media link: a TCP connection, or the datagrams of one UDP address. */
interface Link {
  readonly remote: string;
  readonly destroyed: boolean;
  destroy(): void;
}

/** What a link's transport tells the media server. */
interface LinkEvents {
  data(chunk: Buffer): void;
  /** The link fell silent: true when it is to be closed (a paused playback's silence is no fault). */
  idle(): boolean;
  closed(): void;
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
  private readonly udp: dgram.Socket | null;
  private readonly sockets = new Set<net.Socket>();
  /** The UDP addresses sending media, each its link. */
  private readonly datagramLinks = new Map<string, { link: Link; events: LinkEvents; timer: NodeJS.Timeout }>();
  /** The link feeding each channel: a terminal that reconnects replaces its old one. */
  private readonly feeds = new Map<string, Link>();
  readonly stats: MediaServerStats = { connections: 0, packets: 0, refusedPackets: 0, refusedConnections: 0, lostPackets: 0 };

  constructor(private readonly opts: MediaServerOptions) {
    this.server = net.createServer((socket) => this.connection(socket));
    this.udp = opts.udp === false ? null : dgram.createSocket('udp4', (msg, r) => this.datagram(msg, `${r.address}:${r.port}`));
    this.udp?.on('error', (e) => opts.log.warn({ err: e }, 'jt1078 media UDP socket error'));
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
    const bound = (this.server.address() as net.AddressInfo).port;
    const udp = this.udp;
    if (udp)
      await new Promise<void>((resolve, reject) => {
        udp.once('error', reject);
        // Exclusive for the same reason as the TCP port.
        udp.bind({ port: bound, address: host, exclusive: true }, () => {
          udp.off('error', reject);
          resolve();
        });
      });
    return bound;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    for (const { link } of [...this.datagramLinks.values()]) link.destroy();
    for (const { timer } of this.datagramLinks.values()) clearTimeout(timer);
    this.datagramLinks.clear();
    const udp = this.udp;
    // Never bound (listen not called): close throws, nothing to wait for.
    if (udp) await new Promise<void>((resolve) => udp.close(() => resolve())).catch(() => undefined);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private connection(socket: net.Socket): void {
    this.sockets.add(socket);
    const reader = new RtpStreamReader();
    const events = this.link(
      {
        remote: `${socket.remoteAddress}:${socket.remotePort}`,
        get destroyed() {
          return socket.destroyed;
        },
        destroy: () => socket.destroy(),
      },
      (chunk) => reader.push(chunk),
    );
    socket.setNoDelay(true);
    socket.setTimeout(this.opts.idleMs ?? 15_000, () => {
      if (events.idle()) socket.destroy();
    });
    socket.on('error', () => undefined); // 'close' follows
    socket.on('data', (chunk: Buffer) => events.data(chunk));
    socket.on('close', () => {
      this.sockets.delete(socket);
      events.closed();
    });
  }

  /** A datagram: its address's link, opened by its first. */
  private datagram(msg: Buffer, remote: string): void {
    let l = this.datagramLinks.get(remote);
    if (!l) {
      let destroyed = false;
      const link: Link = {
        remote,
        get destroyed() {
          return destroyed;
        },
        destroy: () => {
          if (destroyed) return;
          destroyed = true;
          events.closed();
        },
      };
      // Each datagram holds whole packets: a new reader each, so a cut one spoils no other.
      const events = this.link(link, (chunk) => new RtpStreamReader().push(chunk));
      const timer = setTimeout(() => {
        // Silent: closed (unless a paused playback), and forgotten once closed.
        if (!link.destroyed && !events.idle()) return timer.refresh();
        link.destroy();
        this.datagramLinks.delete(remote);
      }, this.opts.idleMs ?? 15_000);
      timer.unref();
      l = { link, events, timer };
      this.datagramLinks.set(remote, l);
    }
    l.timer.refresh();
    // A refused address's datagrams are dropped until it falls silent.
    if (!l.link.destroyed) l.events.data(msg);
  }

  /** The media packets of one link, whatever carries them; `read` cuts its bytes into packets. */
  private link(link: Link, read: (chunk: Buffer) => ReturnType<RtpStreamReader['push']>): LinkEvents {
    this.stats.connections++;
    const { remote } = link;
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
      link.destroy();
    };

    const take = (p: MediaPacket, id: number): void => {
      const key: ChannelKey = { terminalId: id, channel: p.channel };
      let feed = feeds.get(p.channel);
      if (feed === undefined) {
        feed = this.opts.playbacks?.claim(key, () => link.destroy()) ?? null;
        feeds.set(p.channel, feed);
      }
      if (!feed) {
        if (!channels.accepts(key)) return refuse('no stream was asked of this channel', { channel: p.channel });
        this.feeds.set(channelId(key), link);
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
      if (link.destroyed) return;
      if (id === null) return refuse('unknown SIM number');
      terminalId = id;
      const queued = waiting ?? [];
      waiting = null;
      for (const p of queued) {
        if (link.destroyed) return;
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

    return {
      idle: () => {
        // A paused playback sends nothing until it resumes: its silence is no fault.
        if ([...feeds.values()].some((f) => f?.paused())) return false;
        endReason = 'the terminal stopped sending';
        log.info({ remote, sim, terminalId }, 'jt1078 media connection silent, closed');
        return true;
      },
      data: (chunk: Buffer) => {
        for (const item of read(chunk)) {
          if (link.destroyed) return;
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
      },
      closed: () => {
        if (statusTimer) clearInterval(statusTimer);
        if (terminalId === null) return;
        for (const channel of assemblers.keys()) {
          const feed = feeds.get(channel);
          if (feed) {
            feed.ended(endReason ?? 'the recording ended');
            continue;
          }
          const key = { terminalId, channel };
          if (this.feeds.get(channelId(key)) !== link) continue;
          this.feeds.delete(channelId(key));
          channels.upstreamEnded(key, endReason ?? 'the terminal closed the media connection');
        }
      },
    };
  }
}
