/**
 * 0x0900 transparent uplink: type BYTE, content.
 * Standard types (yezhihao T0900): 0x00 GNSS detail, 0x0B IC card, 0x41 serial 1, 0x42 serial 2,
 * 0xF0-0xFF user-defined. Traccar additionally reads 0x40 as ASCII, 0x41 as a `$OBD-RT` sentence
 * and 0xF0 as an OBD record; those readings rest on one implementation, so `content` (hex)
 * is always kept next to them.
 */

import { ByteWriter, hex, u16, u32, uintN } from '../bytes';
import { Jt808EncodeError } from '../errors';
import { decodeGbk } from '../gbk';
import { isoFromEpochMs, readBcdTime, toEpochMs, writeBcdTime } from '../time';
import { needBytes } from './context';
import { decodeStatus, type LocationStatus } from './locationFlags';
import { formatObdRt, parseObdRt, type ObdRealtime } from './obd';
import type { UnknownItem } from './tlv';
import type { ObdDtc, ObdRecordValues } from '../../../platform/telemetry';

export type TransparentTypeName = 'gnssDetail' | 'icCard' | 'ascii' | 'serial1' | 'serial2' | 'userDefined' | 'unknown';

export function transparentTypeName(t: number): TransparentTypeName {
  if (t === 0x00) return 'gnssDetail';
  if (t === 0x0b) return 'icCard';
  if (t === 0x40) return 'ascii';
  if (t === 0x41) return 'serial1';
  if (t === 0x42) return 'serial2';
  if (t >= 0xf0) return 'userDefined';
  return 'unknown';
}

export interface ObdPid {
  id: number;
  /** Unsigned value when the length is 1, 2 or 4 bytes. */
  value?: number;
  hex: string;
}

// The stored shapes of DTCs and readings are the telemetry payload types, decoded here as they are stored.
export type { ObdDtc, ObdRecordValues };

export const OBD_RECORD_SUBTYPES: Record<number, ObdRecordSubtypeName> = {
  0x01: 'pids',
  0x02: 'dtcs',
  0x03: 'alarms',
  0x04: 'trip',
  0x0b: 'vin',
  0x15: 'events',
};
export type ObdRecordSubtypeName = 'pids' | 'dtcs' | 'alarms' | 'trip' | 'vin' | 'events' | 'unknown';

export interface ObdRecordPosition {
  status: LocationStatus;
  latitude: number;
  longitude: number;
}

/** 0x0900 type 0xF0: time BCD[6], archive flag BYTE, vehicle type BYTE, subtype BYTE, data. */
export interface ObdRecord {
  time: string | null;
  timestamp: number | null;
  archive: boolean;
  vehicleType: number;
  subtype: number;
  subtypeName: ObdRecordSubtypeName;
  /** 01: count BYTE, (id WORD, len BYTE, value)*. */
  pids?: ObdPid[];
  values?: ObdRecordValues;
  /** 02: count WORD, (system DWORD, n WORD, (dtc DWORD, status DWORD, len WORD, text)*n)*. */
  dtcs?: ObdDtc[];
  /** The DTC texts, for matching against the fault library. */
  dtcCodes?: string[];
  /** 03: count BYTE, (id BYTE, len BYTE, value)*. */
  alarms?: UnknownItem[];
  /** 0B: flag BYTE, VIN[17] when flag > 0. */
  vin?: string;
  /** 15: event DWORD. */
  event?: number;
  /** After subtypes 01-03: status DWORD, lat DWORD, lon DWORD. */
  position?: ObdRecordPosition;
  /** Bytes not covered by the above. */
  restHex?: string;
}

export interface TransparentBody {
  type: number;
  typeName: TransparentTypeName;
  /** The content bytes, always kept. */
  content: string;
  /** 0x40: content as text. */
  text?: string;
  /** 0x41 (Traccar): `$OBD-RT` sentence. */
  obdRt?: ObdRealtime;
  /** 0xF0 (Traccar): OBD record. */
  obdRecord?: ObdRecord;
}

function readPidValues(pids: ObdPid[], p: Buffer, starts: number[]): ObdRecordValues {
  const v: ObdRecordValues = {};
  pids.forEach((pid, i) => {
    const x = pid.value;
    switch (pid.id) {
      case 0x0102:
        if (x !== undefined) v.odometerKm = x / 10;
        break;
      case 0x052a:
        if (x !== undefined) v.fuelLevel = x / 100;
        break;
      case 0x0535:
        if (x !== undefined) v.speedKmh = x / 10;
        break;
      case 0x0536:
        if (x !== undefined) v.rpm = x;
        break;
      case 0x052d:
        if (x !== undefined) v.coolantTempC = x - 40;
        break;
      case 0xfeec: {
        const s = starts[i];
        v.vin = p.toString('latin1', s, s + pid.hex.length / 2).replace(/\0+$/, '');
        break;
      }
    }
  });
  return v;
}

/** Parse an OBD record; undefined when the bytes do not fit the layout. */
export function decodeObdRecord(p: Buffer, start: number, end: number, tz: number): ObdRecord | undefined {
  if (end - start < 9) return undefined;
  const ms = readBcdTime(p, start, tz);
  const valid = ms === ms;
  const subtype = p[start + 8];
  const rec: ObdRecord = {
    time: valid ? isoFromEpochMs(ms) : null,
    timestamp: valid ? ms : null,
    archive: p[start + 6] > 0,
    vehicleType: p[start + 7],
    subtype,
    subtypeName: OBD_RECORD_SUBTYPES[subtype] ?? 'unknown',
  };
  let o = start + 9;
  let withPosition = false;
  switch (subtype) {
    case 0x01: {
      if (o + 1 > end) return undefined;
      const count = p[o++];
      const pids: ObdPid[] = [];
      const starts: number[] = [];
      for (let i = 0; i < count; i++) {
        if (o + 3 > end) return undefined;
        const id = u16(p, o);
        const len = p[o + 2];
        const s = o + 3;
        if (s + len > end) return undefined;
        const pid: ObdPid = { id, hex: hex(p, s, s + len) };
        if (len === 1 || len === 2 || len === 4) pid.value = uintN(p, s, len);
        pids.push(pid);
        starts.push(s);
        o = s + len;
      }
      rec.pids = pids;
      rec.values = readPidValues(pids, p, starts);
      withPosition = true;
      break;
    }
    case 0x02: {
      if (o + 2 > end) return undefined;
      const count = u16(p, o);
      o += 2;
      const dtcs: ObdDtc[] = [];
      for (let i = 0; i < count; i++) {
        if (o + 6 > end) return undefined;
        const systemId = u32(p, o);
        const n = u16(p, o + 4);
        o += 6;
        for (let j = 0; j < n; j++) {
          if (o + 10 > end) return undefined;
          const dtc = u32(p, o);
          const status = u32(p, o + 4);
          const len = u16(p, o + 8);
          o += 10;
          if (o + len > end) return undefined;
          dtcs.push({ systemId, dtc, status, text: p.toString('latin1', o, o + len).trim() });
          o += len;
        }
      }
      rec.dtcs = dtcs;
      rec.dtcCodes = dtcs.map((d) => d.text).filter((t) => t.length > 0);
      withPosition = true;
      break;
    }
    case 0x03: {
      if (o + 1 > end) return undefined;
      const count = p[o++];
      const alarms: UnknownItem[] = [];
      for (let i = 0; i < count; i++) {
        if (o + 2 > end) return undefined;
        const id = p[o];
        const s = o + 2;
        const e = s + p[o + 1];
        if (e > end) return undefined;
        alarms.push({ id, hex: hex(p, s, e) });
        o = e;
      }
      rec.alarms = alarms;
      withPosition = true;
      break;
    }
    case 0x0b:
      if (o + 1 > end) return undefined;
      if (p[o++] > 0) {
        if (o + 17 > end) return undefined;
        rec.vin = p.toString('latin1', o, o + 17);
        o += 17;
      }
      break;
    case 0x15:
      if (o + 4 > end) return undefined;
      rec.event = u32(p, o);
      o += 4;
      break;
    default:
      break;
  }
  if (withPosition && o + 12 <= end) {
    const statusRaw = u32(p, o);
    let latitude = u32(p, o + 4) / 1e6;
    let longitude = u32(p, o + 8) / 1e6;
    if (statusRaw & 4) latitude = -latitude;
    if (statusRaw & 8) longitude = -longitude;
    rec.position = { status: decodeStatus(statusRaw), latitude, longitude };
    o += 12;
  }
  if (o < end) rec.restHex = hex(p, o, end);
  return rec;
}

export function decodeTransparent(p: Buffer, start: number, end: number, tz: number): TransparentBody {
  needBytes('0x0900', start, end, 1);
  const type = p[start];
  const s = start + 1;
  const body: TransparentBody = { type, typeName: transparentTypeName(type), content: hex(p, s, end) };
  if (type === 0x40) body.text = decodeGbk(p, s, end);
  else if (type === 0x41) {
    const rt = parseObdRt(p.toString('latin1', s, end));
    if (rt) body.obdRt = rt;
  } else if (type === 0xf0) {
    const rec = decodeObdRecord(p, s, end, tz);
    if (rec) body.obdRecord = rec;
  }
  return body;
}

export interface ObdRecordInput {
  time: string | number | Date | null;
  archive?: boolean;
  vehicleType?: number;
  subtype: number;
  pids?: { id: number; hex: string }[];
  dtcs?: ObdDtc[];
  alarms?: UnknownItem[];
  vin?: string;
  event?: number;
  position?: { status: number | { raw: number }; latitude: number; longitude: number };
  restHex?: string;
}

/** A count byte, then each item as its id (`idBytes` wide), a length byte and its bytes. */
function writeHexItems(w: ByteWriter, items: ReadonlyArray<{ id: number; hex: string }>, idBytes: 1 | 2): void {
  w.u8(items.length);
  for (const item of items) {
    const b = Buffer.from(item.hex, 'hex');
    w.uintN(item.id, idBytes).u8(b.length).bytes(b);
  }
}

export function encodeObdRecord(r: ObdRecordInput, tz: number): Buffer {
  const time = Buffer.alloc(6);
  writeBcdTime(time, 0, toEpochMs(r.time), tz);
  const w = new ByteWriter(64)
    .bytes(time)
    .u8(r.archive ? 1 : 0)
    .u8(r.vehicleType ?? 0)
    .u8(r.subtype);
  switch (r.subtype) {
    case 0x01:
      writeHexItems(w, r.pids ?? [], 2);
      break;
    case 0x02: {
      // Group consecutive DTCs by system id.
      const groups: { systemId: number; dtcs: ObdDtc[] }[] = [];
      for (const d of r.dtcs ?? []) {
        const last = groups[groups.length - 1];
        if (last && last.systemId === d.systemId) last.dtcs.push(d);
        else groups.push({ systemId: d.systemId, dtcs: [d] });
      }
      w.u16(groups.length);
      for (const g of groups) {
        w.u32(g.systemId).u16(g.dtcs.length);
        for (const d of g.dtcs) {
          const t = Buffer.from(d.text, 'latin1');
          w.u32(d.dtc).u32(d.status).u16(t.length).bytes(t);
        }
      }
      break;
    }
    case 0x03:
      writeHexItems(w, r.alarms ?? [], 1);
      break;
    case 0x0b:
      if (r.vin === undefined) w.u8(0);
      else {
        if (r.vin.length !== 17) throw new Jt808EncodeError('BAD_FIELD', `VIN must have 17 characters: ${r.vin}`);
        w.u8(1).bytes(Buffer.from(r.vin, 'latin1'));
      }
      break;
    case 0x15:
      w.u32(r.event ?? 0);
      break;
    default:
      break;
  }
  if (r.position && (r.subtype === 0x01 || r.subtype === 0x02 || r.subtype === 0x03)) {
    let status = typeof r.position.status === 'number' ? r.position.status : r.position.status.raw;
    if (r.position.latitude < 0) status |= 4;
    if (r.position.longitude < 0) status |= 8;
    w.u32(status >>> 0)
      .u32(Math.round(Math.abs(r.position.latitude) * 1e6))
      .u32(Math.round(Math.abs(r.position.longitude) * 1e6));
  }
  if (r.restHex) w.bytes(Buffer.from(r.restHex, 'hex'));
  return w.finish();
}

export interface TransparentInput {
  type: number;
  /** Content as hex; wins over the fields below. */
  content?: string;
  /** `$OBD-RT` sentence (type 0x41 in Traccar's reading). */
  obdRt?: ObdRealtime;
  /** OBD record (type 0xF0). */
  obdRecord?: ObdRecordInput;
  /** Plain text (type 0x40), written as Latin-1/ASCII. */
  text?: string;
}

export function encodeTransparent(b: TransparentInput, tz: number): Buffer {
  let content: Buffer;
  if (b.content !== undefined) content = Buffer.from(b.content, 'hex');
  else if (b.obdRt !== undefined) content = Buffer.from(formatObdRt(b.obdRt), 'latin1');
  else if (b.obdRecord !== undefined) content = encodeObdRecord(b.obdRecord, tz);
  else content = Buffer.from(b.text ?? '', 'latin1');
  return new ByteWriter(content.length + 1).u8(b.type).bytes(content).finish();
}
