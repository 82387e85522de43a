/**
 * One terminal connection: framing, the register → authenticate handshake, then reports.
 * Packets are handled in arrival order (a promise chain), but stores are not awaited in that
 * chain: a report is acknowledged when its batch commits, while later packets keep flowing until
 * a bound is hit, then the socket stops being read (backpressure reaches the terminal's TCP window).
 */

import { randomBytes } from 'node:crypto';
import type net from 'node:net';
import {
  decodePacket,
  encodeFrame,
  encodeMessage,
  encodeMessageFrames,
  FrameSplitter,
  isJt808DecodeError,
  MsgId,
  parseHeader,
  ResponseEncoder,
  SubpackageAssembler,
  toJsonValue,
  type DecodedMessage,
  type Jt808BodyInput,
  type Jt808Version,
  type KnownMessage,
  type LocationBody,
  type MessageMeta,
  type OpaqueMessage,
} from '../jt808/codec';
import type { BatchWriter } from '../store/batchWriter';
import { OBD_RECORD_TYPE, toObdRow } from '../store/obdRecords';
import { positionFault, toRecord, type PositionRecord, type TerminalIdentity } from '../store/records';
import type { SessionHost } from './host';
import { checksumAction } from './checksumPolicy';
import { needsModel, readSafetyItems, safetyStandardOf } from './safetyStandard';
import type { SafetyStandard } from '../jt808/messages/activeSafety';
import { cardEventOf, keepCardEvent } from './cardEvents';
import { bodyBytesHex, describeBody, KEPT_DECODED } from './decodedMessages';
import { keepMessage, type KeptMessage } from './messageLog';
import { checkAuthentication, registerTerminal } from './registration';
import { findTerminal, findTerminalForAuth, registeredModel } from './terminals';

/** 0x8001 results. */
const OK = 0;
const FAIL = 1;
const MESSAGE_ERROR = 2;
const UNSUPPORTED = 3;
/** 0x8100 results: terminal already registered, terminal not in the database. */
const TERMINAL_REGISTERED = 3;
const TERMINAL_NOT_FOUND = 4;

type Header = MessageMeta & { msgId: number };
/** What a 0x8001 needs of the message it answers. */
type Answered = Pick<Header, 'phone' | 'version' | 'protocolVersion' | 'serial' | 'msgId'>;

/** The frame anomalies a message was accepted with, as kept beside what it carried (null: none). */
function frameFlags(m: MessageMeta): Record<string, unknown> | null {
  if (!m.checksumMismatch && m.declaredLength === undefined) return null;
  const flags: Record<string, unknown> = {};
  if (m.checksumMismatch) flags.checksumMismatch = true;
  if (m.declaredLength !== undefined) flags.declaredLength = m.declaredLength;
  return flags;
}

/** Resolves on the next turn of the event loop, after the I/O that is ready now. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Names sessions uniquely across processes and machines: a random process prefix and a counter. */
const PROCESS_KEY = randomBytes(6).toString('hex');
let sessionCount = 0;

export class Session {
  /** Names this session in 'sessionEnded' events and command records. */
  readonly key = `${PROCESS_KEY}.${++sessionCount}`;
  /** Set once authenticated. */
  identity: TerminalIdentity | undefined;
  /** When it was authenticated (ms): of two logins of one terminal, the later one stays. */
  authenticatedAt = 0;
  readonly remoteAddress: string | null;
  private phone: string | undefined;
  private version: Jt808Version = 2013;
  private protocolVersion: number | undefined;
  /** The terminal's registered model once looked up (for the checksum policy); undefined: not yet. */
  private model: string | null | undefined;
  private readonly splitter: FrameSplitter;
  /** Made on the first fragment: most terminals never subpackage, and idle connections stay small. */
  private assembler: SubpackageAssembler | undefined;
  /** 0x8001 encoder for the header last answered (the terminal's, once authenticated). */
  private responses: ResponseEncoder | undefined;
  private chain: Promise<void> = Promise.resolve();
  private queuedPackets = 0;
  private pendingRecords = 0;
  private serial = 0;
  private refused = 0;
  private authFailures = 0;
  private badInARow = 0;
  private paused = false;
  private closed = false;
  private corked = false;
  /** Cuts the handshake at its absolute deadline (cleared once authenticated). */
  private handshakeTimer: NodeJS.Timeout | undefined;
  /** Called on the next bytes received (a takeover probe waits for proof of life). */
  private heardWaiters: Array<() => void> = [];

  constructor(
    private readonly socket: net.Socket,
    private readonly host: SessionHost,
  ) {
    const { limits } = host;
    this.remoteAddress = socket.remoteAddress ?? null;
    this.splitter = new FrameSplitter({ maxFrameBytes: limits.maxFrameBytes, onDrop: () => host.stats.droppedFrames++ });
    socket.setNoDelay(true);
    socket.setTimeout(limits.authTimeoutMs);
    this.handshakeTimer = setTimeout(() => {
      host.stats.handshakeTimeouts++;
      this.close('handshake deadline');
    }, limits.handshakeTimeoutMs);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('timeout', () => this.close('idle'));
    socket.on('error', () => this.close('socket error')); // resets are routine on mobile links
    socket.on('close', () => this.onClosed());
  }

  get terminalId(): number | undefined {
    return this.identity?.terminalId;
  }

  /** Protocol version the terminal speaks (2011, 2013 or 2019). */
  get protocol(): Jt808Version {
    return this.version;
  }

  /** The active safety standard of the terminal's model (苏标 unless its model is set to another). */
  get safetyStandard(): SafetyStandard {
    return safetyStandardOf(this.host.safety, this.model ?? null);
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** The address this terminal reached the gateway on. */
  get localAddress(): string | null {
    return this.socket.localAddress ?? null;
  }

  /** Sends a body the codec's table does not hold (the attachment service's 0x9208); returns its serial. */
  sendRaw(msgId: number, body: Buffer): number | null {
    if (this.closed || !this.phone) return null;
    const serial = this.nextSerial();
    this.write(encodeFrame({ msgId, phone: this.phone, serial, version: this.version, protocolVersion: this.protocolVersion }, body));
    return serial;
  }

  /**
   * Sends a platform message to the terminal; returns its serial (null when closed). A message in
   * packages (an upgrade) takes one serial per package and is written as the socket drains.
   */
  send(message: Jt808BodyInput): number | null {
    if (this.closed || !this.phone) return null;
    const serial = this.nextSerial();
    const frames = encodeMessageFrames(
      { phone: this.phone, serial, version: this.version, protocolVersion: this.protocolVersion },
      message,
    );
    this.serial = (serial + frames.length - 1) & 0xffff;
    if (frames.length === 1) this.write(frames[0]);
    else this.writePaced(frames);
    return serial;
  }

  /** Packages of one long message, written while the socket takes them, so its output stays under the cap. */
  private writePaced(frames: Buffer[]): void {
    let i = 0;
    const pump = () => {
      while (!this.closed && i < frames.length) {
        if (!this.socket.write(frames[i++])) {
          this.socket.once('drain', pump);
          return;
        }
      }
    };
    pump();
  }

  /** The terminal's binding changed (another vehicle or organisation): what it sends from now on goes there. */
  rebind(identity: TerminalIdentity): void {
    if (!this.identity || identity.terminalId !== this.identity.terminalId) return;
    this.host.log.debug(
      { terminalId: identity.terminalId, vehicleId: identity.vehicleId, was: this.identity.vehicleId },
      'jt808 session rebound',
    );
    this.identity = identity;
  }

  close(reason: string): void {
    if (this.socket.destroyed) return;
    this.closed = true;
    this.host.log.debug({ terminalId: this.terminalId, remote: this.remoteAddress, reason }, 'jt808 session closing');
    this.socket.destroy();
  }

  /** Re-evaluates whether the socket may be read (called by the gateway when the writer drains). */
  updateFlow(): void {
    const { limits } = this.host;
    const stop =
      this.queuedPackets > limits.maxQueuedPackets ||
      this.pendingRecords > limits.maxPendingRecords ||
      this.host.writer.saturated ||
      this.host.obdWriter.saturated;
    if (stop && !this.paused) {
      this.paused = true;
      this.socket.pause();
      this.host.onPause(this, true);
    } else if (!stop && this.paused) {
      this.paused = false;
      if (!this.closed) this.socket.resume();
      this.host.onPause(this, false);
    }
  }

  /**
   * Asks the terminal where it is (0x8201) and resolves true when anything arrives within `ms`,
   * false when nothing does or the connection closes: a dead link answers nothing.
   */
  probe(ms: number): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (alive: boolean) => {
        clearTimeout(timer);
        this.heardWaiters = this.heardWaiters.filter((w) => w !== heard);
        this.socket.off('close', gone);
        resolve(alive);
      };
      const heard = () => done(true);
      const gone = () => done(false);
      const timer = setTimeout(gone, ms);
      this.heardWaiters.push(heard);
      this.socket.once('close', gone);
      this.send({ msgId: MsgId.LocationQuery });
    });
  }

  private onData(chunk: Buffer): void {
    if (this.heardWaiters.length) for (const w of [...this.heardWaiters]) w();
    let first = true;
    for (const packet of this.splitter.push(chunk)) {
      this.queuedPackets++;
      // Each further packet of a chunk waits for the next turn of the event loop: a terminal that
      // sends much at once (a photo in hundreds of packages) takes one package a turn, and the other
      // terminals' reports and the database's answers are served in between, not after its chunk.
      this.chain = first
        ? this.chain.then(() => this.handlePacket(packet))
        : this.chain.then(nextTurn).then(() => this.handlePacket(packet));
      first = false;
    }
    this.updateFlow();
  }

  private async handlePacket(packet: Buffer): Promise<void> {
    try {
      if (!this.closed) await this.handle(packet);
      // After handling, so the authentication that names the terminal is passed on too.
      if (this.identity && this.host.frameTap) this.host.frameTap(this.identity, packet);
    } catch (e) {
      // Only database faults get here (decode errors are handled below): drop the connection, the
      // terminal reconnects and retries what was not acknowledged.
      this.host.log.warn({ err: e, terminalId: this.terminalId }, 'jt808 session failed');
      this.close('internal error');
    } finally {
      this.queuedPackets--;
      this.updateFlow();
    }
  }

  private async handle(packet: Buffer): Promise<void> {
    let m: DecodedMessage | undefined;
    try {
      // Field firmware gets wrong checksums and body lengths: decode anyway, then decide.
      m = decodePacket(packet, {
        assume2011: this.version === 2011,
        tzOffsetMinutes: this.host.tzOffsetMinutes,
        maxFrameBytes: this.host.limits.maxFrameBytes,
        onBadChecksum: 'flag',
        tolerateLength: true,
      });
    } catch (e) {
      if (!isJt808DecodeError(e)) throw e;
      if (e.code === 'BAD_BODY' && this.keptMalformed(packet, e.message)) return;
      this.badFrame(packet, e.code);
      return;
    }
    if (m.checksumMismatch) {
      if (!(await this.acceptsBadChecksum(m))) {
        // Per the protocol: a message error, so the terminal sends the message again.
        this.host.stats.checksumRefused++;
        this.host.log.debug({ terminalId: this.terminalId, remote: this.remoteAddress, msgId: m.msgId }, 'jt808 bad checksum refused');
        this.reply(m, MESSAGE_ERROR);
        // Before authentication it is noise like any other; after, the session carries on.
        if (!this.identity && ++this.badInARow > this.host.limits.maxBadFrames) this.close('garbage');
        return;
      }
      this.host.stats.checksumAccepted++;
    }
    if (m.declaredLength !== undefined) this.host.stats.lengthMismatches++;
    try {
      if (m.opaque === 'fragment') {
        this.assembler ??= new SubpackageAssembler({ ...this.host.limits.subpackage, tzOffsetMinutes: this.host.tzOffsetMinutes });
        const fragment = m;
        m = this.assembler.push(fragment);
        if (!m) this.askForMissing(fragment);
      }
    } catch (e) {
      if (!isJt808DecodeError(e)) throw e;
      this.badFrame(packet, e.code);
      return;
    }
    if (!m) return; // a fragment of an incomplete message
    this.badInARow = 0;
    this.host.stats.messages++;
    if (m.opaque !== undefined) {
      // A vendor id is kept raw and acknowledged; an encrypted body is answered "unsupported".
      if (!this.isOwn(m)) this.refuse(m);
      else if (m.opaque === 'unknown') this.keep(m, { kind: 'vendor', text: null, bodyHex: m.body.toString('hex') });
      else this.reply(m, UNSUPPORTED);
      return;
    }
    if (m.msgId === MsgId.Register) return this.register(m);
    if (m.msgId === MsgId.Auth) return this.authenticate(m);
    if (!this.isOwn(m)) return this.refuse(m);
    this.dispatch(m);
  }

  /** Authenticated, and the message names the authenticated terminal. */
  private isOwn(m: Header): boolean {
    return this.identity !== undefined && m.phone === this.phone;
  }

  private dispatch(m: KnownMessage): void {
    switch (m.msgId) {
      case MsgId.Heartbeat:
        this.reply(m, OK);
        return;
      case MsgId.Logout:
        this.reply(m, OK);
        this.socket.end();
        return;
      case MsgId.Location:
        this.store(m, [m.body], false, true);
        return;
      case MsgId.BatchLocation:
        this.store(m, m.body.items, m.body.blindArea, true);
        return;
      case MsgId.LocationQueryResponse:
        this.store(m, [m.body.location], false, false);
        this.host.onResponse({
          terminalId: this.identity!.terminalId,
          replySerial: m.body.replySerial,
          replyMsgId: MsgId.LocationQuery,
          result: OK,
          location: m.body.location,
        });
        return;
      case MsgId.ParamsResponse:
        // Which of 0x8104 / 0x8106 it answers is the serial's business: the command service knows.
        this.host.onResponse({
          terminalId: this.identity!.terminalId,
          replySerial: m.body.replySerial,
          replyMsgId: MsgId.QueryParams,
          result: OK,
          params: m.body.params,
        });
        return;
      case MsgId.VehicleControlResponse:
        // Like 0x0201: a position (stored) answering its command by serial.
        this.store(m, [m.body.location], false, false);
        this.host.onResponse({
          terminalId: this.identity!.terminalId,
          replySerial: m.body.replySerial,
          replyMsgId: MsgId.VehicleControl,
          result: OK,
          location: m.body.location,
        });
        return;
      case MsgId.AttributesResponse:
        // Kept like any decoded answer; it names no serial, so it answers the oldest pending 0x8107.
        this.keep(m, { kind: 'decoded', text: describeBody(m), bodyHex: bodyBytesHex(m, this.host.tzOffsetMinutes) });
        this.host.onResponse({
          terminalId: this.identity!.terminalId,
          replySerial: null,
          replyMsgId: MsgId.QueryAttributes,
          result: OK,
          attributes: toJsonValue(m.body),
        });
        return;
      case MsgId.TakePhotoResponse:
        // Kept like any decoded answer; answers its 0x8801 by serial with the ids of the photos to come.
        this.keep(m, { kind: 'decoded', text: describeBody(m), bodyHex: bodyBytesHex(m, this.host.tzOffsetMinutes) });
        this.host.onResponse({
          terminalId: this.identity!.terminalId,
          replySerial: m.body.replySerial,
          replyMsgId: MsgId.TakePhoto,
          result: m.body.result,
          mediaIds: m.body.mediaIds,
        });
        return;
      case MsgId.UpgradeResult:
        // Kept; it names no serial, so it answers the oldest pending upgrade of the terminal.
        this.keep(m, { kind: 'decoded', text: describeBody(m), bodyHex: bodyBytesHex(m, this.host.tzOffsetMinutes) });
        this.host.onResponse({
          terminalId: this.identity!.terminalId,
          replySerial: null,
          replyMsgId: MsgId.UpgradePackage,
          result: m.body.result,
          upgrade: { type: m.body.type, result: m.body.result },
        });
        return;
      case MsgId.ResourceList:
        // Kept, and answers the 0x9205 (or 0x9201) of its serial with the resources (video/records.ts).
        this.keep(m, { kind: 'decoded', text: describeBody(m), bodyHex: bodyBytesHex(m, this.host.tzOffsetMinutes) });
        this.host.onResponse({
          terminalId: this.identity!.terminalId,
          replySerial: m.body.replySerial,
          replyMsgId: MsgId.ResourceQuery,
          result: OK,
          resources: m.body.resources,
        });
        return;
      case MsgId.TerminalResponse:
        this.host.onResponse({
          terminalId: this.identity!.terminalId,
          replySerial: m.body.replySerial,
          replyMsgId: m.body.replyMsgId,
          result: m.body.result,
        });
        return;
      case MsgId.Transparent:
        this.transparent(m);
        return;
      case MsgId.Waybill:
        this.keep(m, { kind: 'waybill', text: m.body.text, bodyHex: m.body.hex });
        return;
      case MsgId.DriverIdentity:
        this.cardEvent(m);
        return;
      case MsgId.MediaData:
        if (this.host.media) this.saveMedia(m);
        else this.keep(m, { kind: 'decoded', text: describeBody(m), bodyHex: bodyBytesHex(m, this.host.tzOffsetMinutes) });
        return;
      case MsgId.QueryServerTime:
        // 2019: the terminal sets its clock from the answer (UTC).
        this.write(
          encodeMessage(
            { phone: m.phone, serial: this.nextSerial(), version: m.version, protocolVersion: m.protocolVersion },
            { msgId: MsgId.ServerTime, body: { time: new Date().toISOString() } },
          ),
        );
        return;
      default:
        if (KEPT_DECODED.has(m.msgId)) {
          this.keep(m, { kind: 'decoded', text: describeBody(m), bodyHex: bodyBytesHex(m, this.host.tzOffsetMinutes) });
          return;
        }
        // Platform messages sent up by a confused terminal.
        this.reply(m, UNSUPPORTED);
    }
  }

  /**
   * 0x0100: a terminal that is not registered registers and gets its code, bound to the hardware it
   * names; a registered one is refused as "already registered" and told nothing (an operator resets
   * the registration for a terminal that really lost its code).
   */
  private async register(m: Extract<KnownMessage, { msgId: typeof MsgId.Register }>): Promise<void> {
    const identity = await findTerminal(this.host.db, m.phone);
    if (!identity || (this.identity && this.identity.terminalId !== identity.terminalId)) {
      this.host.stats.refusedTerminals++;
      this.host.log.info({ phone: m.phone, remote: this.remoteAddress }, 'jt808 register refused: unknown terminal');
      this.send0x8100(m, { replySerial: m.serial, result: TERMINAL_NOT_FOUND });
      this.endSoon();
      return;
    }
    const b = m.body;
    const outcome = await registerTerminal(this.host.db, identity.terminalId, {
      makerId: b.makerId,
      model: b.model,
      deviceId: b.terminalId,
      layout: b.layout,
    });
    if (!outcome.ok) {
      this.host.stats.refusedTerminals++;
      this.host.refusals.record({
        terminal: identity,
        message: 'register',
        reason: outcome.reason,
        remoteAddress: this.remoteAddress,
        detail: { makerId: b.makerId, model: b.model, deviceId: b.terminalId, layout: b.layout },
      });
      this.send0x8100(m, { replySerial: m.serial, result: TERMINAL_REGISTERED });
      if (!this.identity) this.endSoon(); // an authenticated session keeps going
      return;
    }
    if (m.version === 2011) this.version = 2011;
    this.host.stats.registrations++;
    this.send0x8100(m, { replySerial: m.serial, result: OK, authCode: outcome.authCode });
  }

  /**
   * 0x0102: the code issued to this terminal, from the hardware it was issued to (the bound IMEI
   * with 2019); a live session of the terminal elsewhere that still answers is not replaced.
   */
  private async authenticate(m: Extract<KnownMessage, { msgId: typeof MsgId.Auth }>): Promise<void> {
    // The terminal and its registration in one query: the only one of a routine reconnect.
    const found = await findTerminalForAuth(this.host.db, m.phone, this.host.pool);
    if (!found || (this.identity && this.identity.terminalId !== found.identity.terminalId)) {
      this.host.stats.authFailures++;
      this.reply(m, FAIL);
      if (!found || ++this.authFailures >= this.host.limits.maxAuthFailures) this.endSoon();
      return;
    }
    const imei = m.version === 2019 ? m.body.imei || undefined : undefined;
    const { identity, auth } = found;
    const outcome = await checkAuthentication(this.host.db, identity.terminalId, auth, m.body.code, imei);
    if (!outcome.ok) {
      this.host.stats.authFailures++;
      this.host.refusals.record({
        terminal: identity,
        message: 'auth',
        reason: outcome.reason,
        remoteAddress: this.remoteAddress,
        detail: imei ? { imei } : undefined,
      });
      this.reply(m, FAIL);
      if (++this.authFailures >= this.host.limits.maxAuthFailures) this.endSoon();
      return;
    }
    if (!(await this.host.mayTakeOver(this, identity.terminalId))) {
      this.host.stats.authFailures++;
      this.host.stats.takeoversRefused++;
      this.host.refusals.record({ terminal: identity, message: 'auth', reason: 'liveSessionElsewhere', remoteAddress: this.remoteAddress });
      this.reply(m, FAIL);
      this.endSoon();
      return;
    }
    // The active safety standard goes by the model, looked up once when any model speaks another.
    if (this.model === undefined && needsModel(this.host.safety)) this.model = await registeredModel(this.host.db, identity.terminalId);
    if (this.closed) return; // cut at the deadline while the live session was probed
    this.identity = identity;
    this.phone = m.phone;
    if (this.version !== 2011 || m.version === 2019) this.version = m.version;
    this.protocolVersion = m.protocolVersion;
    clearTimeout(this.handshakeTimer);
    this.socket.setTimeout(this.host.limits.idleTimeoutMs);
    this.host.stats.authentications++;
    this.authenticatedAt = Date.now();
    this.host.onAuthenticated(this);
    this.reply(m, OK);
  }

  /**
   * Whether a frame with a wrong checksum is taken, by the policy for the terminal's registered
   * model (a 0x0100 names it in its body). Before authentication only a policy that accepts some
   * model costs a lookup, so noise on an anonymous socket never reaches the database.
   */
  private async acceptsBadChecksum(m: DecodedMessage): Promise<boolean> {
    const policy = this.host.checksum;
    if (this.model === undefined) {
      if (m.msgId === MsgId.Register && m.opaque === undefined) return checksumAction(policy, m.body.model) === 'accept';
      const anyAccepts = policy.default === 'accept' || Object.values(policy.models).includes('accept');
      if (!anyAccepts) return false;
      const terminalId = this.identity?.terminalId ?? (await findTerminal(this.host.db, m.phone))?.terminalId;
      if (terminalId === undefined) return policy.default === 'accept';
      const model = await registeredModel(this.host.db, terminalId);
      if (this.identity) this.model = model;
      return checksumAction(policy, model) === 'accept';
    }
    return checksumAction(policy, this.model) === 'accept';
  }

  /**
   * The last package of a media upload arrived and some did not: ask for those again, with 0x8800
   * (its media id is in package 1) or, when package 1 itself is missing, 0x8003 by serial.
   */
  private askForMissing(fragment: OpaqueMessage): void {
    const packet = fragment.packet;
    if (fragment.msgId !== MsgId.MediaData || !packet || packet.index !== packet.count || !this.isOwn(fragment)) return;
    const progress = this.assembler?.missingOf(fragment);
    if (!progress || progress.missing.length === 0) return;
    this.host.log.info(
      { terminalId: this.terminalId, missing: progress.missing.length, of: packet.count },
      'jt808 media packages asked again',
    );
    const header = {
      phone: fragment.phone,
      serial: this.nextSerial(),
      version: fragment.version,
      protocolVersion: fragment.protocolVersion,
    };
    if (progress.firstBody && progress.firstBody.length >= 4) {
      const mediaId = progress.firstBody.readUInt32BE(0);
      this.write(encodeMessage(header, { msgId: MsgId.MediaDataResponse, body: { mediaId, missing: progress.missing } }));
    } else {
      this.write(
        encodeMessage(header, {
          msgId: MsgId.RetransmitRequest,
          body: { firstSerial: progress.firstSerial, packageIds: progress.missing },
        }),
      );
    }
  }

  /** A whole media upload: file and row written, then answered 0x8800 with nothing missing. */
  private saveMedia(m: Extract<KnownMessage, { msgId: typeof MsgId.MediaData }>): void {
    const identity = this.identity!;
    this.pendingRecords++;
    this.host
      .media!.save({ terminalId: identity.terminalId, vehicleId: identity.vehicleId }, m.body)
      .then(
        () => {
          this.host.stats.keptMessages++;
          this.write(
            encodeMessage(
              { phone: m.phone, serial: this.nextSerial(), version: m.version, protocolVersion: m.protocolVersion },
              { msgId: MsgId.MediaDataResponse, body: { mediaId: m.body.mediaId, missing: [] } },
            ),
          );
        },
        (err: unknown) => {
          // Unanswered: the terminal uploads it again.
          this.host.stats.storeFailures++;
          this.host.log.warn({ err, terminalId: this.terminalId }, 'jt808 media not kept');
        },
      )
      .finally(() => {
        this.pendingRecords--;
        this.updateFlow();
      });
  }

  /**
   * A whole packet of the authenticated terminal whose body does not decode, of an id kept decoded:
   * kept raw with the reason (nothing it sent is lost) and answered "message error". False when it
   * is not that (another id, a fragment, someone else's packet): the caller drops it as a bad frame.
   */
  private keptMalformed(packet: Buffer, reason: string): boolean {
    let h;
    try {
      h = parseHeader(packet, this.version === 2011 ? 2011 : undefined, 0, packet.length, true);
    } catch {
      return false;
    }
    const m: Header = {
      msgId: h.msgId,
      version: h.version,
      phone: h.phone,
      serial: h.serial,
      properties: h.properties,
      encryption: h.encryption,
    };
    if (h.protocolVersion !== undefined) m.protocolVersion = h.protocolVersion;
    if (!h.packet && h.msgId === MsgId.DriverIdentity && this.isOwn(m)) {
      this.refuseCard(m, reason);
      return true;
    }
    if (h.packet || !KEPT_DECODED.has(h.msgId) || !this.isOwn(m)) return false;
    this.host.log.info({ terminalId: this.terminalId, msgId: h.msgId, reason }, 'jt808 malformed body kept');
    const body = packet.subarray(h.bodyOffset, Math.min(packet.length - 1, h.bodyOffset + h.bodyLength));
    this.keep(m, { kind: 'malformed', text: reason, bodyHex: body.toString('hex') }, MESSAGE_ERROR);
    return true;
  }

  /**
   * 0x0702: the card event it stands for is written, then acknowledged; a report that is none
   * (cardEvents.ts says why) is refused as a message error with the reason logged, and nothing is kept.
   */
  private cardEvent(m: Extract<KnownMessage, { msgId: typeof MsgId.DriverIdentity }>): void {
    const what = cardEventOf(this.identity!, m.body, Date.now());
    if ('reason' in what) return this.refuseCard(m, what.reason);
    this.pendingRecords++;
    keepCardEvent(this.host.db, what.event)
      .then(
        () => this.reply(m, OK),
        (err: unknown) => {
          this.host.stats.storeFailures++;
          this.host.log.warn({ err, terminalId: this.terminalId }, 'jt808 card event not kept');
        },
      )
      .finally(() => {
        this.pendingRecords--;
        this.updateFlow();
      });
  }

  private refuseCard(m: Header, reason: string): void {
    this.host.stats.refusedMessages++;
    this.host.log.info({ terminalId: this.terminalId, msgId: m.msgId, reason }, 'jt808 driver identity refused');
    this.reply(m, MESSAGE_ERROR);
  }

  /** A waybill or a vendor message: written, then acknowledged (the terminal resends if the write fails). */
  private keep(m: Header, what: Pick<KeptMessage, 'kind' | 'text' | 'bodyHex'>, result = OK): void {
    this.pendingRecords++;
    keepMessage(this.host.db, { ...what, terminalId: this.identity!.terminalId, msgId: m.msgId, flags: frameFlags(m) })
      .then(
        () => {
          this.host.stats.keptMessages++;
          this.reply(m, result);
        },
        (err: unknown) => {
          this.host.stats.storeFailures++;
          this.host.log.warn({ err, terminalId: this.terminalId }, 'jt808 message not kept');
        },
      )
      .finally(() => {
        this.pendingRecords--;
        this.updateFlow();
      });
  }

  /**
   * Positions without a fault are stored (positionFault). One off the globe is logged and not
   * stored; a message whose every position is off the globe is refused as a message error.
   */
  private store(m: Header, bodies: LocationBody[], blind: boolean, ack: boolean): void {
    const identity = this.identity!;
    const records: PositionRecord[] = [];
    const flags = frameFlags(m);
    let offGlobe = 0;
    const standard = this.safetyStandard;
    for (const body of bodies) {
      const b = standard === 'jsatl12' ? body : { ...body, extras: readSafetyItems(body.extras, standard, this.host.tzOffsetMinutes) };
      const fault = positionFault(b);
      const r = fault === null ? toRecord(identity, b, blind) : null;
      // An active safety alarm announcing attachments: ask for them (0x9208) on the attachment link.
      if (r && this.host.attachments && (b.extras.adas || b.extras.dsm || b.extras.tpms || b.extras.bsd))
        void this.host.attachments.request(this, identity, b.extras);
      if (r) {
        if (flags) r.extras = { ...r.extras, frame: flags };
        records.push(r);
      } else if (fault === 'offGlobe') {
        offGlobe++;
        this.host.stats.offGlobePositions++;
        this.host.log.debug(
          { terminalId: identity.terminalId, msgId: m.msgId, latitude: b.latitude, longitude: b.longitude },
          'jt808 position refused: off the globe',
        );
      } else this.host.stats.untimedPositions++;
    }
    if (offGlobe && offGlobe === bodies.length) {
      if (ack) this.reply(m, MESSAGE_ERROR);
      return;
    }
    this.persist(m, this.host.writer, records, ack);
  }

  /**
   * 0x0900: an OBD record (type 0xF0) is stored and acknowledged once committed; one whose bytes
   * do not fit the layout, or without a valid device time, is refused as a message error. Other
   * transparent data is acknowledged and not kept.
   */
  private transparent(m: Extract<KnownMessage, { msgId: typeof MsgId.Transparent }>): void {
    if (m.body.type !== OBD_RECORD_TYPE) {
      this.reply(m, OK);
      return;
    }
    const row = m.body.obdRecord ? toObdRow(this.identity!, m.body.obdRecord) : null;
    if (!row) {
      this.host.stats.badObdRecords++;
      this.host.log.debug({ terminalId: this.terminalId }, 'jt808 OBD record refused: malformed');
      this.reply(m, MESSAGE_ERROR);
      return;
    }
    this.persist(m, this.host.obdWriter, [row], true);
  }

  /** Hands records to their writer; the message is acknowledged (when `ack`) once they are committed. */
  private persist<R>(m: Header, writer: BatchWriter<R>, records: R[], ack: boolean): void {
    const n = records.length;
    this.pendingRecords += n;
    this.updateFlow();
    // Until the commit only what the acknowledgement needs stays alive, not the decoded message.
    const answered: Answered = { phone: m.phone, version: m.version, protocolVersion: m.protocolVersion, serial: m.serial, msgId: m.msgId };
    const handedAt = performance.now();
    writer.enqueue(this.identity!, records, (error) => {
      // No acknowledgement on failure: the terminal sends it again, and the store absorbs the repeat.
      if (error) this.host.stats.storeFailures++;
      else if (ack) {
        this.reply(answered, OK);
        this.host.acked?.((performance.now() - handedAt) / 1000);
      }
      this.pendingRecords -= n;
      this.updateFlow();
    });
  }

  private refuse(m: Header): void {
    this.host.stats.refusedMessages++;
    this.reply(m, FAIL);
    if (++this.refused > this.host.limits.maxRefused) this.endSoon();
  }

  private badFrame(packet: Buffer, code: string): void {
    this.host.stats.badFrames++;
    this.host.log.debug({ code, terminalId: this.terminalId, remote: this.remoteAddress, bytes: packet.length }, 'jt808 frame dropped');
    if (++this.badInARow > this.host.limits.maxBadFrames) this.close('garbage');
  }

  private reply(m: Answered, result: number): void {
    if (this.closed) return;
    // One per report: built from this terminal's packet made once, not encoded from scratch.
    if (!this.responses?.fits(m))
      this.responses = new ResponseEncoder({ phone: m.phone, version: m.version, protocolVersion: m.protocolVersion });
    this.write(this.responses.frame(this.nextSerial(), m.serial, m.msgId, result));
  }

  private send0x8100(m: Header, body: { replySerial: number; result: number; authCode?: string }): void {
    this.write(
      encodeMessage(
        { phone: m.phone, serial: this.nextSerial(), version: m.version, protocolVersion: m.protocolVersion },
        { msgId: MsgId.RegisterResponse, body },
      ),
    );
  }

  private write(frame: Buffer): void {
    if (this.closed) return;
    // A terminal that does not read its acknowledgements must not grow our memory.
    if (this.socket.writableLength > this.host.limits.maxOutputBytes) {
      this.close('output overflow');
      return;
    }
    // Acknowledgements of one committed batch leave in one writev instead of one write each.
    if (!this.corked) {
      this.corked = true;
      this.socket.cork();
      process.nextTick(() => {
        this.corked = false;
        this.socket.uncork();
      });
    }
    this.socket.write(frame);
  }

  /** Flush what was written, then close (the refusal reaches the terminal first). */
  private endSoon(): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.end();
    setTimeout(() => this.socket.destroy(), 1000).unref();
  }

  private nextSerial(): number {
    this.serial = (this.serial + 1) & 0xffff;
    return this.serial;
  }

  private onClosed(): void {
    this.closed = true;
    clearTimeout(this.handshakeTimer);
    this.assembler?.clear();
    this.host.onClosed(this);
  }
}
