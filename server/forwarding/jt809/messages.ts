/**
 * The bodies of the messages this codec knows, each an encoder and a decoder from the standard's
 * tables. Text fields are GBK, zero-padded to their width; times are UTC seconds in a u64.
 *
 * - 0x1001 login: USERID u32, PASSWORD 8, (2019: MSG_GNSSCENTERID u32), DOWN_LINK_IP 32, DOWN_LINK_PORT u16
 * - 0x1002 login answer: RESULT u8, VERIFY_CODE u32
 * - 0x1003 logout: USERID u32, PASSWORD 8; 0x1004, 0x1005, 0x1006, 0x9004, 0x9005, 0x9006: no body
 * - 0x1007 / 0x1008 / 0x9007 / 0x9008: one code byte
 * - 0x9001 sub-link login and 0x9003 sub-link logout: VERIFY_CODE u32; 0x9002: RESULT u8
 * - 0x1200, 0x1600 and 0x9600: VEHICLE_NO 21, VEHICLE_COLOR u8, DATA_TYPE u16, DATA_LENGTH u32, DATA
 * - 0x1400 (2019): DATA_TYPE u16, DATA_LENGTH u32, DATA (the vehicle is inside the sub-message)
 * - 0x1202 real-time position: 2011, a 36-byte GNSS_DATA; 2019, ENCRYPT u8, GNSS_DATA_LENGTH u32,
 *   GNSS_DATA (a JT/T 808 0x0200 body), then three PLATFORM_ID 11 + ALARM u32 pairs
 * - 0x1402 (2019) alarm: SOURCE_PLATFORM_ID 11, WARN_TYPE u16, WARN_TIME u64, START_TIME u64,
 *   END_TIME u64, VEHICLE_NO 21, VEHICLE_COLOR u8, DESTINATION_PLATFORM_ID 11, DRV_LINE_ID u32,
 *   INFO_LENGTH u32, INFO_CONTENT
 * - 0x1601 static vehicle information: CAR_INFO, `KEY:=value;` pairs as text; asked for by 0x9600 /
 *   0x9601 (the vehicle envelope, no data)
 */

import { ByteWriter } from '../../telematics/jt808/bytes';
import { encodeGbk } from '../../telematics/jt808/gbk';
import { MSG, SUB, type Jt809Edition } from './constants';
import { Jt809DecodeError, Jt809EncodeError } from './errors';
import { Reader } from './reader';

const VEHICLE_NO_BYTES = 21;
const PLATFORM_ID_BYTES = 11;
const GNSS_2011_BYTES = 36;

/** `text` as GBK in exactly `size` bytes, zero-padded; too long is an encoding error. */
function fixedText(w: ByteWriter, text: string, size: number, field: string): void {
  const b = encodeGbk(text);
  if (b.length > size) throw new Jt809EncodeError(`${field}: ${b.length} bytes do not fit ${size}`);
  w.fixed(b, size, field);
}

const u64 = (w: ByteWriter, v: number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(Math.max(0, Math.floor(v))));
  w.bytes(b);
};

// ---- link management -------------------------------------------------------------------------

export interface LoginRequest {
  userId: number;
  password: string;
  /** 2019 only: the access code again, in the body. */
  accessCode: number;
  downLinkIp: string;
  downLinkPort: number;
}

export function encodeLoginRequest(b: LoginRequest, edition: Jt809Edition): Buffer {
  const w = new ByteWriter(64).u32(b.userId);
  fixedText(w, b.password, 8, 'PASSWORD');
  if (edition === 2019) w.u32(b.accessCode);
  fixedText(w, b.downLinkIp, 32, 'DOWN_LINK_IP');
  return w.u16(b.downLinkPort).finish();
}

export function decodeLoginRequest(body: Buffer, edition: Jt809Edition): LoginRequest {
  const r = new Reader(body, '0x1001');
  const userId = r.u32('USERID');
  const password = r.text(8, 'PASSWORD');
  const accessCode = edition === 2019 ? r.u32('MSG_GNSSCENTERID') : 0;
  const out = { userId, password, accessCode, downLinkIp: r.text(32, 'DOWN_LINK_IP'), downLinkPort: r.u16('DOWN_LINK_PORT') };
  r.end();
  return out;
}

export interface LoginResponse {
  result: number;
  verifyCode: number;
}

export const encodeLoginResponse = (b: LoginResponse): Buffer => new ByteWriter(5).u8(b.result).u32(b.verifyCode).finish();

export function decodeLoginResponse(body: Buffer): LoginResponse {
  const r = new Reader(body, '0x1002');
  const out = { result: r.u8('RESULT'), verifyCode: r.u32('VERIFY_CODE') };
  r.end();
  return out;
}

export interface LogoutRequest {
  userId: number;
  password: string;
}

export function encodeLogoutRequest(b: LogoutRequest): Buffer {
  const w = new ByteWriter(12).u32(b.userId);
  fixedText(w, b.password, 8, 'PASSWORD');
  return w.finish();
}

export function decodeLogoutRequest(body: Buffer): LogoutRequest {
  const r = new Reader(body, '0x1003');
  const out = { userId: r.u32('USERID'), password: r.text(8, 'PASSWORD') };
  r.end();
  return out;
}

/** VERIFY_CODE of 0x9001 and 0x9003. */
export const encodeVerifyCode = (verifyCode: number): Buffer => new ByteWriter(4).u32(verifyCode).finish();

export function decodeVerifyCode(body: Buffer, what: string): number {
  const r = new Reader(body, what);
  const v = r.u32('VERIFY_CODE');
  r.end();
  return v;
}

/** One code byte: 0x9002's RESULT, 0x1007/0x9007's ERROR_CODE, 0x1008/0x9008's REASON_CODE. */
export const encodeCode = (code: number): Buffer => new ByteWriter(1).u8(code).finish();

export function decodeCode(body: Buffer, what: string): number {
  const r = new Reader(body, what);
  const v = r.u8('CODE');
  r.end();
  return v;
}

export function decodeEmpty(body: Buffer, what: string): void {
  new Reader(body, what).end();
}

// ---- business envelopes ----------------------------------------------------------------------

export interface Vehicle {
  vehicleNo: string;
  /** Plate colour code (JT/T 697.7: 1 blue, 2 yellow, 3 black, 4 white, 5 green, 9 other). */
  vehicleColor: number;
}

export interface VehicleEnvelope extends Vehicle {
  dataType: number;
  data: Buffer;
}

/** The 0x1200 / 0x1600 body around a sub-message. */
export function encodeVehicleEnvelope(b: VehicleEnvelope): Buffer {
  const w = new ByteWriter(32 + b.data.length);
  fixedText(w, b.vehicleNo, VEHICLE_NO_BYTES, 'VEHICLE_NO');
  return w.u8(b.vehicleColor).u16(b.dataType).u32(b.data.length).bytes(b.data).finish();
}

export function decodeVehicleEnvelope(body: Buffer, what: string): VehicleEnvelope {
  const r = new Reader(body, what);
  const vehicleNo = r.text(VEHICLE_NO_BYTES, 'VEHICLE_NO');
  const vehicleColor = r.u8('VEHICLE_COLOR');
  const dataType = r.u16('DATA_TYPE');
  const data = r.bytes(r.u32('DATA_LENGTH'), 'DATA');
  r.end();
  return { vehicleNo, vehicleColor, dataType, data };
}

export interface WarnEnvelope {
  dataType: number;
  data: Buffer;
}

/** The 2019 0x1400 body around a sub-message. */
export const encodeWarnEnvelope = (b: WarnEnvelope): Buffer =>
  new ByteWriter(6 + b.data.length).u16(b.dataType).u32(b.data.length).bytes(b.data).finish();

export function decodeWarnEnvelope(body: Buffer): WarnEnvelope {
  const r = new Reader(body, '0x1400');
  const dataType = r.u16('DATA_TYPE');
  const data = r.bytes(r.u32('DATA_LENGTH'), 'DATA');
  r.end();
  return { dataType, data };
}

// ---- 0x1202 real-time position ---------------------------------------------------------------

/** The 2011 GNSS_DATA: date and time as the vehicle's local fields, coordinates in 1e-6 degrees. */
export interface Gnss2011 {
  encrypt: number;
  day: number;
  month: number;
  year: number;
  hour: number;
  minute: number;
  second: number;
  /** Degrees. */
  longitude: number;
  latitude: number;
  /** km/h: satellite speed (VEC1) and tachograph speed (VEC2). */
  speed: number;
  recorderSpeed: number;
  /** Total mileage, km (VEC3). */
  mileageKm: number;
  direction: number;
  altitude: number;
  state: number;
  alarm: number;
}

export function encodeGnss2011(g: Gnss2011): Buffer {
  return new ByteWriter(GNSS_2011_BYTES)
    .u8(g.encrypt)
    .u8(g.day)
    .u8(g.month)
    .u16(g.year)
    .u8(g.hour)
    .u8(g.minute)
    .u8(g.second)
    .u32(Math.round(Math.abs(g.longitude) * 1e6))
    .u32(Math.round(Math.abs(g.latitude) * 1e6))
    .u16(Math.round(g.speed))
    .u16(Math.round(g.recorderSpeed))
    .u32(Math.round(g.mileageKm))
    .u16(Math.round(g.direction))
    .u16(Math.max(0, Math.round(g.altitude)))
    .u32(g.state >>> 0)
    .u32(g.alarm >>> 0)
    .finish();
}

export function decodeGnss2011(data: Buffer): Gnss2011 {
  const r = new Reader(data, '0x1202');
  const out: Gnss2011 = {
    encrypt: r.u8('ENCRYPT'),
    day: r.u8('DAY'),
    month: r.u8('MONTH'),
    year: r.u16('YEAR'),
    hour: r.u8('HOUR'),
    minute: r.u8('MINUTE'),
    second: r.u8('SECOND'),
    longitude: r.u32('LON') / 1e6,
    latitude: r.u32('LAT') / 1e6,
    speed: r.u16('VEC1'),
    recorderSpeed: r.u16('VEC2'),
    mileageKm: r.u32('VEC3'),
    direction: r.u16('DIRECTION'),
    altitude: r.u16('ALTITUDE'),
    state: r.u32('STATE'),
    alarm: r.u32('ALARM'),
  };
  r.end();
  return out;
}

/** One platform's alarm word on a 2019 position (an empty id: no platform). */
export interface PlatformAlarm {
  platformId: string;
  alarm: number;
}

/** The 2019 position: the terminal's own 0x0200 body, and the alarms three platforms hold. */
export interface Gnss2019 {
  encrypt: number;
  /** A JT/T 808 0x0200 body as the terminal reported it. */
  gnssData: Buffer;
  platforms: readonly [PlatformAlarm, PlatformAlarm, PlatformAlarm];
}

const NO_PLATFORM: PlatformAlarm = { platformId: '', alarm: 0 };
export const noPlatforms = (): Gnss2019['platforms'] => [NO_PLATFORM, NO_PLATFORM, NO_PLATFORM];

export function encodeGnss2019(g: Gnss2019): Buffer {
  const w = new ByteWriter(64 + g.gnssData.length).u8(g.encrypt).u32(g.gnssData.length).bytes(g.gnssData);
  for (const p of g.platforms) {
    fixedText(w, p.platformId, PLATFORM_ID_BYTES, 'PLATFORM_ID');
    w.u32(p.alarm >>> 0);
  }
  return w.finish();
}

export function decodeGnss2019(data: Buffer): Gnss2019 {
  const r = new Reader(data, '0x1202');
  const encrypt = r.u8('ENCRYPT');
  const gnssData = r.bytes(r.u32('GNSS_DATA_LENGTH'), 'GNSS_DATA');
  if (gnssData.length < 28)
    throw new Jt809DecodeError('BAD_BODY', `0x1202: GNSS_DATA of ${gnssData.length} bytes, a 0x0200 body has 28 at least`);
  const platform = (n: number): PlatformAlarm => ({ platformId: r.text(PLATFORM_ID_BYTES, `PLATFORM_ID${n}`), alarm: r.u32(`ALARM${n}`) });
  const platforms = [platform(1), platform(2), platform(3)] as const;
  r.end();
  return { encrypt, gnssData, platforms };
}

// ---- 0x1402 alarm (2019) ---------------------------------------------------------------------

export interface WarnInfo extends Vehicle {
  sourcePlatformId: string;
  warnType: number;
  /** UTC seconds. */
  warnTime: number;
  startTime: number;
  endTime: number;
  destinationPlatformId: string;
  drvLineId: number;
  info: string;
}

export function encodeWarnInfo(b: WarnInfo): Buffer {
  const w = new ByteWriter(96);
  fixedText(w, b.sourcePlatformId, PLATFORM_ID_BYTES, 'SOURCE_PLATFORM_ID');
  w.u16(b.warnType);
  u64(w, b.warnTime);
  u64(w, b.startTime);
  u64(w, b.endTime);
  fixedText(w, b.vehicleNo, VEHICLE_NO_BYTES, 'VEHICLE_NO');
  w.u8(b.vehicleColor);
  fixedText(w, b.destinationPlatformId, PLATFORM_ID_BYTES, 'DESTINATION_PLATFORM_ID');
  const info = encodeGbk(b.info);
  return w.u32(b.drvLineId).u32(info.length).bytes(info).finish();
}

export function decodeWarnInfo(data: Buffer): WarnInfo {
  const r = new Reader(data, '0x1402');
  const sourcePlatformId = r.text(PLATFORM_ID_BYTES, 'SOURCE_PLATFORM_ID');
  const warnType = r.u16('WARN_TYPE');
  const warnTime = r.u64('WARN_TIME');
  const startTime = r.u64('START_TIME');
  const endTime = r.u64('END_TIME');
  const vehicleNo = r.text(VEHICLE_NO_BYTES, 'VEHICLE_NO');
  const vehicleColor = r.u8('VEHICLE_COLOR');
  const destinationPlatformId = r.text(PLATFORM_ID_BYTES, 'DESTINATION_PLATFORM_ID');
  const drvLineId = r.u32('DRV_LINE_ID');
  const info = r.text(r.u32('INFO_LENGTH'), 'INFO_CONTENT');
  r.end();
  return { sourcePlatformId, warnType, warnTime, startTime, endTime, vehicleNo, vehicleColor, destinationPlatformId, drvLineId, info };
}

// ---- 0x1601 static vehicle information -------------------------------------------------------

/** CAR_INFO's `KEY:=value;` pairs (VIN, VEHICLE_COLOR, VEHICLE_TYPE, OWERS_NAME …), in order. */
export type CarInfo = ReadonlyArray<readonly [string, string]>;

export function encodeCarInfo(info: CarInfo): Buffer {
  for (const [k, v] of info)
    if (!/^[A-Z0-9_]+$/.test(k) || v.includes(';') || v.includes(':='))
      throw new Jt809EncodeError(`CAR_INFO: ${k} cannot carry ${JSON.stringify(v)}`);
  return encodeGbk(info.map(([k, v]) => `${k}:=${v}`).join(';'));
}

export function decodeCarInfo(data: Buffer): CarInfo {
  const text = new Reader(data, '0x1601').text(data.length, 'CAR_INFO');
  const out: Array<readonly [string, string]> = [];
  for (const part of text.split(';')) {
    if (!part) continue;
    const at = part.indexOf(':=');
    if (at <= 0) throw new Jt809DecodeError('BAD_BODY', `0x1601: ${JSON.stringify(part)} is no KEY:=value pair`);
    out.push([part.slice(0, at), part.slice(at + 2)]);
  }
  return out;
}

// ---- one decoder by message id ---------------------------------------------------------------

export type Jt809Message =
  | { kind: 'loginRequest'; login: LoginRequest }
  | { kind: 'loginResponse'; response: LoginResponse }
  | { kind: 'logoutRequest'; logout: LogoutRequest }
  | { kind: 'empty'; msgId: number }
  | { kind: 'code'; msgId: number; code: number }
  | { kind: 'subLinkLogin' | 'subLinkLogout'; verifyCode: number }
  | { kind: 'position'; vehicle: Vehicle; gnss2011?: Gnss2011; gnss2019?: Gnss2019 }
  | { kind: 'warnInfo'; warn: WarnInfo }
  | { kind: 'carInfo'; vehicle: Vehicle; info: CarInfo }
  | { kind: 'carInfoRequest'; vehicle: Vehicle }
  | { kind: 'other'; msgId: number; dataType: number | null; body: Buffer };

const EMPTY_IDS: ReadonlySet<number> = new Set([
  MSG.UP_DISCONNECT_RSP,
  MSG.UP_LINKTEST_REQ,
  MSG.UP_LINKTEST_RSP,
  MSG.DOWN_DISCONNECT_RSP,
  MSG.DOWN_LINKTEST_REQ,
  MSG.DOWN_LINKTEST_RSP,
]);
const CODE_IDS: ReadonlySet<number> = new Set([
  MSG.UP_DISCONNECT_INFORM,
  MSG.UP_CLOSELINK_INFORM,
  MSG.DOWN_CONNECT_RSP,
  MSG.DOWN_DISCONNECT_INFORM,
  MSG.DOWN_CLOSELINK_INFORM,
]);

const hex = (id: number) => `0x${id.toString(16).padStart(4, '0')}`;

/** A body by its message id; an id or sub-business this codec does not read comes back as 'other'. */
export function decodeMessage(msgId: number, body: Buffer, edition: Jt809Edition): Jt809Message {
  if (EMPTY_IDS.has(msgId)) {
    decodeEmpty(body, hex(msgId));
    return { kind: 'empty', msgId };
  }
  if (CODE_IDS.has(msgId)) return { kind: 'code', msgId, code: decodeCode(body, hex(msgId)) };
  switch (msgId) {
    case MSG.UP_CONNECT_REQ:
      return { kind: 'loginRequest', login: decodeLoginRequest(body, edition) };
    case MSG.UP_CONNECT_RSP:
      return { kind: 'loginResponse', response: decodeLoginResponse(body) };
    case MSG.UP_DISCONNECT_REQ:
      return { kind: 'logoutRequest', logout: decodeLogoutRequest(body) };
    case MSG.DOWN_CONNECT_REQ:
      return { kind: 'subLinkLogin', verifyCode: decodeVerifyCode(body, hex(msgId)) };
    case MSG.DOWN_DISCONNECT_REQ:
      return { kind: 'subLinkLogout', verifyCode: decodeVerifyCode(body, hex(msgId)) };
    case MSG.UP_EXG_MSG: {
      const { data, dataType, ...vehicle } = decodeVehicleEnvelope(body, hex(msgId));
      if (dataType !== SUB.UP_EXG_MSG_REAL_LOCATION) return { kind: 'other', msgId, dataType, body };
      return edition === 2019
        ? { kind: 'position', vehicle, gnss2019: decodeGnss2019(data) }
        : { kind: 'position', vehicle, gnss2011: decodeGnss2011(data) };
    }
    case MSG.UP_WARN_MSG: {
      const { data, dataType } = decodeWarnEnvelope(body);
      if (dataType !== SUB.UP_WARN_MSG_ADPT_INFO) return { kind: 'other', msgId, dataType, body };
      return { kind: 'warnInfo', warn: decodeWarnInfo(data) };
    }
    case MSG.UP_BASE_MSG: {
      const { data, dataType, ...vehicle } = decodeVehicleEnvelope(body, hex(msgId));
      if (dataType !== SUB.UP_BASE_MSG_VEHICLE_ADDED_ACK) return { kind: 'other', msgId, dataType, body };
      return { kind: 'carInfo', vehicle, info: decodeCarInfo(data) };
    }
    case MSG.DOWN_BASE_MSG: {
      const { data, dataType, ...vehicle } = decodeVehicleEnvelope(body, hex(msgId));
      if (dataType !== SUB.DOWN_BASE_MSG_VEHICLE_ADDED) return { kind: 'other', msgId, dataType, body };
      decodeEmpty(data, '0x9601');
      return { kind: 'carInfoRequest', vehicle };
    }
    default:
      return { kind: 'other', msgId, dataType: null, body };
  }
}
