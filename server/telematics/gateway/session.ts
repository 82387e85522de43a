/**
 * One terminal connection: framing, the register → authenticate handshake, then reports.
 * Packets are handled in arrival order (a promise chain), but stores are not awaited in that
 * chain: a report is acknowledged when its batch commits, while later packets keep flowing until
 * a bound is hit, then the socket stops being read (backpressure reaches the terminal's TCP window).
 */

import type net from 'node:net';
import {
  decodePacket,
  encodeMessage,
  FrameSplitter,
  isJt808DecodeError,
  MsgId,
  parseHeader,
  SubpackageAssembler,
  type DecodedMessage,
  type Jt808BodyInput,
  type Jt808Version,
  type KnownMessage,
  type LocationBody,
  type MessageMeta,
} from '../jt808/codec';
import type { BatchWriter } from '../store/batchWriter';
import { OBD_RECORD_TYPE, toObdRow } from '../store/obdRecords';
import { toRecord, type PositionRecord, type TerminalIdentity } from '../store/records';
import type { SessionHost } from './host';
import { checkAuthCode, findTerminal, issueAuthCode } from './terminals';

/** 0x8001 results. */
const OK = 0;
const FAIL = 1;
const MESSAGE_ERROR = 2;
const UNSUPPORTED = 3;
/** 0x8100 result: terminal not in the database. */
const TERMINAL_NOT_FOUND = 4;

type Header = MessageMeta & { msgId: number };

export class Session {
  /** Set once authenticated. */
  identity: TerminalIdentity | undefined;
  readonly remoteAddress: string | null;
  private phone: string | undefined;
  private version: Jt808Version = 2013;
  private protocolVersion: number | undefined;
  private readonly splitter: FrameSplitter;
  /** Made on the first fragment: most terminals never subpackage, and idle connections stay small. */
  private assembler: SubpackageAssembler | undefined;
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

  constructor(
    private readonly socket: net.Socket,
    private readonly host: SessionHost,
  ) {
    const { limits } = host;
    this.remoteAddress = socket.remoteAddress ?? null;
    this.splitter = new FrameSplitter({ maxFrameBytes: limits.maxFrameBytes, onDrop: () => host.stats.droppedFrames++ });
    socket.setNoDelay(true);
    socket.setTimeout(limits.authTimeoutMs);
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

  get isPaused(): boolean {
    return this.paused;
  }

  /** Sends a platform message to the terminal; returns its serial (null when closed). */
  send(message: Jt808BodyInput): number | null {
    if (this.closed || !this.phone) return null;
    const serial = this.nextSerial();
    this.write(encodeMessage({ phone: this.phone, serial, version: this.version, protocolVersion: this.protocolVersion }, message));
    return serial;
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
      this.queuedPackets > limits.maxQueuedPackets || this.pendingRecords > limits.maxPendingRecords || this.host.writer.saturated || this.host.obdWriter.saturated;
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

  private onData(chunk: Buffer): void {
    for (const packet of this.splitter.push(chunk)) {
      this.queuedPackets++;
      this.chain = this.chain.then(() => this.handlePacket(packet));
    }
    this.updateFlow();
  }

  private async handlePacket(packet: Buffer): Promise<void> {
    try {
      if (!this.closed) await this.handle(packet);
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
      m = decodePacket(packet, { assume2011: this.version === 2011, tzOffsetMinutes: this.host.tzOffsetMinutes, maxFrameBytes: this.host.limits.maxFrameBytes });
      if (m.opaque === 'fragment') {
        this.assembler ??= new SubpackageAssembler({ ...this.host.limits.subpackage, tzOffsetMinutes: this.host.tzOffsetMinutes });
        m = this.assembler.push(m);
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
      // Unknown id or encrypted body: answered "unsupported" once authenticated.
      if (this.isOwn(m)) this.reply(m, UNSUPPORTED);
      else this.refuse(m);
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
        this.host.onResponse({ terminalId: this.identity!.terminalId, replySerial: m.body.replySerial, replyMsgId: MsgId.LocationQuery, result: OK, location: m.body.location });
        return;
      case MsgId.TerminalResponse:
        this.host.onResponse({ terminalId: this.identity!.terminalId, replySerial: m.body.replySerial, replyMsgId: m.body.replyMsgId, result: m.body.result });
        return;
      case MsgId.Transparent:
        this.transparent(m);
        return;
      default:
        // Platform messages sent up by a confused terminal.
        this.reply(m, UNSUPPORTED);
    }
  }

  private async register(m: Extract<KnownMessage, { msgId: typeof MsgId.Register }>): Promise<void> {
    const identity = await findTerminal(this.host.db, m.phone);
    if (!identity || (this.identity && this.identity.terminalId !== identity.terminalId)) {
      this.host.stats.refusedTerminals++;
      this.host.log.info({ phone: m.phone, remote: this.remoteAddress }, 'jt808 register refused: unknown terminal');
      this.send0x8100(m, { replySerial: m.serial, result: TERMINAL_NOT_FOUND });
      this.endSoon();
      return;
    }
    const authCode = await issueAuthCode(this.host.db, identity.terminalId);
    if (m.version === 2011) this.version = 2011;
    this.host.stats.registrations++;
    this.send0x8100(m, { replySerial: m.serial, result: OK, authCode });
  }

  private async authenticate(m: Extract<KnownMessage, { msgId: typeof MsgId.Auth }>): Promise<void> {
    const identity = await findTerminal(this.host.db, m.phone);
    const ok = identity !== null && (await checkAuthCode(this.host.db, identity.terminalId, m.body.code));
    if (!identity || !ok || (this.identity && this.identity.terminalId !== identity.terminalId)) {
      this.host.stats.authFailures++;
      this.reply(m, FAIL);
      if (!identity || ++this.authFailures >= this.host.limits.maxAuthFailures) this.endSoon();
      return;
    }
    this.identity = identity;
    this.phone = m.phone;
    if (this.version !== 2011 || m.version === 2019) this.version = m.version;
    this.protocolVersion = m.protocolVersion;
    this.socket.setTimeout(this.host.limits.idleTimeoutMs);
    this.host.stats.authentications++;
    this.host.onAuthenticated(this);
    this.reply(m, OK);
  }

  private store(m: Header, bodies: LocationBody[], blind: boolean, ack: boolean): void {
    const identity = this.identity!;
    const records: PositionRecord[] = [];
    for (const b of bodies) {
      const r = toRecord(identity, b, blind);
      if (r) records.push(r);
      else this.host.stats.untimedPositions++;
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
    writer
      .add(this.identity!, records)
      .then(
        () => {
          if (ack) this.reply(m, OK);
        },
        // No acknowledgement: the terminal sends it again, and the store absorbs the repeat.
        () => this.host.stats.storeFailures++,
      )
      .finally(() => {
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
    this.host.log.debug({ code, terminalId: this.terminalId, remote: this.remoteAddress }, 'jt808 frame dropped');
    if (code === 'BAD_CHECKSUM') {
      // Per the protocol: a message error, so the terminal sends the message again.
      try {
        this.reply(parseHeader(packet), MESSAGE_ERROR);
      } catch {
        /* the header itself is broken: nothing to answer */
      }
    }
    if (++this.badInARow > this.host.limits.maxBadFrames) this.close('garbage');
  }

  private reply(m: Header, result: number): void {
    if (this.closed) return;
    this.write(
      encodeMessage(
        { phone: m.phone, serial: this.nextSerial(), version: m.version, protocolVersion: m.protocolVersion },
        { msgId: MsgId.PlatformResponse, body: { replySerial: m.serial, replyMsgId: m.msgId, result } },
      ),
    );
  }

  private send0x8100(m: Header, body: { replySerial: number; result: number; authCode?: string }): void {
    this.write(encodeMessage({ phone: m.phone, serial: this.nextSerial(), version: m.version, protocolVersion: m.protocolVersion }, { msgId: MsgId.RegisterResponse, body }));
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
    this.assembler?.clear();
    this.host.onClosed(this);
  }
}
