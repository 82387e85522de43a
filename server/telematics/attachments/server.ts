/**
 * The attachment service (`JT808_ATTACHMENT_PORT`): where terminals upload the photos and clips of
 * an active safety alarm after the platform's 0x9208. One connection carries JT/T 808 frames
 * (0x1210 list, 0x1211 file info, 0x1212 done) and unframed file data (0x30316364 …) in any order;
 * each whole file is kept once in the media store with a row tying it to the alarm's key, and 0x9212
 * answers each 0x1212 with the ranges still missing, so a cut upload resumes on a new connection.
 * Refused, with the reason logged and nothing stored: a list whose alarm number the platform did not
 * issue to this terminal, or whose identification differs; a file name that is not a plain name
 * (a path, `..`, other characters); a declared size beyond the limit; data for a file not announced,
 * or at an offset or length beyond its size (the part received so far is dropped).
 */

import net from 'node:net';
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import { decodeFrame, encodeFrame, encodeMessage, isJt808DecodeError, MsgId, type DecodedMessage } from '../jt808/codec';
import { identificationKey, type SafetyStandard } from '../jt808/messages/activeSafety';
import {
  ATTACHMENT_MSG,
  DATA_HEADER_BYTES,
  DATA_MAGIC,
  decodeAttachmentList,
  decodeFileInfo,
  encodeFileDoneAnswer,
  readDataHeader,
  type AttachmentList,
} from '../jt808/messages/attachmentUpload';
import { registeredModel, findTerminal } from '../gateway/terminals';
import { safetyStandardOf, type SafetyStandardPolicy } from '../gateway/safetyStandard';
import type { MediaStore } from '../media/mediaStore';
import { findRequest, type RequestRow } from './requests';
import { missingOf, Partials } from './partials';

export interface AttachmentLimits {
  /** Largest file a terminal may declare (default 64 MiB). */
  maxFileBytes: number;
  /** Largest data frame (default 1 MiB; terminals send 64 KiB). */
  maxChunkBytes: number;
  /** A connection silent this long is closed (default 60 s). */
  idleMs: number;
  /** A part nobody added to this long is dropped (default 30 min). */
  partTtlMs: number;
}

export const DEFAULT_ATTACHMENT_LIMITS: AttachmentLimits = {
  maxFileBytes: 64 * 1024 * 1024,
  maxChunkBytes: 1024 * 1024,
  idleMs: 60_000,
  partTtlMs: 30 * 60_000,
};

export interface AttachmentLog {
  info(o: object, msg: string): void;
  warn(o: object, msg: string): void;
  debug(o: object, msg: string): void;
}

export interface AttachmentServerOptions {
  db: Kysely<DB>;
  media: MediaStore;
  safety: SafetyStandardPolicy;
  log: AttachmentLog;
  tzOffsetMinutes?: number;
  limits?: Partial<AttachmentLimits>;
}

export interface AttachmentStats {
  connections: number;
  filesStored: number;
  refused: number;
}

/** A plain file name: letters, digits, `_`, `-`, `.`; no path, no `..`; at most 50 bytes (the data frame's field). */
const SAFE_NAME = /^(?!.*\.\.)[A-Za-z0-9_.-]{1,50}$/;
const MAX_FRAME = 4096;
const OK = 0;
const FAIL = 1;

/** One refusal: why, logged, and whether the connection ends. */
class Refusal extends Error {}

export class AttachmentServer {
  readonly stats: AttachmentStats = { connections: 0, filesStored: 0, refused: 0 };
  readonly limits: AttachmentLimits;
  private readonly server: net.Server;
  private readonly partials: Partials;
  private readonly sockets = new Set<net.Socket>();

  constructor(private readonly opts: AttachmentServerOptions) {
    this.limits = { ...DEFAULT_ATTACHMENT_LIMITS, ...opts.limits };
    this.partials = new Partials(`${opts.media.dir}/partial`, this.limits.partTtlMs);
    this.server = net.createServer((socket) => this.accept(socket));
  }

  listen(port: number, host?: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve((this.server.address() as net.AddressInfo).port); // a TCP server's address is an AddressInfo
      });
    });
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await this.partials.close();
  }

  private accept(socket: net.Socket): void {
    this.stats.connections++;
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    new Connection(socket, this.opts, this.limits, this.partials, this.stats);
  }
}

class Connection {
  private buf: Buffer = Buffer.alloc(0);
  private chain: Promise<void> = Promise.resolve();
  private closed = false;
  private serial = 0;
  private terminal: { terminalId: number; phone: string; standard: SafetyStandard } | undefined;
  private request: RequestRow | undefined;
  private list: AttachmentList | undefined;
  private readonly remote: string | null;

  constructor(
    private readonly socket: net.Socket,
    private readonly opts: AttachmentServerOptions,
    private readonly limits: AttachmentLimits,
    private readonly partials: Partials,
    private readonly stats: AttachmentStats,
  ) {
    this.remote = socket.remoteAddress ?? null;
    socket.setTimeout(limits.idleMs);
    socket.on('timeout', () => this.end('idle'));
    socket.on('error', () => this.end('socket error'));
    socket.on('close', () => (this.closed = true));
    socket.on('data', (chunk: Buffer) => {
      this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
      // One chunk at a time in order: data is written before the 0x1212 that follows it is read.
      socket.pause();
      this.chain = this.chain.then(() => this.drain()).finally(() => !this.closed && socket.resume());
    });
  }

  private end(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.opts.log.debug({ terminalId: this.terminal?.terminalId, remote: this.remote, reason }, 'attachment connection closing');
    this.socket.destroy();
  }

  private refuse(reason: string, detail: object = {}): never {
    this.stats.refused++;
    this.opts.log.warn({ terminalId: this.terminal?.terminalId, remote: this.remote, reason, ...detail }, 'attachment upload refused');
    throw new Refusal(reason);
  }

  /** Takes every whole frame out of the buffer. */
  private async drain(): Promise<void> {
    try {
      while (!this.closed && this.buf.length) {
        const taken = this.buf[0] === 0x7e ? await this.takeFrame() : await this.takeData();
        if (taken === 0) return; // wait for more bytes
        this.buf = this.buf.subarray(taken);
      }
    } catch (e) {
      if (!(e instanceof Refusal)) this.opts.log.warn({ err: e, terminalId: this.terminal?.terminalId }, 'attachment connection failed');
      this.end(e instanceof Refusal ? e.message : 'internal error');
    }
  }

  private async takeFrame(): Promise<number> {
    const close = this.buf.indexOf(0x7e, 1);
    if (close < 0) {
      if (this.buf.length > MAX_FRAME) this.refuse('frameTooLong');
      return 0;
    }
    if (close === 1) return 1; // two flags in a row: the first closed nothing
    let m: DecodedMessage;
    try {
      m = decodeFrame(this.buf.subarray(0, close + 1));
    } catch (e) {
      if (!isJt808DecodeError(e)) throw e;
      this.refuse('badFrame', { code: e.code });
    }
    await this.handle(m);
    return close + 1;
  }

  private async takeData(): Promise<number> {
    if (this.buf.length < 4) return 0;
    if (this.buf.readUInt32BE(0) !== DATA_MAGIC) this.refuse('notAFrame', { first: this.buf.subarray(0, 4).toString('hex') });
    if (this.buf.length < DATA_HEADER_BYTES) return 0;
    const h = readDataHeader(this.buf);
    if (h.length > this.limits.maxChunkBytes) this.refuse('chunkTooLong', { name: h.name, length: h.length });
    if (this.buf.length < DATA_HEADER_BYTES + h.length) return 0;
    const request = this.request;
    const part = request ? this.partials.get(request.id, h.name) : undefined;
    if (!request || !part) this.refuse('dataForUnannouncedFile', { name: h.name });
    if (h.length === 0 || h.offset + h.length > part.size) {
      await this.partials.drop(part.key);
      this.refuse('badOffset', { name: h.name, offset: h.offset, length: h.length, size: part.size });
    }
    await this.partials.write(part, h.offset, Buffer.from(this.buf.subarray(DATA_HEADER_BYTES, DATA_HEADER_BYTES + h.length)));
    return DATA_HEADER_BYTES + h.length;
  }

  private async handle(m: DecodedMessage): Promise<void> {
    const body = m.opaque === 'unknown' ? m.body : null;
    switch (m.msgId) {
      case ATTACHMENT_MSG.list:
        if (!body) return this.refuse('badFrame');
        await this.onList(m, body);
        return;
      case ATTACHMENT_MSG.fileInfo:
        if (!body) return this.refuse('badFrame');
        await this.onFileInfo(m, body);
        return;
      case ATTACHMENT_MSG.fileDone:
        if (!body) return this.refuse('badFrame');
        await this.onFileDone(m, body);
        return;
      case MsgId.Heartbeat:
        this.answer(m, OK);
        return;
      default:
        this.answer(m, FAIL);
        this.refuse('unexpectedMessage', { msgId: m.msgId });
    }
  }

  /** 0x1210: the alarm number must be one the platform gave this terminal, for this identification. */
  private async onList(m: DecodedMessage, body: Buffer): Promise<void> {
    const found = await findTerminal(this.opts.db, m.phone);
    if (!found) {
      this.answer(m, FAIL);
      this.refuse('unknownTerminal', { phone: m.phone });
    }
    const standard = safetyStandardOf(this.opts.safety, await registeredModel(this.opts.db, found.terminalId));
    this.terminal = { terminalId: found.terminalId, phone: m.phone, standard };
    let list: AttachmentList;
    try {
      list = decodeAttachmentList(body, standard, this.opts.tzOffsetMinutes ?? 480);
    } catch (e) {
      if (!isJt808DecodeError(e)) throw e;
      this.answer(m, FAIL);
      this.refuse('badList', { error: e.message });
    }
    const request = await findRequest(this.opts.db, list.alarmNumber);
    if (!request || request.terminalId !== found.terminalId) {
      this.answer(m, FAIL);
      this.refuse('unknownAlarmNumber', { alarmNumber: list.alarmNumber });
    }
    if (identificationKey(list.identification) !== request.alarmKey) {
      this.answer(m, FAIL);
      this.refuse('identificationMismatch', { alarmKey: request.alarmKey, listed: identificationKey(list.identification) });
    }
    for (const f of list.files) {
      if (!SAFE_NAME.test(f.name)) {
        this.answer(m, FAIL);
        this.refuse('badFileName', { name: f.name });
      }
      if (f.size === 0 || f.size > this.limits.maxFileBytes) {
        this.answer(m, FAIL);
        this.refuse('fileTooLarge', { name: f.name, size: f.size, max: this.limits.maxFileBytes });
      }
    }
    this.request = request;
    this.list = list;
    this.answer(m, OK);
  }

  private listed(name: string): { name: string; size: number } | undefined {
    return this.list?.files.find((f) => f.name === name);
  }

  /** 0x1211: a file of the list, with the size it was listed with. */
  private async onFileInfo(m: DecodedMessage, body: Buffer): Promise<void> {
    const info = this.info(m, body, '0x1211');
    await this.partials.open(this.request!.id, info.name, info.size, info.type);
    this.answer(m, OK);
  }

  /** 0x1212: whole → kept in the media store and answered complete; else the missing ranges. */
  private async onFileDone(m: DecodedMessage, body: Buffer): Promise<void> {
    const info = this.info(m, body, '0x1212');
    const request = this.request!;
    const part = this.partials.get(request.id, info.name) ?? (await this.partials.open(request.id, info.name, info.size, info.type));
    const missing = missingOf(part.ranges, part.size);
    if (missing.length) {
      // At most 255 ranges fit one answer; the terminal asks again after sending those.
      this.send(
        m,
        ATTACHMENT_MSG.fileDoneAnswer,
        encodeFileDoneAnswer({ name: info.name, type: info.type, result: 1, missing: missing.slice(0, 255) }),
      );
      return;
    }
    const data = await this.partials.read(part);
    await this.opts.media.saveAttachment(
      { requestId: request.id, terminalId: request.terminalId, vehicleId: request.vehicleId, alarmKey: request.alarmKey },
      { name: info.name, type: info.type },
      data,
    );
    await this.partials.drop(part.key);
    this.stats.filesStored++;
    this.opts.log.info(
      { terminalId: request.terminalId, alarmKey: request.alarmKey, name: info.name, bytes: data.length },
      'attachment stored',
    );
    // Recorded before the answer: a terminal told "complete" finds the request complete.
    await this.completeIfWhole(request);
    this.send(m, ATTACHMENT_MSG.fileDoneAnswer, encodeFileDoneAnswer({ name: info.name, type: info.type, result: 0, missing: [] }));
  }

  /** The request is complete once every listed file has its row. */
  private async completeIfWhole(request: RequestRow): Promise<void> {
    const kept = await this.opts.db
      .selectFrom('alarm_attachment')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('request_id', '=', request.id)
      .executeTakeFirstOrThrow();
    if (Number(kept.n) >= (this.list?.files.length ?? request.attachments))
      await this.opts.db.updateTable('attachment_request').set({ completed_at: new Date() }).where('id', '=', request.id).execute();
  }

  private info(m: DecodedMessage, body: Buffer, what: string): { name: string; type: number; size: number } {
    if (!this.request) {
      this.answer(m, FAIL);
      this.refuse('noList', { msgId: m.msgId });
    }
    let info: { name: string; type: number; size: number };
    try {
      info = decodeFileInfo(body, what);
    } catch (e) {
      if (!isJt808DecodeError(e)) throw e;
      this.answer(m, FAIL);
      this.refuse('badFileInfo', { error: e.message });
    }
    const listed = this.listed(info.name);
    if (!listed || listed.size !== info.size) {
      this.answer(m, FAIL);
      this.refuse('fileNotListed', { name: info.name, size: info.size });
    }
    return info;
  }

  private answer(m: DecodedMessage, result: number): void {
    this.send(m, MsgId.PlatformResponse, null, { replySerial: m.serial, replyMsgId: m.msgId, result });
  }

  private send(
    m: DecodedMessage,
    msgId: number,
    body: Buffer | null,
    response?: { replySerial: number; replyMsgId: number; result: number },
  ): void {
    if (this.closed) return;
    const header = {
      phone: m.phone,
      serial: (this.serial = (this.serial + 1) & 0xffff),
      version: m.version,
      protocolVersion: m.protocolVersion,
    };
    this.socket.write(
      response
        ? encodeMessage(header, { msgId: MsgId.PlatformResponse, body: response })
        : encodeFrame({ ...header, msgId }, body ?? Buffer.alloc(0)),
    );
  }
}
