/**
 * The JT/T 808 TCP gateway: accepts terminal connections, runs a Session per connection, keeps
 * one live session per terminal and its online/offline state, and sends platform messages down.
 *
 * Events: 'response' (TerminalResponse) when a terminal answers a platform message.
 */

import { EventEmitter } from 'node:events';
import net from 'node:net';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/tables';
import { DEFAULT_TZ_OFFSET_MINUTES, type Jt808BodyInput } from '../jt808/codec';
import { ObdWriter } from '../store/obdWriter';
import { PositionWriter } from '../store/writer';
import { DEFAULT_LIMITS, type GatewayLimits, type GatewayLogger, type GatewayStats, type SessionHost, type TerminalResponse } from './host';
import { SessionRegistry } from './registry';
import { Session } from './session';
import { LinkState } from './terminals';

export interface GatewayOptions {
  db: Kysely<DB>;
  /** Shared with whoever else stores positions; one is made when absent. */
  writer?: PositionWriter;
  /** OBD records (0x0900); one is made when absent. */
  obdWriter?: ObdWriter;
  log: GatewayLogger;
  limits?: Partial<GatewayLimits>;
  /** Device clock offset, minutes east of UTC (default GMT+8). */
  tzOffsetMinutes?: number;
  /** Connections accepted at once (default 200,000). */
  maxConnections?: number;
}

const silence = () => undefined;

export class Jt808Gateway extends EventEmitter implements SessionHost {
  readonly db: Kysely<DB>;
  readonly writer: PositionWriter;
  readonly obdWriter: ObdWriter;
  readonly limits: GatewayLimits;
  readonly log: GatewayLogger;
  readonly tzOffsetMinutes: number;
  readonly stats: GatewayStats = {
    connections: 0,
    messages: 0,
    registrations: 0,
    authentications: 0,
    authFailures: 0,
    refusedTerminals: 0,
    refusedMessages: 0,
    badFrames: 0,
    droppedFrames: 0,
    untimedPositions: 0,
    badObdRecords: 0,
    storeFailures: 0,
    replaced: 0,
  };
  readonly registry = new SessionRegistry<Session>();
  private readonly link: LinkState;
  private readonly server: net.Server;
  private readonly sessions = new Set<Session>();
  private readonly paused = new Set<Session>();

  constructor(opts: GatewayOptions) {
    super();
    this.db = opts.db;
    this.log = opts.log;
    this.writer = opts.writer ?? new PositionWriter(opts.db);
    this.limits = { ...DEFAULT_LIMITS, ...opts.limits };
    this.tzOffsetMinutes = opts.tzOffsetMinutes ?? DEFAULT_TZ_OFFSET_MINUTES;
    this.link = new LinkState(opts.db, (err) => this.log.warn({ err }, 'jt808 online state not saved'));
    this.obdWriter = opts.obdWriter ?? new ObdWriter(opts.db);
    this.writer.on('error', (err: Error) => this.log.warn({ err }, 'jt808 position batch failed'));
    this.obdWriter.on('error', (err: Error) => this.log.warn({ err }, 'jt808 OBD record batch failed'));
    for (const w of [this.writer, this.obdWriter]) {
      // Stop every connection at once: waiting for each one's next packet lets too much in.
      w.on('saturated', () => {
        for (const s of this.sessions) s.updateFlow();
      });
      w.on('drain', () => {
        for (const s of [...this.paused]) s.updateFlow();
      });
    }
    this.server = net.createServer((socket) => this.accept(socket));
    this.server.maxConnections = opts.maxConnections ?? 200_000;
    this.server.on('error', (err) => this.log.error({ err }, 'jt808 listener error'));
  }

  /** Starts listening; resolves with the bound port. */
  async listen(port: number, host = '0.0.0.0'): Promise<number> {
    await this.link.resetAll();
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen({ port, host, backlog: 4096 }, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    return (this.server.address() as net.AddressInfo).port;
  }

  /** Stops accepting, drops every connection, waits for pending writes. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const s of this.sessions) s.close('shutdown');
    await closed;
    await new Promise((r) => setImmediate(r)); // let the last 'close' handlers run
    await Promise.all([this.writer.flush(), this.obdWriter.flush()]);
    await this.link.settle();
    this.link.stop();
  }

  isOnline(terminalId: number): boolean {
    return this.registry.get(terminalId) !== undefined;
  }

  /** Sends a message to a terminal's live session; its serial, or null when the terminal is offline. */
  send(terminalId: number, message: Jt808BodyInput): number | null {
    return this.registry.get(terminalId)?.send(message) ?? null;
  }

  get connectionCount(): number {
    return this.sessions.size;
  }

  // SessionHost

  onAuthenticated(s: Session): void {
    const previous = this.registry.attach(s);
    if (previous) {
      this.stats.replaced++;
      previous.close('replaced by a new login');
    }
    void this.link.online(s.terminalId!, { protocol: s.protocol, remoteAddress: s.remoteAddress });
  }

  onClosed(s: Session): void {
    this.sessions.delete(s);
    this.paused.delete(s);
    if (this.registry.detach(s)) void this.link.offline(s.terminalId!);
  }

  onPause(s: Session, paused: boolean): void {
    if (paused) this.paused.add(s);
    else this.paused.delete(s);
  }

  onResponse(r: TerminalResponse): void {
    this.emit('response', r);
  }

  private accept(socket: net.Socket): void {
    this.stats.connections++;
    socket.on('error', silence); // before the session exists: resets are routine
    this.sessions.add(new Session(socket, this));
  }
}
