/**
 * A simulated JT/T 808 terminal over real TCP: registers, authenticates with the code it was
 * issued, reports positions, keeps every report until the platform acknowledges it and sends the
 * unacknowledged ones again after a reconnect (as real terminals do), answers downlink commands,
 * and keeps its parameters: 0x8103 sets them, 0x8104 / 0x8106 read them back (0x0104). It answers
 * an attributes query (0x0107), keeps a temporary tracking (0x8202), its doors' lock (0x8500,
 * answered 0x0500 with its position), the areas and routes set on it (0x8600–0x8607), and takes an
 * upgrade package in packages (each acknowledged), answering 0x0108 "upgraded" once it is whole.
 * It takes photos when asked (0x8801, answered 0x0805 with their media ids) and uploads them as
 * multi-package 0x0801 (sending again the packages a 0x8800 lists), as it does a photo on an alarm.
 */

import { EventEmitter } from 'node:events';
import net from 'node:net';
import {
  decodePacket,
  encodeMessage,
  encodeMessageFrames,
  FrameSplitter,
  MsgId,
  PARAM,
  PHOTO_RECORD,
  PHOTO_STOP,
  SubpackageAssembler,
  type DecodedMessage,
  type DriverIdentityBody,
  type Jt808BodyInput,
  type Jt808Version,
  type LocationInput,
  type MediaEventBody,
  type ObdRecordInput,
  type TakePhotoBody,
  type TerminalAttributesBody,
  type TerminalParam,
  type ResourceQueryBody,
  type VideoResource,
  VEHICLE_CONTROL_DOORS,
} from '../telematics/jt808/codec';
import { OBD_RECORD_TYPE } from '../telematics/store/obdRecords';
import type { LatencyHistogram } from './latency';
import { ATTACHMENT_MSG } from '../telematics/jt808/messages/attachmentUpload';
import { drawPhoto, type PhotoShot } from './photo';

/** Body bytes per package of a media upload (the standard allows up to 1023). */
const MEDIA_PACKAGE_BYTES = 1000;
/** Rounds of sending again what the platform lists missing before a media upload gives up. */
const MEDIA_ROUNDS = 3;
/** 0x0801 type and format codes of a JPEG photo. */
const IMAGE = 0;
const JPEG = 0;

export interface SimTerminalOptions {
  host: string;
  port: number;
  /** Header phone: the terminal number (or SIM) the platform knows. */
  phone: string;
  version?: Jt808Version;
  /** Source address (several 127.0.0.x lift the 64k ports-per-address limit). */
  localAddress?: string;
  /** Resend a report not acknowledged within this many ms (default 10 s). */
  ackTimeoutMs?: number;
  /** How long to wait for the register / authenticate replies (default 30 s: a busy platform is slow). */
  replyTimeoutMs?: number;
  /** Remember the device time of every acknowledged position (tests compare them with the database). */
  keepAcked?: boolean;
  /** Where the terminal is now, for answering 0x8201. */
  currentLocation?: () => LocationInput;
  /** Records, per acknowledged position report, the time from its (last) sending to its acknowledgement. */
  ackLatency?: Pick<LatencyHistogram, 'record'>;
  /** Draws the photo of a shot (default: drawPhoto, labelled with the terminal number). */
  photo?: (shot: PhotoShot) => Buffer;
  /** How long to wait for the platform's 0x8800 to a media upload (default 30 s). */
  mediaTimeoutMs?: number;
}

/** A temporary tracking asked by 0x8202: report every `interval` s until `until` (ms). */
export interface SimTracking {
  interval: number;
  until: number;
}

export type SimAreaKind = 'circle' | 'rectangle' | 'polygon' | 'route';

const SET_AREAS: ReadonlyMap<number, SimAreaKind> = new Map([
  [MsgId.SetCircleAreas, 'circle'],
  [MsgId.SetRectangleAreas, 'rectangle'],
  [MsgId.SetPolygonArea, 'polygon'],
  [MsgId.SetRoute, 'route'],
]);
const DELETE_AREAS: ReadonlyMap<number, SimAreaKind> = new Map([
  [MsgId.DeleteCircleAreas, 'circle'],
  [MsgId.DeleteRectangleAreas, 'rectangle'],
  [MsgId.DeletePolygonAreas, 'polygon'],
  [MsgId.DeleteRoutes, 'route'],
]);

/** Where a terminal that was never given a position says it is, now (its answer to 0x8500 needs one). */
const nowhere = (): LocationInput => ({ latitude: 30.2741, longitude: 120.1551, time: Date.now() });

export interface SimTerminalStats {
  /** Positions handed to report()/reportBatch() (each counted once, however often resent). */
  positions: number;
  acked: number;
  /** OBD records (0x0900) handed to reportObd() and acknowledged. */
  obdRecords: number;
  obdAcked: number;
  resent: number;
  commands: number;
  /** Media uploads the platform answered complete (0x8800 with nothing missing). */
  mediaUploaded: number;
}

interface Unacked {
  message: Jt808BodyInput;
  positions: LocationInput[];
  /** OBD records the message carries (0 or 1). */
  obd: number;
  sentAt: number;
}

export class RefusedError extends Error {}
/**
 * The platform closed the connection before answering (e.g. a gateway over its connection caps):
 * not a refusal of this terminal, so it is worth trying again later.
 */
export class ClosedError extends Error {}

/** The platform did not answer a handshake message in time. */
export class NoReplyError extends Error {}

/** What a terminal fresh from the factory answers to a parameter query (0x8104). */
function factoryParams(host: string, port: number): TerminalParam[] {
  return [
    { id: PARAM.heartbeatInterval, type: 'u32', value: 60 },
    { id: PARAM.tcpAckTimeout, type: 'u32', value: 10 },
    { id: PARAM.tcpRetries, type: 'u32', value: 3 },
    { id: PARAM.apn, type: 'string', value: 'cmnet' },
    { id: PARAM.mainServer, type: 'string', value: `${host}:${port}` },
    { id: PARAM.defaultReportInterval, type: 'u32', value: 30 },
    { id: PARAM.maxSpeed, type: 'u32', value: 120 },
    { id: PARAM.overspeedDuration, type: 'u32', value: 10 },
  ];
}

/** Events: 'command' (decoded platform message), 'close'. */
export class SimTerminal extends EventEmitter {
  readonly stats: SimTerminalStats = { positions: 0, acked: 0, obdRecords: 0, obdAcked: 0, resent: 0, commands: 0, mediaUploaded: 0 };
  /** Device times (ms) of acknowledged positions, when keepAcked. */
  readonly ackedTimes: number[] = [];
  authCode: string | undefined;
  private socket: net.Socket | undefined;
  private splitter = new FrameSplitter();
  private serial = 0;
  /** Keys of reports made while offline (negative, so they never meet a serial). */
  private offlineKey = 0;
  private online = false;
  private readonly unacked = new Map<number, Unacked>();
  private waiting = new Map<string, (m: DecodedMessage) => void>();
  private readonly version: Jt808Version;
  /** Its parameters by id, as set by 0x8103 (kept across reconnects, as in flash). */
  readonly params = new Map<number, TerminalParam>();
  /** The temporary tracking the platform asked for (0x8202), null when none or stopped. */
  tracking: SimTracking | null = null;
  /** The doors, as 0x8500 left them. */
  doorsLocked = false;
  /** Its terminal-side areas and routes (`kind:id` → the message that set it), as 0x8600–0x8607 left them. */
  readonly areas = new Map<string, Jt808BodyInput>();
  /** The last position it reported. */
  private lastLocation: LocationInput | undefined;
  /** What it answers a resource query (0x9205) with; null: no camera, the query is unsupported. */
  recordings: ((q: ResourceQueryBody) => VideoResource[]) | null = null;
  /** The upgrade packages it received whole (0x8108), answered 0x0108 upgraded. */
  readonly upgrades: Array<{ type: number; version: string; size: number }> = [];
  /** The next media id it gives a photo (ids count up across reconnects, as in flash). */
  private nextMediaId = 1;
  /** Media uploads waiting for the platform's 0x8800, by media id. */
  private readonly mediaAnswers = new Map<number, (missing: number[] | null) => void>();
  /** Packages of long platform messages (an upgrade of up to 8 MB). */
  private readonly assembler = new SubpackageAssembler({ maxBytes: 9 * 1024 * 1024, maxSets: 2 });

  constructor(readonly opts: SimTerminalOptions) {
    super();
    this.version = opts.version ?? 2013;
    for (const p of factoryParams(opts.host, opts.port)) this.params.set(p.id, p);
  }

  get isOnline(): boolean {
    return this.online;
  }

  /** Positions and OBD records not acknowledged yet. */
  get unackedCount(): number {
    let n = 0;
    for (const u of this.unacked.values()) n += u.positions.length + u.obd;
    return n;
  }

  /** Connects, registers when it holds no auth code, authenticates, and resends what is unacknowledged. */
  async connect(): Promise<void> {
    this.online = false;
    const socket = net.connect({ host: this.opts.host, port: this.opts.port, localAddress: this.opts.localAddress });
    this.splitter = new FrameSplitter();
    socket.setNoDelay(true);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    this.socket = socket;
    socket.on('error', () => undefined); // 'close' follows
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('close', () => {
      this.online = false;
      if (this.socket === socket) this.socket = undefined;
      for (const [, w] of this.waiting) w(closedMarker);
      this.waiting.clear();
      for (const [, w] of this.mediaAnswers) w(null);
      this.mediaAnswers.clear();
      this.emit('close');
    });
    if (!this.authCode) {
      const r = await this.request(
        {
          msgId: MsgId.Register,
          body: {
            province: 31,
            city: 100,
            makerId: 'FSSIM',
            model: 'FS-OBD-1',
            terminalId: this.opts.phone.slice(-7),
            plateColor: 1,
            plate: '',
          },
        },
        'reg',
      );
      if (r.opaque !== undefined || r.msgId !== MsgId.RegisterResponse || r.body.result !== 0 || !r.body.authCode) {
        socket.destroy();
        throw new RefusedError(`register refused for ${this.opts.phone}`);
      }
      this.authCode = r.body.authCode;
    }
    const a = await this.request(
      { msgId: MsgId.Auth, body: { code: this.authCode, imei: '860000000000000', softwareVersion: 'sim-1.0' } },
      `ack:${MsgId.Auth}`,
    );
    if (a.opaque !== undefined || a.msgId !== MsgId.PlatformResponse || a.body.result !== 0) {
      this.authCode = undefined; // register again next time
      socket.destroy();
      throw new RefusedError(`authentication refused for ${this.opts.phone}`);
    }
    this.online = true;
    this.resendUnacked(0);
  }

  /** Sends one 0x0200; kept until acknowledged. Returns false when offline (the caller may buffer). */
  report(location: LocationInput): boolean {
    this.stats.positions++;
    this.lastLocation = location;
    return this.sendTracked({ msgId: MsgId.Location, body: location }, [location]);
  }

  /** Sends one OBD record as 0x0900 transparent data (type 0xF0); kept until acknowledged. */
  reportObd(record: ObdRecordInput): boolean {
    this.stats.obdRecords++;
    return this.sendTracked({ msgId: MsgId.Transparent, body: { type: OBD_RECORD_TYPE, obdRecord: record } }, [], 1);
  }

  /** Sends a 0x0704 batch (blind = type 1 re-upload after an outage). */
  reportBatch(items: LocationInput[], blind: boolean): boolean {
    this.stats.positions += items.length;
    return this.sendTracked({ msgId: MsgId.BatchLocation, body: { type: blind ? 1 : 0, items } }, items);
  }

  /** Sends a 0x0702 IC card report (a card inserted or removed); kept until acknowledged. */
  cardEvent(body: DriverIdentityBody): boolean {
    return this.sendTracked({ msgId: MsgId.DriverIdentity, body }, []);
  }

  /**
   * Uploads one media file as 0x0801 in packages, sending again what the platform's 0x8800 lists
   * missing; resolves true once it answers with nothing missing, false when the link closes, the
   * platform stays silent or packages are still missing after a few rounds.
   */
  async uploadMedia(head: MediaEventBody, data: Buffer, location?: LocationInput, packageBytes = MEDIA_PACKAGE_BYTES): Promise<boolean> {
    if (!this.online || !this.socket) return false;
    const first = (this.serial + 1) & 0xffff;
    const at = location ?? this.opts.currentLocation?.() ?? this.lastLocation ?? nowhere();
    const frames = encodeMessageFrames(
      { phone: this.opts.phone, serial: first, version: this.version },
      { msgId: MsgId.MediaData, body: { ...head, location: at, data } },
      { maxPacketBody: packageBytes },
    );
    this.serial = (first + frames.length - 1) & 0xffff;
    let send = frames;
    for (let round = 0; round < MEDIA_ROUNDS; round++) {
      const answered = this.mediaAnswer(head.mediaId);
      for (const f of send) this.socket?.write(f);
      const missing = await answered;
      if (missing === null) return false;
      if (!missing.length) {
        this.stats.mediaUploaded++;
        return true;
      }
      send = missing.flatMap((i) => frames[i - 1] ?? []);
    }
    return false;
  }

  /**
   * A photo on an alarm, as terminals take one: the 0x0800 event (kept until acknowledged, like its
   * reports), then the photo uploaded. Resolves as uploadMedia does.
   */
  async alarmPhoto(event: number, location: LocationInput, channel = 1): Promise<boolean> {
    const head: MediaEventBody = { mediaId: this.takeMediaId(), type: IMAGE, format: JPEG, event, channel };
    this.sendTracked({ msgId: MsgId.MediaEvent, body: head }, []);
    const time = new Date(location.time as string | number | Date).getTime();
    return this.uploadMedia(head, this.drawShot({ time, channel }), location);
  }

  heartbeat(): void {
    if (this.online) this.write({ msgId: MsgId.Heartbeat });
  }

  /** Sends every report older than `olderThanMs` again (all of them with 0). */
  resendUnacked(olderThanMs = this.opts.ackTimeoutMs ?? 10_000): void {
    if (!this.online) return;
    const now = Date.now();
    for (const [serial, u] of [...this.unacked]) {
      if (now - u.sentAt < olderThanMs) continue;
      this.unacked.delete(serial);
      this.stats.resent++;
      const s = this.write(u.message);
      this.unacked.set(s, { ...u, sentAt: now });
    }
  }

  /** Resolves once nothing is waiting for an acknowledgement (or rejects after timeoutMs). */
  async drain(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.unacked.size) {
      if (Date.now() > deadline) throw new Error(`${this.opts.phone}: ${this.unackedCount} reports unacknowledged`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Polite: 0x0003 and close. */
  async logout(): Promise<void> {
    if (this.online) this.write({ msgId: MsgId.Logout });
    await this.end();
  }

  async end(): Promise<void> {
    const s = this.socket;
    if (!s || s.destroyed) return;
    await new Promise<void>((resolve) => {
      s.once('close', () => resolve());
      s.end();
      setTimeout(() => s.destroy(), 1000).unref();
    });
  }

  /** Abrupt loss of the link (no FIN handshake wait). */
  destroy(): void {
    this.socket?.destroy();
  }

  private takeMediaId(): number {
    const id = this.nextMediaId;
    this.nextMediaId = (this.nextMediaId % 0xffffffff) + 1;
    return id;
  }

  private drawShot(shot: Omit<PhotoShot, 'label'>): Buffer {
    const label = `FS ${this.opts.phone.slice(-7)}`;
    return (this.opts.photo ?? drawPhoto)({ ...shot, label });
  }

  /** Resolves with the packages a 0x8800 for this media lists missing, or null (closed link, no answer in time). */
  private mediaAnswer(mediaId: number): Promise<number[] | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(null), this.opts.mediaTimeoutMs ?? 30_000);
      timer.unref();
      const done = (missing: number[] | null) => {
        clearTimeout(timer);
        if (this.mediaAnswers.get(mediaId) === done) this.mediaAnswers.delete(mediaId);
        resolve(missing);
      };
      this.mediaAnswers.get(mediaId)?.(null);
      this.mediaAnswers.set(mediaId, done);
    });
  }

  /**
   * 0x8801: answered 0x0805 with the ids of the photos it will take (stop and record-video are
   * answered with none); unless asked to keep them, each is then taken `interval` s after the one
   * before and uploaded.
   */
  private takePhotos(serial: number, body: TakePhotoBody): void {
    const photos = body.command === PHOTO_STOP || body.command === PHOTO_RECORD ? 0 : body.command;
    const ids = Array.from({ length: photos }, () => this.takeMediaId());
    this.write({ msgId: MsgId.TakePhotoResponse, body: { replySerial: serial, result: 0, mediaIds: ids } });
    if (body.save === 1 || !ids.length) return;
    void (async () => {
      for (const [i, mediaId] of ids.entries()) {
        if (i > 0 && body.interval > 0) await new Promise((r) => setTimeout(r, body.interval * 1000).unref());
        if (!this.online) return;
        const here = this.opts.currentLocation?.() ?? this.lastLocation ?? nowhere();
        const data = this.drawShot({ time: Date.now(), channel: body.channel, resolution: body.resolution, quality: body.quality });
        const head = { mediaId, type: IMAGE, format: JPEG, event: 0, channel: body.channel };
        await this.uploadMedia(head, data, { ...here, time: Date.now() });
      }
    })();
  }

  private sendTracked(message: Jt808BodyInput, positions: LocationInput[], obd = 0): boolean {
    if (!this.online) {
      this.unacked.set(--this.offlineKey, { message, positions, obd, sentAt: 0 });
      return false;
    }
    const serial = this.write(message);
    this.unacked.set(serial, { message, positions, obd, sentAt: Date.now() });
    return true;
  }

  private write(message: Jt808BodyInput): number {
    this.serial = (this.serial + 1) & 0xffff;
    this.socket?.write(encodeMessage({ phone: this.opts.phone, serial: this.serial, version: this.version }, message));
    return this.serial;
  }

  /** Sends and waits for the reply matched by `key` ('reg', or 'ack:<msgId>'). */
  private request(message: Jt808BodyInput, key: string): Promise<DecodedMessage> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(key);
        reject(new NoReplyError(`${this.opts.phone}: no reply to ${key}`));
      }, this.opts.replyTimeoutMs ?? 30_000);
      this.waiting.set(key, (m) => {
        clearTimeout(timer);
        if (m === closedMarker) reject(new ClosedError(`${this.opts.phone}: connection closed`));
        else resolve(m);
      });
      this.write(message);
    });
  }

  private onData(chunk: Buffer): void {
    for (const packet of this.splitter.push(chunk)) {
      let m: DecodedMessage | undefined;
      try {
        m = decodePacket(packet, { assume2011: this.version === 2011 });
        if (m.opaque === 'fragment') {
          // A package of a long platform message (an upgrade): each is acknowledged, then the whole read.
          this.write({ msgId: MsgId.TerminalResponse, body: { replySerial: m.serial, replyMsgId: m.msgId, result: 0 } });
          m = this.assembler.push(m);
        }
      } catch {
        continue; // a real terminal ignores what it cannot read
      }
      if (m !== undefined && m.opaque === 'unknown' && m.msgId === ATTACHMENT_MSG.uploadRequest) {
        // 0x9208: the platform asks for an active safety alarm's files (the fleet uploads them).
        this.emit('attachmentRequest', m.body);
        continue;
      }
      if (m === undefined || m.opaque !== undefined) continue;
      switch (m.msgId) {
        case MsgId.RegisterResponse:
          this.waiting.get('reg')?.(m);
          this.waiting.delete('reg');
          break;
        case MsgId.PlatformResponse: {
          const key = `ack:${m.body.replyMsgId}`;
          const w = this.waiting.get(key);
          if (w) {
            this.waiting.delete(key);
            w(m);
            break;
          }
          const u = this.unacked.get(m.body.replySerial);
          if (u && m.body.result === 0) {
            this.unacked.delete(m.body.replySerial);
            this.stats.acked += u.positions.length;
            this.stats.obdAcked += u.obd;
            if (this.opts.ackLatency && u.positions.length) this.opts.ackLatency.record(Date.now() - u.sentAt);
            if (this.opts.keepAcked)
              for (const p of u.positions) this.ackedTimes.push(new Date(p.time as string | number | Date).getTime());
          }
          break;
        }
        case MsgId.SetParams:
          for (const p of m.body.params) this.params.set(p.id, p);
          this.answer(m.msgId, m.serial);
          this.stats.commands++;
          this.emit('command', m);
          break;
        case MsgId.QueryAllParams:
        case MsgId.QueryParams: {
          // 0x8106 answers the asked ids it has, in the order asked; unknown ids are left out.
          const ids = m.msgId === MsgId.QueryParams ? m.body.ids : [...this.params.keys()];
          const params = ids.flatMap((id) => this.params.get(id) ?? []);
          this.write({ msgId: MsgId.ParamsResponse, body: { replySerial: m.serial, params } });
          this.stats.commands++;
          this.emit('command', m);
          break;
        }
        case MsgId.LocationQuery:
        case MsgId.Text:
        case MsgId.TerminalControl:
        case MsgId.LiveVideoRequest:
        case MsgId.LiveVideoControl:
        case MsgId.LiveVideoStatus:
        case MsgId.PlaybackRequest:
        case MsgId.PlaybackControl:
          this.answer(m.msgId, m.serial);
          this.stats.commands++;
          this.emit('command', m);
          break;
        case MsgId.UpgradePackage:
          // Its declared length was checked by the decoder: the package is whole, so it "flashes" it.
          this.upgrades.push({ type: m.body.type, version: m.body.version, size: m.body.data.length });
          if (m.packet === undefined) this.answer(m.msgId, m.serial);
          this.write({ msgId: MsgId.UpgradeResult, body: { type: m.body.type, result: 0 } });
          this.stats.commands++;
          this.emit('command', m);
          break;
        case MsgId.ResourceQuery:
          // Its recordings (a camera's, camera.ts) as 0x1205; a terminal without a camera has none to list.
          if (this.recordings)
            this.write({ msgId: MsgId.ResourceList, body: { replySerial: m.serial, resources: this.recordings(m.body) } });
          else this.write({ msgId: MsgId.TerminalResponse, body: { replySerial: m.serial, replyMsgId: m.msgId, result: 3 } });
          this.stats.commands++;
          this.emit('command', m);
          break;
        case MsgId.TakePhoto:
          this.takePhotos(m.serial, m.body);
          this.stats.commands++;
          this.emit('command', m);
          break;
        case MsgId.MediaDataResponse:
          this.mediaAnswers.get(m.body.mediaId)?.(m.body.missing);
          break;
        case MsgId.QueryAttributes:
          this.write({ msgId: MsgId.AttributesResponse, body: this.attributes() });
          this.stats.commands++;
          this.emit('command', m);
          break;
        case MsgId.TemporaryTracking:
          // Interval 0 stops it; otherwise it lasts `validity` seconds from now.
          this.tracking = m.body.interval === 0 ? null : { interval: m.body.interval, until: Date.now() + m.body.validity * 1000 };
          this.answer(m.msgId, m.serial);
          this.stats.commands++;
          this.emit('command', m);
          break;
        case MsgId.VehicleControl: {
          // 2013: flag bit 0 locks; 2019: doors item, 0 locks.
          const doors = m.body.items?.find((i) => i.type === VEHICLE_CONTROL_DOORS);
          if (m.body.flag !== undefined) this.doorsLocked = (m.body.flag & 1) === 1;
          else if (doors?.value !== undefined) this.doorsLocked = doors.value === 0;
          const here = this.opts.currentLocation?.() ?? this.lastLocation ?? nowhere();
          const status = typeof here.status === 'number' ? { raw: here.status } : (here.status ?? {});
          const location = { ...here, status: { ...status, doorLocked: this.doorsLocked } };
          this.write({ msgId: MsgId.VehicleControlResponse, body: { replySerial: m.serial, location } });
          this.stats.commands++;
          this.emit('command', m);
          break;
        }
        case MsgId.SetCircleAreas:
        case MsgId.SetRectangleAreas:
          for (const a of m.body.areas) this.areas.set(`${SET_AREAS.get(m.msgId)}:${a.id}`, m);
          this.answer(m.msgId, m.serial);
          this.stats.commands++;
          this.emit('command', m);
          break;
        case MsgId.SetPolygonArea:
        case MsgId.SetRoute:
          this.areas.set(`${SET_AREAS.get(m.msgId)}:${m.body.id}`, m);
          this.answer(m.msgId, m.serial);
          this.stats.commands++;
          this.emit('command', m);
          break;
        case MsgId.DeleteCircleAreas:
        case MsgId.DeleteRectangleAreas:
        case MsgId.DeletePolygonAreas:
        case MsgId.DeleteRoutes: {
          const kind = DELETE_AREAS.get(m.msgId);
          // No ids: every area of the kind.
          for (const key of [...this.areas.keys()])
            if (key.startsWith(`${kind}:`) && (m.body.ids.length === 0 || m.body.ids.includes(Number(key.slice(kind!.length + 1)))))
              this.areas.delete(key);
          this.answer(m.msgId, m.serial);
          this.stats.commands++;
          this.emit('command', m);
          break;
        }
      }
    }
  }

  /** Its 0x0107 answer (the hardware it registers as). */
  private attributes(): TerminalAttributesBody {
    const digits = this.opts.phone.replace(/\D/g, '');
    return {
      terminalType: 0x04, // freight
      makerId: 'FSSIM',
      model: 'FS-OBD-1',
      terminalId: this.opts.phone.slice(-7),
      iccid: ('8986' + digits).slice(0, 20).padEnd(20, '0'),
      hardwareVersion: 'H1.0',
      firmwareVersion: 'sim-1.0',
      gnss: 0x03, // GPS and BeiDou
      comms: 0x21, // GPRS and TD-LTE
    };
  }

  private answer(msgId: number, serial: number): void {
    if (msgId === MsgId.LocationQuery && this.opts.currentLocation) {
      this.write({ msgId: MsgId.LocationQueryResponse, body: { replySerial: serial, location: this.opts.currentLocation() } });
    } else {
      this.write({ msgId: MsgId.TerminalResponse, body: { replySerial: serial, replyMsgId: msgId, result: 0 } });
    }
  }
}

/** Passed to waiters when the connection closes before their reply. */
const closedMarker = { opaque: 'unknown', msgId: -1 } as unknown as DecodedMessage; // never decoded: a sentinel only
