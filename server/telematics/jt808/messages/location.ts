/**
 * 0x0200 location report body (also inside 0x0201 and 0x0704):
 *   alarm DWORD | status DWORD | lat DWORD | lon DWORD | altitude WORD | speed WORD (1/10 km/h)
 *   | direction WORD | time BCD[6] | additional items.
 */

import * as bytes from '../bytes';
import { ByteWriter } from '../bytes';
import * as time from '../time';
import { toEpochMs, writeBcdTime } from '../time';
import * as context from './context';
import * as flags from './locationFlags';
import { alarmWord, statusWord, type AlarmFlags, type AlarmInput, type LocationStatus, type StatusInput } from './locationFlags';
import * as extras from './locationExtras';
import { encodeExtras, type LocationExtras, type LocationExtrasInput } from './locationExtras';

// Under CommonJS transpilation (tsx, jest) every use of an imported name is a getter call;
// this hot path binds what it uses once, at load.
const { i16, u16, u32 } = bytes;
const { isoFromEpochMs, readBcdTime } = time;
const { needBytes } = context;
const { decodeAlarm, decodeStatus } = flags;
const { decodeExtras } = extras;

export const LOCATION_FIXED_BYTES = 28;

export interface LocationBody {
  alarm: AlarmFlags;
  status: LocationStatus;
  /** Degrees, negative when status bit 2 (south) is set. */
  latitude: number;
  /** Degrees, negative when status bit 3 (west) is set. */
  longitude: number;
  /** Metres, read signed (Traccar) so a below-sea-level fix is not 65 km high. */
  altitude: number;
  /** km/h. */
  speed: number;
  /** Degrees 0-359. */
  direction: number;
  /** ISO 8601 UTC, or null when the device sent no valid time (e.g. zeros before a fix). */
  time: string | null;
  /** Same instant as epoch ms, or null. */
  timestamp: number | null;
  extras: LocationExtras;
}

export function decodeLocation(p: Buffer, start: number, end: number, tzOffsetMinutes: number): LocationBody {
  needBytes('location', start, end, LOCATION_FIXED_BYTES);
  const alarmRaw = u32(p, start);
  const statusRaw = u32(p, start + 4);
  // SmallChi also accepts two's-complement negatives; a plain magnitude above 2^31 cannot be a
  // valid coordinate, so reading signed covers both conventions.
  const latRaw = p.readInt32BE(start + 8);
  const lonRaw = p.readInt32BE(start + 12);
  let latitude = latRaw / 1e6;
  let longitude = lonRaw / 1e6;
  if (statusRaw & 0x4 && latitude > 0) latitude = -latitude;
  if (statusRaw & 0x8 && longitude > 0) longitude = -longitude;
  const ms = readBcdTime(p, start + 22, tzOffsetMinutes);
  const valid = ms === ms; // not NaN
  return {
    alarm: decodeAlarm(alarmRaw),
    status: decodeStatus(statusRaw),
    latitude,
    longitude,
    altitude: i16(p, start + 16),
    speed: u16(p, start + 18) / 10,
    direction: u16(p, start + 20),
    time: valid ? isoFromEpochMs(ms) : null,
    timestamp: valid ? ms : null,
    extras: decodeExtras(p, start + LOCATION_FIXED_BYTES, end, tzOffsetMinutes),
  };
}

export interface LocationInput {
  alarm?: AlarmInput;
  status?: StatusInput;
  latitude: number;
  longitude: number;
  altitude?: number;
  speed?: number;
  direction?: number;
  /** ISO string, epoch ms or Date (an instant); null writes zeros. */
  time: string | number | Date | null;
  extras?: LocationExtrasInput;
}

export interface LocationEncodeOptions {
  tzOffsetMinutes: number;
}

/** South/west bits follow the coordinate signs (a zero coordinate keeps the given bit). */
export function writeLocation(w: ByteWriter, b: LocationInput, opts: LocationEncodeOptions): void {
  let status = statusWord(b.status ?? 0);
  if (b.latitude < 0) status |= 0x4;
  else if (b.latitude > 0) status &= ~0x4;
  if (b.longitude < 0) status |= 0x8;
  else if (b.longitude > 0) status &= ~0x8;
  const time = Buffer.alloc(6);
  writeBcdTime(time, 0, toEpochMs(b.time), opts.tzOffsetMinutes);
  w.u32(alarmWord(b.alarm ?? 0))
    .u32(status >>> 0)
    .u32(Math.round(Math.abs(b.latitude) * 1e6))
    .u32(Math.round(Math.abs(b.longitude) * 1e6))
    .i16(Math.round(b.altitude ?? 0))
    .u16(Math.round((b.speed ?? 0) * 10))
    .u16(Math.round(b.direction ?? 0))
    .bytes(time);
  if (b.extras) encodeExtras(w, b.extras, opts.tzOffsetMinutes);
}

export function encodeLocation(b: LocationInput, opts: LocationEncodeOptions): Buffer {
  const w = new ByteWriter(128);
  writeLocation(w, b, opts);
  return w.finish();
}

/** 0x0201: reply serial of the 0x8201 query, then a 0x0200 body. */
export interface LocationQueryResponseBody {
  replySerial: number;
  location: LocationBody;
}

export interface LocationQueryResponseInput {
  replySerial: number;
  location: LocationInput;
}

export function decodeLocationQueryResponse(p: Buffer, start: number, end: number, tz: number): LocationQueryResponseBody {
  needBytes('0x0201', start, end, 2 + LOCATION_FIXED_BYTES);
  return { replySerial: u16(p, start), location: decodeLocation(p, start + 2, end, tz) };
}

export function encodeLocationQueryResponse(b: LocationQueryResponseInput, opts: LocationEncodeOptions): Buffer {
  const w = new ByteWriter(128).u16(b.replySerial);
  writeLocation(w, b.location, opts);
  return w.finish();
}
