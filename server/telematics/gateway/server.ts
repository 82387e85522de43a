/**
 * The JT/T 808 TCP gateway: accepts terminal connections, runs a Session per connection, keeps
 * one live session per terminal and its online/offline state, and sends platform messages down.
 *
 * Events: 'response' (TerminalResponse) when a terminal answers a platform message; 'online' and
 * 'offline' (terminal id) when a terminal gets or loses its live session here; 'sessionOpened'
 * (SessionOpened) when a session becomes live here; 'sessionEnded' (SessionEnded) when any
 * authenticated session closes, replaced ones included.
 *
 * Several gateway processes: `peers` is asked before a login takes a terminal held elsewhere, and
 * supersede() closes the session here when another process reports a later login.
 */

import { EventEmitter } from 'node:events';
import net from 'node:net';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { DB } from '../../platform/db/tables';
import type { FrameTap } from '../../platform/telemetry';
import { writeAudit } from '../../platform/audit';
import { DEFAULT_TZ_OFFSET_MINUTES, type Jt808BodyInput } from '../jt808/codec';
import { MediaStore } from '../media/mediaStore';
import { ObdWriter } from '../store/obdWriter';
import type { TerminalIdentity } from '../store/records';
import { PositionWriter } from '../store/writer';
import { DEFAULT_CHECKSUM_POLICY, type ChecksumPolicy } from './checksumPolicy';
import { DEFAULT_SAFETY_POLICY, type SafetyStandardPolicy } from './safetyStandard';
import type { AttachmentRequester } from '../attachments/requests';
import { Admission, connectionCap, DEFAULT_FD_RESERVE, openFileLimit } from './admission';
import {
  DEFAULT_LIMITS,
  isLaterLogin,
  type Dispatched,
  type GatewayLimits,
  type GatewayLogger,
  type GatewayPeers,
  type GatewayStats,
  type SessionEnded,
  type SessionHost,
  type SessionOpened,
  type TerminalResponse,
} from './host';
import { RefusalLog } from './refusals';
import { SessionRegistry } from './registry';
import { Session } from './session';
import { LinkState, terminalsInUse } from './terminals';

export interface GatewayOptions {
  db: Kysely<DB>;
  /** PostgreSQL only: the pool behind `db` (authentication then runs a prepared statement). */
  pool?: pg.Pool;
  /** Shared with whoever else stores positions; one is made when absent. */
  writer?: PositionWriter;
  /** OBD records (0x0900); one is made when absent. */
  obdWriter?: ObdWriter;
  log: GatewayLogger;
  limits?: Partial<GatewayLimits>;
  /** Device clock offset, minutes east of UTC (default GMT+8). */
  tzOffsetMinutes?: number;
  /**
   * Gateway connections per process; never above the open-file limit minus `fdReserve` (default:
   * that ceiling).
   */
  maxConnections?: number;
  /** Descriptors always left to HTTP, the database and files (default 1024). */
  fdReserve?: number;
  /**
   * Mark every terminal offline when starting to listen (default true): false for all but one of
   * several gateway processes sharing the database, or they would mark each other's terminals offline.
   */
  resetLinkState?: boolean;
  /** What a wrong checksum gets, per terminal model (default: refused for every model). */
  checksum?: ChecksumPolicy;
  /** The active safety standard per terminal model (default: 苏标 for every model). */
  safety?: SafetyStandardPolicy;
  /** Asks terminals for active safety attachments (0x9208) when the attachment service runs. */
  attachments?: AttachmentRequester;
  /** Where uploaded media are kept (DATA_DIR/media); without it 0x0801 is kept in the message log. */
  mediaDir?: string;
  /** Told every packet of an authenticated terminal (forwarding). */
  frameTap?: FrameTap;
}

const silence = () => undefined;

export class Jt808Gateway extends EventEmitter implements SessionHost {
  readonly db: Kysely<DB>;
  readonly pool: pg.Pool | undefined;
  readonly writer: PositionWriter;
  readonly obdWriter: ObdWriter;
  readonly media: MediaStore | null;
  readonly limits: GatewayLimits;
  readonly log: GatewayLogger;
  readonly tzOffsetMinutes: number;
  readonly checksum: ChecksumPolicy;
  readonly safety: SafetyStandardPolicy;
  attachments: AttachmentRequester | null;
  readonly frameTap: FrameTap | undefined;
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
    offGlobePositions: 0,
    badObdRecords: 0,
    storeFailures: 0,
    replaced: 0,
    refusedConnections: 0,
    handshakeTimeouts: 0,
    takeoversRefused: 0,
    checksumAccepted: 0,
    checksumRefused: 0,
    lengthMismatches: 0,
    keptMessages: 0,
  };
  readonly refusals: RefusalLog;
  readonly admission: Admission;
  readonly registry = new SessionRegistry<Session>();
  /** The other gateway processes (set by cluster/downlink.ts with NATS); none in one process. */
  peers: GatewayPeers | undefined;
  /** Set by /metrics (platform/metrics/sources.ts) to time acknowledgements. */
  acked: ((seconds: number) => void) | undefined;
  private readonly link: LinkState;
  private readonly resetLinkState: boolean;
  private readonly server: net.Server;
  private readonly sessions = new Set<Session>();
  private readonly paused = new Set<Session>();
  /** Sessions not authenticated yet (counted against the pending caps). */
  private readonly handshaking = new Set<Session>();

  constructor(opts: GatewayOptions) {
    super();
    this.db = opts.db;
    this.pool = opts.pool;
    this.log = opts.log;
    this.writer = opts.writer ?? new PositionWriter(opts.db);
    this.limits = { ...DEFAULT_LIMITS, ...opts.limits };
    this.tzOffsetMinutes = opts.tzOffsetMinutes ?? DEFAULT_TZ_OFFSET_MINUTES;
    this.checksum = opts.checksum ?? DEFAULT_CHECKSUM_POLICY;
    this.safety = opts.safety ?? DEFAULT_SAFETY_POLICY;
    this.attachments = opts.attachments ?? null;
    this.frameTap = opts.frameTap;
    this.resetLinkState = opts.resetLinkState ?? true;
    this.link = new LinkState(opts.db, (err) => this.log.warn({ err }, 'jt808 online state not saved'));
    this.obdWriter = opts.obdWriter ?? new ObdWriter(opts.db);
    // 'mediaStored': an upload kept for the first time (telematics publishes it on the bus).
    this.media = opts.mediaDir ? new MediaStore(opts.db, opts.mediaDir, (m) => this.emit('mediaStored', m)) : null;
    this.writer.on('error', (err: Error) => this.log.warn({ err }, 'jt808 position batch failed'));
    this.obdWriter.on('error', (err: Error) => this.log.warn({ err }, 'jt808 OBD record batch failed'));
    this.writer.on('recovered', (attempts: number) =>
      this.log.warn({ attempts }, 'jt808 position batch stored after the database came back'),
    );
    this.obdWriter.on('recovered', (attempts: number) =>
      this.log.warn({ attempts }, 'jt808 OBD record batch stored after the database came back'),
    );
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
    this.refusals = new RefusalLog(opts.db, this.log, this.limits.refusalsPerWindow, this.limits.refusalWindowMs);
    const maxConnections = connectionCap({
      configured: opts.maxConnections,
      fileLimit: openFileLimit(),
      reserve: opts.fdReserve ?? DEFAULT_FD_RESERVE,
    });
    this.admission = new Admission(
      { maxConnections, maxPending: this.limits.maxPending, maxPendingPerAddress: this.limits.maxPendingPerAddress },
      this.log,
    );
    this.server.on('error', (err) => this.log.error({ err }, 'jt808 listener error'));
  }

  /** Starts listening; resolves with the bound port. */
  async listen(port: number, host = '0.0.0.0'): Promise<number> {
    if (this.resetLinkState) await this.link.resetAll();
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
    // Waiting for an away database would hold the shutdown forever; unacknowledged, those are resent.
    this.writer.stopRetrying();
    this.obdWriter.stopRetrying();
    await Promise.all([this.writer.flush(), this.obdWriter.flush()]);
    await this.link.settle();
    await this.refusals.settle();
    this.link.stop();
  }

  isOnline(terminalId: number): boolean {
    return this.registry.get(terminalId) !== undefined;
  }

  /** Sends a message to a terminal's live session; its serial, or null when the terminal is offline. */
  send(terminalId: number, message: Jt808BodyInput): number | null {
    return this.registry.get(terminalId)?.send(message) ?? null;
  }

  /** Sends a message to a terminal's live session, naming the session (null when offline). */
  dispatch(terminalId: number, message: Jt808BodyInput): Dispatched | null {
    const s = this.registry.get(terminalId);
    const serial = s?.send(message) ?? null;
    return s && serial !== null ? { serial, session: s.key } : null;
  }

  /** Closes a terminal's live session (its registration was reset); false when it had none. */
  disconnect(terminalId: number, reason: string): boolean {
    const s = this.registry.get(terminalId);
    s?.close(reason);
    return s !== undefined;
  }

  /**
   * The live sessions here of these terminals read their binding again (vehicle, organisations):
   * a terminal deleted or no longer in use loses its session. Answers how many sessions it touched.
   */
  async rebind(terminalIds: number[]): Promise<number> {
    const held = terminalIds.filter((id) => this.registry.get(id));
    if (!held.length) return 0;
    const current = await terminalsInUse(this.db, held);
    for (const id of held) {
      const s = this.registry.get(id);
      const identity = current.get(id);
      if (!s) continue; // gone while reading
      if (identity) s.rebind(identity);
      else s.close('terminal removed or not in use');
    }
    return held.length;
  }

  get connectionCount(): number {
    return this.sessions.size;
  }

  // SessionHost

  async mayTakeOver(s: Session, terminalId: number): Promise<boolean> {
    if (!this.registry.get(terminalId) && this.peers) return this.peers.mayTakeOver(terminalId, s.remoteAddress);
    return this.yieldsTo(terminalId, s.remoteAddress, s);
  }

  /**
   * Whether this process's live session of `terminalId` gives way to a login from `remoteAddress`:
   * none, or one from the same address (the terminal reconnecting, its old link not noticed dead
   * yet), or one elsewhere that does not answer a probe in time (taken for dead).
   */
  async yieldsTo(terminalId: number, remoteAddress: string | null, s?: Session): Promise<boolean> {
    const live = this.registry.get(terminalId);
    if (!live || live === s || live.remoteAddress === remoteAddress) return true;
    return !(await live.probe(this.limits.takeoverProbeMs));
  }

  /**
   * Another process reports a login of a terminal: the session here is closed when that login is
   * the later one, without marking the terminal offline (it is online there). True when closed.
   */
  supersede(opened: SessionOpened): boolean {
    const live = this.registry.get(opened.terminalId);
    if (!live || live.key === opened.session || !isLaterLogin(opened, { at: live.authenticatedAt, session: live.key })) return false;
    this.registry.detach(live);
    this.stats.replaced++;
    this.emit('offline', opened.terminalId);
    live.close('replaced by a login in another gateway process');
    if (live.remoteAddress !== opened.remoteAddress) this.auditTakeover(opened.remoteAddress, live.identity!, live.remoteAddress);
    return true;
  }

  onAuthenticated(s: Session): void {
    if (this.handshaking.delete(s)) this.admission.authenticated(s.remoteAddress ?? '');
    const previous = this.registry.attach(s);
    if (previous) {
      this.stats.replaced++;
      previous.close('replaced by a new login');
      if (previous.remoteAddress !== s.remoteAddress) this.auditTakeover(s.remoteAddress, s.identity!, previous.remoteAddress);
    }
    void this.link.online(s.terminalId!, { protocol: s.protocol, remoteAddress: s.remoteAddress });
    this.emit('online', s.terminalId!);
    this.emit('sessionOpened', {
      terminalId: s.terminalId!,
      session: s.key,
      at: s.authenticatedAt,
      remoteAddress: s.remoteAddress,
    } satisfies SessionOpened);
  }

  onClosed(s: Session): void {
    if (this.sessions.delete(s)) this.admission.closed(s.remoteAddress ?? '', this.handshaking.delete(s));
    this.paused.delete(s);
    if (this.registry.detach(s)) {
      void this.link.offline(s.terminalId!);
      this.emit('offline', s.terminalId!);
    }
    if (s.terminalId !== undefined) this.emit('sessionEnded', { terminalId: s.terminalId, session: s.key } satisfies SessionEnded);
  }

  onPause(s: Session, paused: boolean): void {
    if (paused) this.paused.add(s);
    else this.paused.delete(s);
  }

  onResponse(r: TerminalResponse): void {
    this.emit('response', r);
  }

  private accept(socket: net.Socket): void {
    socket.on('error', silence); // before the session exists: resets are routine
    if (this.admission.admit(socket.remoteAddress ?? '')) {
      // Over a cap: give the descriptor back at once (the cap's log line is rate-limited).
      this.stats.refusedConnections++;
      socket.destroy();
      return;
    }
    this.stats.connections++;
    const session = new Session(socket, this);
    this.sessions.add(session);
    this.handshaking.add(session);
  }

  /** A live session replaced from another address: the old one did not answer its probe. */
  private auditTakeover(to: string | null, t: TerminalIdentity, from: string | null): void {
    this.log.warn({ terminalNo: t.terminalNo, from, to }, 'jt808 session replaced from another address');
    writeAudit(this.db, { action: 'terminalSessionReplaced', orgId: t.orgId, target: t.terminalNo, ip: to, detail: { from, to } }).catch(
      (err: unknown) => this.log.warn({ err }, 'jt808 audit not saved'),
    );
  }
}
