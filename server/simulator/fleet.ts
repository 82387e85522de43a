/**
 * A fleet of simulated terminals: each reports every interval, reconnects after a lost link and
 * sends its unacknowledged reports again, and now and then drives through a blind area (no
 * network for a while), after which it uploads the buffered reports as one 0x0704 type-1 batch.
 * Its terminals take photos when asked and on a forward collision warning (terminal.ts).
 */

import { MEDIA_EVENTS, MsgId, type DecodedMessage, type Jt808Version, type LocationInput } from '../telematics/jt808/codec';
import { ClosedError, NoReplyError, RefusedError, SimTerminal } from './terminal';
import { uploadEvidence, withSafetyAlarm } from './safetyEvidence';
import type { LatencyHistogram } from './latency';
import { LiveCardHolder, type SimCard } from './cards';
import { CITIES, SimVehicle, type City, type VehicleStart } from './vehicle';
import { attachCamera } from './camera';

export interface FleetTerminal {
  phone: string;
  version?: Jt808Version;
  city?: City;
  /** The code this terminal was issued when it registered before (a real terminal keeps it in flash). */
  authCode?: string;
  /** Where its vehicle was last seen: the run starts there (absent: somewhere in its city). */
  start?: VehicleStart;
  /** The IC card its driver inserts and removes (absent: the vehicle sends no card events). */
  card?: SimCard;
}

export interface FleetOptions {
  host: string;
  port: number;
  terminals: FleetTerminal[];
  intervalMs: number;
  /** Source addresses to spread connections over (127.0.0.x). */
  localAddresses?: string[];
  /** Chance per report of entering a blind area (default 1/400; 0 disables). */
  outageChance?: number;
  /**
   * Chance per report, while moving, of an active safety (ADAS or DSM) alarm announcing its
   * attachments, which the terminal uploads when asked (default 0: off; the demo sets it). A forward
   * collision warning also sends a photo (0x0800, then 0x0801) as a collision alarm's.
   */
  safetyChance?: number;
  /** Log lines for humans (the CLI); silent when absent. */
  log?: (line: string) => void;
  /** Connections opened at once while starting (default 200). */
  connectConcurrency?: number;
  keepAcked?: boolean;
  /** Resend a report not acknowledged within this many ms (default 10 s). */
  ackTimeoutMs?: number;
  /**
   * Device clock: absent = wall clock. Set, each report is this many ms after the previous one
   * (from the start), so reports faster than one per second still get distinct device times.
   */
  timeStepMs?: number;
  /** A heartbeat (0x0002) this often, as real terminals send between reports (absent: none). */
  heartbeatMs?: number;
  /** Acknowledgement latency of every position report, when given. */
  ackLatency?: Pick<LatencyHistogram, 'record'>;
}

export interface FleetStats {
  terminals: number;
  online: number;
  refused: number;
  positions: number;
  acked: number;
  unacked: number;
  obdRecords: number;
  obdAcked: number;
  blindBatches: number;
  commands: number;
  /** Successful connections (register when needed, authenticate), reconnections included. */
  connects: number;
}

/** The ADAS alarm type of a forward collision warning, and the 0x0800 event of a collision alarm's photo. */
const FORWARD_COLLISION = 1;
const COLLISION_EVENT = MEDIA_EVENTS.indexOf('collisionAlarm');

/** Blind-area batches are split so each 0x0704 body stays within one packet. */
const BATCH_ITEMS = 8;

class Member {
  readonly terminal: SimTerminal;
  readonly vehicle: SimVehicle;
  private timer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  /** Extra reports of a temporary tracking (0x8202) while it lasts. */
  private tracking: NodeJS.Timeout | undefined;
  private outageLeft = 0;
  private clock = Date.now();
  private buffered: LocationInput[] = [];
  private readonly cards: LiveCardHolder | null;
  blindBatches = 0;
  connects = 0;
  /** Active safety alarms raised so far (their terminal alarm ids). */
  safetyAlarms = 0;
  refused = false;

  constructor(
    private readonly fleet: Fleet,
    readonly spec: FleetTerminal,
    index: number,
  ) {
    this.vehicle = new SimVehicle(index * 7919 + 17, spec.city ?? CITIES[index % CITIES.length], spec.start);
    const o = fleet.opts;
    this.terminal = new SimTerminal({
      host: o.host,
      port: o.port,
      phone: spec.phone,
      version: spec.version,
      localAddress: o.localAddresses?.length ? o.localAddresses[index % o.localAddresses.length] : undefined,
      keepAcked: o.keepAcked,
      ackTimeoutMs: o.ackTimeoutMs,
      currentLocation: () => this.vehicle.report(Date.now()),
      ackLatency: o.ackLatency,
    });
    this.terminal.authCode = spec.authCode;
    attachCamera(this.terminal, spec.phone);
    this.cards = spec.card ? new LiveCardHolder(spec.card) : null;
    this.terminal.on('close', () => this.onClose());
    // Asked for an alarm's files (0x9208): uploaded on the attachment link; a failure is the platform's to log.
    this.terminal.on('attachmentRequest', (body: Buffer) => void uploadEvidence(body, spec.phone, index).catch(() => undefined));
    this.terminal.on('command', (m: DecodedMessage) => {
      if (m.opaque === undefined && m.msgId === MsgId.TemporaryTracking) this.track();
    });
  }

  /**
   * A temporary tracking asked by the platform: a report every `interval` s beside the usual ones
   * until it runs out or is stopped (on the wall clock only: a scripted clock keeps its own pace).
   */
  private track(): void {
    clearInterval(this.tracking);
    this.tracking = undefined;
    const asked = this.terminal.tracking;
    if (!asked || this.fleet.opts.timeStepMs || this.fleet.stopping) return;
    this.tracking = setInterval(() => {
      if (this.terminal.tracking !== asked || Date.now() >= asked.until) {
        clearInterval(this.tracking);
        this.tracking = undefined;
        return;
      }
      if (this.terminal.isOnline) this.terminal.report(this.vehicle.report(Date.now()));
    }, asked.interval * 1000);
    this.tracking.unref();
  }

  async connect(): Promise<void> {
    try {
      await this.terminal.connect();
      this.connects++;
      this.keepAlive();
    } catch (e) {
      if (e instanceof RefusedError) {
        this.refused = true;
        this.fleet.opts.log?.(`${this.spec.phone}: ${e.message}`);
        return;
      }
      if (e instanceof ClosedError) return; // the 'close' handler has scheduled a reconnect
      if (e instanceof NoReplyError) {
        // A platform too busy to answer in time: drop the link and try again later, as a terminal does.
        this.terminal.destroy();
        return;
      }
      throw e;
    }
  }

  start(offsetMs: number): void {
    const tick = () => this.tick();
    this.timer = setTimeout(() => {
      tick();
      this.timer = setInterval(tick, this.fleet.opts.intervalMs);
    }, offsetMs);
  }

  /**
   * Heartbeats from the first connect on, not from when the whole fleet has connected: a fleet of
   * thousands takes minutes to connect, and a terminal silent that long is dropped by the platform
   * as idle (then reconnects, and the reconnections feed on each other).
   */
  private keepAlive(): void {
    const every = this.fleet.opts.heartbeatMs;
    if (every && !this.heartbeat && !this.fleet.stopping) this.heartbeat = setInterval(() => this.terminal.heartbeat(), every);
  }

  stop(): void {
    clearTimeout(this.timer);
    clearInterval(this.timer);
    clearInterval(this.heartbeat);
    clearInterval(this.tracking);
    this.heartbeat = undefined;
    this.tracking = undefined;
    this.timer = undefined;
  }

  private tick(): void {
    const t = this.terminal;
    const step = this.fleet.opts.timeStepMs;
    this.clock = step ? this.clock + step : Date.now();
    let report = this.vehicle.step((step ?? this.fleet.opts.intervalMs) / 1000, this.clock);
    const safety = this.fleet.opts.safetyChance ?? 0;
    if (safety > 0 && (report.speed ?? 0) > 20 && Math.random() < safety)
      report = withSafetyAlarm(report, this.spec.phone, ++this.safetyAlarms, Math.random());
    const card = this.cards?.next(report);
    if (card) t.cardEvent(card); // kept by the terminal until acknowledged, like its reports
    const chance = this.fleet.opts.outageChance ?? 1 / 400;
    if (this.outageLeft === 0 && chance > 0 && Math.random() < chance) this.outageLeft = 5 + Math.floor(Math.random() * 20);
    if (this.outageLeft > 0) {
      this.buffered.push(report);
      if (--this.outageLeft === 0) this.flushBlind();
      return;
    }
    t.report(report); // buffered by the terminal itself while offline, sent again on reconnect
    // A forward collision warning takes a photo, as a terminal set to photograph on a collision alarm does.
    if (report.extras?.adas?.type === FORWARD_COLLISION && t.isOnline) void t.alarmPhoto(COLLISION_EVENT, report).catch(() => undefined);
    const obd = this.vehicle.obdRecord(this.clock);
    if (obd) t.reportObd(obd);
    t.resendUnacked();
  }

  private flushBlind(): void {
    for (let i = 0; i < this.buffered.length; i += BATCH_ITEMS) {
      this.terminal.reportBatch(this.buffered.slice(i, i + BATCH_ITEMS), true);
      this.blindBatches++;
    }
    this.buffered = [];
  }

  private onClose(): void {
    if (this.fleet.stopping || this.refused) return;
    // Reconnect with a little jitter, as a fleet coming back after a platform restart would.
    setTimeout(() => void this.reconnect(), 500 + Math.random() * 1500).unref();
  }

  private async reconnect(): Promise<void> {
    if (this.fleet.stopping || this.terminal.isOnline) return;
    try {
      await this.connect();
    } catch {
      this.onClose(); // not listening yet: try again
    }
  }
}

export class Fleet {
  stopping = false;
  private readonly members: Member[];

  constructor(readonly opts: FleetOptions) {
    this.members = opts.terminals.map((spec, i) => new Member(this, spec, i));
  }

  get terminals(): SimTerminal[] {
    return this.members.map((m) => m.terminal);
  }

  /** Connects every terminal (a bounded number at a time), then starts reporting. */
  async start(): Promise<void> {
    const limit = this.opts.connectConcurrency ?? 200;
    let next = 0;
    const worker = async () => {
      while (next < this.members.length && !this.stopping) await this.members[next++].connect();
    };
    await Promise.all(Array.from({ length: Math.min(limit, this.members.length) }, worker));
    this.members.forEach((m, i) => m.start(Math.floor((i / this.members.length) * this.opts.intervalMs)));
  }

  /** Stops reporting; waits up to waitMs for outstanding acknowledgements, then disconnects. */
  async stop(waitMs = 5000): Promise<void> {
    for (const m of this.members) m.stop();
    const deadline = Date.now() + waitMs;
    // Terminals reconnecting meanwhile are waited for too: they resend once back.
    while (this.members.some((m) => !m.refused && m.terminal.unackedCount > 0) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    this.stopping = true;
    await Promise.all(this.members.map((m) => m.terminal.end()));
  }

  stats(): FleetStats {
    const s: FleetStats = {
      terminals: this.members.length,
      online: 0,
      refused: 0,
      positions: 0,
      acked: 0,
      unacked: 0,
      obdRecords: 0,
      obdAcked: 0,
      blindBatches: 0,
      commands: 0,
      connects: 0,
    };
    for (const m of this.members) {
      const t = m.terminal;
      if (t.isOnline) s.online++;
      if (m.refused) s.refused++;
      s.positions += t.stats.positions;
      s.acked += t.stats.acked;
      s.unacked += t.unackedCount;
      s.obdRecords += t.stats.obdRecords;
      s.obdAcked += t.stats.obdAcked;
      s.blindBatches += m.blindBatches;
      s.commands += t.stats.commands;
      s.connects += m.connects;
    }
    return s;
  }

  /** Positions acknowledged per terminal, in the order of `opts.terminals` (to compare with what is stored). */
  ackedPerTerminal(): number[] {
    return this.members.map((m) => m.terminal.stats.acked);
  }
}
