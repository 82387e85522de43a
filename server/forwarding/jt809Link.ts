/**
 * One JT/T 809 link to a superior platform, as the lower platform: the main link (we connect,
 * log in with 0x1001, keep it alive with 0x1005, reconnect with backoff), and the sub link where
 * the superior asks for it (it connects to our DOWN_LINK_IP:PORT and logs in with 0x9001 and the
 * verify code our login was answered with). Messages queued while the main link is down wait in a
 * bounded backlog (the oldest dropped and counted) and go out in order once it is up again.
 */

import net from 'node:net';
import {
  FrameSplitter,
  LOGIN_RESULT,
  MSG,
  checkCipher,
  decodeMessage,
  decodePacket,
  encodeCarInfo,
  encodeCode,
  encodeLoginRequest,
  encodeLogoutRequest,
  encodePacket,
  encodeVehicleEnvelope,
  SUB,
  type CarInfo,
  type Jt809Cipher,
  type Jt809Edition,
  type Jt809Message,
  type Vehicle,
} from './jt809';
import { MemoryBacklog, type LinkBacklog } from './linkBacklog';
import { Backoff } from './reconnect';

export interface Jt809LinkOptions {
  host: string;
  port: number;
  accessCode: number;
  userId: number;
  password: string;
  edition: Jt809Edition;
  version?: readonly [number, number, number];
  /** M1/IA1/IC1; with `encryptKey`, every body we send is encrypted, and encrypted ones are read. */
  cipher?: Jt809Cipher;
  encryptKey?: number;
  /** Where the superior opens the sub link; a port of 0 offers none. */
  downLinkIp: string;
  downLinkPort: number;
  /** Address the sub link listens on (all interfaces when absent). */
  downLinkBind?: string;
  heartbeatMs?: number;
  backoffMinMs?: number;
  backoffMaxMs?: number;
  backlogLimit?: number;
  /** Where unsent messages wait (default: in memory, `backlogLimit` of them). */
  backlog?: LinkBacklog;
  /** Resolves the superior's host name, refusing what may not be reached (the outbound address guard). */
  lookup?: net.LookupFunction;
  /** The static information of a vehicle the superior asks for (0x9601), or null when not ours. */
  carInfo?: (v: Vehicle) => Promise<CarInfo | null>;
  log?: { warn(obj: object, msg: string): void };
}

export type LinkState = 'down' | 'connecting' | 'loggingIn' | 'up' | 'stopped';
export type SubLinkState = 'none' | 'waiting' | 'up';

/** What a link sends: 809 positions, alarms and static information; raw 808 frames. */
export type ForwardKind = 'position' | 'alarm' | 'static' | 'frame';

export interface LinkCounters {
  /** Messages written to the main link, by kind. */
  sent: Record<ForwardKind, number>;
  /** Messages dropped from a full backlog (read from the backlog in `snapshot`). */
  dropped: number;
  /** Connections made (the first included). */
  connects: number;
  /** Logins the superior refused, and the last result code. */
  loginFailures: number;
  lastLoginResult: number | null;
  heartbeats: number;
  /** Frames that did not decode. */
  badFrames: number;
}

export interface LinkSnapshot {
  state: LinkState;
  subLink: SubLinkState;
  backlog: number;
  counters: LinkCounters;
  upSince: number | null;
  lastError: string | null;
  /** Raw 808 links: the terminals' connections open now. */
  connections?: number;
}

/** A socket with this much unwritten is treated as stalled: new messages wait in the backlog. */
const STALLED_BYTES = 1 << 20;
const LOGIN_TIMEOUT_MS = 10_000;
/** Backlog items read and written at a time when the link is up again. */
const DRAIN_BATCH = 500;

/** Answers on the sub link (0x9002 RESULT). */
const SUB_LOGIN = { OK: 0, BAD_VERIFY_CODE: 1 } as const;

/** A link's counters at its start: nothing sent, dropped or failed. */
export const newCounters = (): LinkCounters => ({
  sent: { position: 0, alarm: 0, static: 0, frame: 0 },
  dropped: 0,
  connects: 0,
  loginFailures: 0,
  lastLoginResult: null,
  heartbeats: 0,
  badFrames: 0,
});

export class Jt809Link {
  state: LinkState = 'down';
  subLink: SubLinkState = 'none';
  lastError: string | null = null;
  upSince: number | null = null;
  readonly counters: LinkCounters = newCounters();

  private readonly backlog: LinkBacklog;
  /** The backlog is being sent: new messages queue behind it, so the superior gets them in order. */
  private draining = false;
  private readonly backoff: Backoff;
  private readonly heartbeatMs: number;
  private sn = 0;
  private socket: net.Socket | null = null;
  private verifyCode: number | null = null;
  private timers = new Set<NodeJS.Timeout>();
  private lastHeard = 0;
  private server: net.Server | null = null;
  private subSockets = new Set<net.Socket>();

  constructor(private readonly o: Jt809LinkOptions) {
    if (o.cipher) checkCipher(o.cipher);
    // A password or address that does not fit the login fails here, not on every connection.
    encodeLoginRequest(o, o.edition);
    this.backlog = o.backlog ?? new MemoryBacklog(o.backlogLimit ?? 10_000);
    this.backoff = new Backoff(o.backoffMinMs ?? 1000, o.backoffMaxMs ?? 60_000);
    this.heartbeatMs = o.heartbeatMs ?? 60_000;
  }

  /** Opens the sub link's listener (when offered), then the main link. */
  async start(): Promise<void> {
    if (this.o.downLinkPort) {
      const server = net.createServer((s) => this.acceptSubLink(s));
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(this.o.downLinkPort, this.o.downLinkBind, () => resolve());
      });
      server.on('error', (e) => this.fail(e));
      this.server = server;
      this.subLink = 'waiting';
    }
    this.connect();
  }

  /** Logs out (when up), closes both links and stops reconnecting; the backlog is left as it is (stored, for the stored kind). */
  async stop(): Promise<void> {
    const s = this.socket;
    this.state = 'stopped';
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    if (s && !s.destroyed && this.upSince !== null) {
      // Logged in: log out, and give the bytes a moment to leave (a dead peer does not hold us).
      s.write(this.frame(MSG.UP_DISCONNECT_REQ, encodeLogoutRequest(this.o)));
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 1000);
        s.end(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    s?.destroy();
    for (const sub of this.subSockets) sub.destroy();
    if (this.server) await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.socket = null;
    this.upSince = null;
    await this.backlog.close();
  }

  /** Sends a message on the main link, or queues it while the link is down or stalled. */
  send(msgId: number, body: Buffer, kind: ForwardKind): void {
    if (this.state === 'stopped') return;
    const s = this.socket;
    const up = this.state === 'up' && s !== null;
    if (up && s.writableLength < STALLED_BYTES && !this.draining && this.backlog.length === 0 && !this.backlog.busy) {
      s.write(this.frame(msgId, body));
      this.counters.sent[kind]++;
      return;
    }
    this.backlog.push({ msgId, body, kind });
    if (up) void this.drain();
  }

  snapshot(): LinkSnapshot {
    return {
      state: this.state,
      subLink: this.subLink,
      backlog: this.backlog.length,
      counters: { ...this.counters, sent: { ...this.counters.sent }, dropped: this.backlog.dropped },
      upSince: this.upSince,
      lastError: this.lastError,
    };
  }

  private frame(msgId: number, body: Buffer): Buffer {
    this.sn = (this.sn + 1) >>> 0;
    const key = this.o.cipher && this.o.encryptKey !== undefined ? this.o.encryptKey : undefined;
    return encodePacket(
      { sn: this.sn, msgId, accessCode: this.o.accessCode, version: this.o.version, key, time: Math.floor(Date.now() / 1000) },
      body,
      { edition: this.o.edition, cipher: this.o.cipher },
    );
  }

  private later(ms: number, f: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      f();
    }, ms);
    this.timers.add(t);
  }

  private fail(e: Error): void {
    this.lastError = e.message;
    this.o.log?.warn({ err: e.message, host: this.o.host, port: this.o.port }, 'jt809 link');
  }

  private connect(): void {
    if (this.state === 'stopped') return;
    this.state = 'connecting';
    const s = net.createConnection({ host: this.o.host, port: this.o.port, lookup: this.o.lookup });
    this.socket = s;
    s.setNoDelay(true);
    const splitter = new FrameSplitter();
    s.on('connect', () => {
      this.counters.connects++;
      this.state = 'loggingIn';
      this.lastHeard = Date.now();
      s.write(this.frame(MSG.UP_CONNECT_REQ, encodeLoginRequest(this.o, this.o.edition)));
      this.later(LOGIN_TIMEOUT_MS, () => {
        if (this.socket === s && this.state === 'loggingIn') s.destroy(new Error('no login answer'));
      });
    });
    s.on('data', (chunk) => {
      this.lastHeard = Date.now();
      for (const f of splitter.push(chunk)) void this.onMainFrame(s, f);
    });
    s.on('error', (e) => this.fail(e));
    s.on('close', () => {
      if (this.socket !== s) return;
      this.socket = null;
      this.upSince = null;
      this.verifyCode = null;
      if (this.state === 'stopped') return;
      this.state = 'down';
      this.later(this.backoff.take(), () => this.connect());
    });
  }

  private decode(frame: Buffer): Jt809Message | null {
    try {
      const p = decodePacket(frame, { edition: this.o.edition, cipher: this.o.cipher });
      return decodeMessage(p.header.msgId, p.body, this.o.edition);
    } catch (e) {
      this.counters.badFrames++;
      this.fail(e as Error);
      return null;
    }
  }

  private async onMainFrame(s: net.Socket, frame: Buffer): Promise<void> {
    const m = this.decode(frame);
    if (!m) return;
    if (m.kind === 'loginResponse' && this.state === 'loggingIn') {
      this.counters.lastLoginResult = m.response.result;
      if (m.response.result !== LOGIN_RESULT.OK) {
        this.counters.loginFailures++;
        this.fail(new Error(`login refused: result ${m.response.result}`));
        s.destroy();
        return;
      }
      this.verifyCode = m.response.verifyCode;
      this.state = 'up';
      this.upSince = Date.now();
      this.lastError = null;
      this.backoff.reset();
      void this.drain();
      this.heartbeat(s);
      return;
    }
    await this.onRequest(m, s);
  }

  private heartbeat(s: net.Socket): void {
    this.later(this.heartbeatMs, () => {
      if (this.socket !== s || this.state !== 'up') return;
      if (Date.now() - this.lastHeard > 3 * this.heartbeatMs) {
        s.destroy(new Error('no answer to heartbeats'));
        return;
      }
      s.write(this.frame(MSG.UP_LINKTEST_REQ, Buffer.alloc(0)));
      this.counters.heartbeats++;
      this.heartbeat(s);
    });
  }

  /**
   * Sends the backlog, oldest first, a batch at a time, each removed once written; waits while the
   * socket is stalled. Ends when the backlog is empty and nothing is being stored, or the socket
   * it started on is gone (what is left waits for the next login).
   */
  private async drain(): Promise<void> {
    const s = this.socket;
    if (this.draining || !s) return;
    this.draining = true;
    const current = () => this.socket === s && this.state === 'up';
    try {
      while (current()) {
        if (s.writableLength >= STALLED_BYTES) {
          await new Promise<void>((resolve) => {
            s.once('drain', resolve);
            s.once('close', resolve);
          });
          continue;
        }
        const batch = await this.backlog.peek(DRAIN_BATCH);
        if (!current()) return;
        if (!batch.length) {
          if (this.backlog.busy) await this.backlog.close();
          else return;
          continue;
        }
        for (const { item } of batch) {
          s.write(this.frame(item.msgId, item.body));
          this.counters.sent[item.kind]++;
        }
        await this.backlog.ack(batch[batch.length - 1].seq);
      }
    } catch (e) {
      this.fail(e as Error);
    } finally {
      this.draining = false;
    }
  }

  /** What the superior asks on either link. */
  private async onRequest(m: Jt809Message, from: net.Socket): Promise<void> {
    if (m.kind === 'carInfoRequest' && this.o.carInfo) {
      const info = await this.o.carInfo(m.vehicle);
      if (info)
        this.send(
          MSG.UP_BASE_MSG,
          encodeVehicleEnvelope({ ...m.vehicle, dataType: SUB.UP_BASE_MSG_VEHICLE_ADDED_ACK, data: encodeCarInfo(info) }),
          'static',
        );
      return;
    }
    if (m.kind === 'code' && (m.msgId === MSG.DOWN_DISCONNECT_INFORM || m.msgId === MSG.DOWN_CLOSELINK_INFORM) && from !== this.socket)
      from.end();
  }

  private acceptSubLink(s: net.Socket): void {
    this.subSockets.add(s);
    const splitter = new FrameSplitter();
    let loggedIn = false;
    const reply = (msgId: number, body: Buffer) => s.write(this.frame(msgId, body));
    s.on('data', (chunk) => {
      for (const f of splitter.push(chunk)) {
        const m = this.decode(f);
        if (!m) continue;
        if (m.kind === 'subLinkLogin') {
          loggedIn = this.verifyCode !== null && m.verifyCode === this.verifyCode;
          reply(MSG.DOWN_CONNECT_RSP, encodeCode(loggedIn ? SUB_LOGIN.OK : SUB_LOGIN.BAD_VERIFY_CODE));
          if (loggedIn) this.subLink = 'up';
          else s.end();
        } else if (!loggedIn) {
          s.destroy();
        } else if (m.kind === 'empty' && m.msgId === MSG.DOWN_LINKTEST_REQ) {
          reply(MSG.DOWN_LINKTEST_RSP, Buffer.alloc(0));
        } else if (m.kind === 'subLinkLogout') {
          reply(MSG.DOWN_DISCONNECT_RSP, Buffer.alloc(0));
          s.end();
        } else void this.onRequest(m, s);
      }
    });
    s.on('error', (e) => this.fail(e));
    s.on('close', () => {
      this.subSockets.delete(s);
      if (loggedIn && ![...this.subSockets].length) this.subLink = this.server ? 'waiting' : 'none';
    });
  }
}
