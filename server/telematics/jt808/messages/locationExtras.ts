/**
 * Additional items of 0x0200 (BYTE id, BYTE len, value). Standard items become named fields;
 * vendor OBD items are decoded and also kept as hex in `raw`; anything else stays hex in `unknown`.
 * This is the hot path of the gateway: numbers are read straight from the packet, no slices.
 */

import * as bytes from '../bytes';
import { ByteWriter } from '../bytes';
import { Jt808EncodeError } from '../errors';
import * as flags from './locationFlags';
import { ioWord, signalsWord, type IoInput, type IoStatus, type SignalsInput, type VehicleSignals } from './locationFlags';
import {
  decodeEb,
  decodeF3,
  encodeEb,
  encodeF3,
  formatObdRt,
  parseObdRt,
  readObdBlockItem,
  writeObdBlockItems,
  type EbExtension,
  type ObdBlock,
  type ObdRealtime,
  type ObdValues,
} from './obd';
import * as tlv from './tlv';
import { itemKey, type UnknownItem } from './tlv';
import { DEFAULT_TZ_OFFSET_MINUTES } from '../constants';
import { decodeSafetyItem, encodeSafetyValue, SAFETY_ITEM, type SafetyItems, type SafetyItemsInput } from './activeSafety';

// Under CommonJS transpilation (tsx, jest) every use of an imported name is a getter call;
// this hot path binds what it uses once, at load.
const { hex, i16, u16, u32 } = bytes;
const { decodeIo, decodeSignals } = flags;
const { byteTlvFits } = tlv;

export const AREA_TYPE_NAMES = ['none', 'circle', 'rectangle', 'polygon', 'route'] as const;
export type AreaTypeName = (typeof AREA_TYPE_NAMES)[number] | 'unknown';

/** 0x11: overspeed; areaId only when areaType != 0. */
export interface OverspeedInfo {
  areaType: number;
  areaTypeName: AreaTypeName;
  areaId?: number;
}

/** 0x12: in/out of area or route. */
export interface AreaAlarmInfo {
  areaType: number;
  areaTypeName: AreaTypeName;
  areaId: number;
  /** 0 in, 1 out. */
  direction: number;
  directionName: 'in' | 'out' | 'unknown';
}

/** 0x13: route driving time too short/long. */
export interface RouteTimeInfo {
  routeId: number;
  seconds: number;
  /** 0 too short, 1 too long. */
  result: number;
  resultName: 'tooShort' | 'tooLong' | 'unknown';
}

/** 0x2B: AD0 = bits 0-15, AD1 = bits 16-31 of the DWORD (a 2-byte item carries AD0 only). */
export interface AnalogInputs {
  ad0: number;
  ad1?: number;
}

export interface LocationExtras extends SafetyItems {
  /** 0x01, 1/10 km. */
  mileageKm?: number;
  /** 0x02, 1/10 L. */
  fuelL?: number;
  /** 0x02 with bit 15 set: Traccar keeps the low 15 bits unscaled (meaning vendor-specific; raw kept). */
  fuelUnscaled?: number;
  /** 0x03, tachograph speed 1/10 km/h. */
  recorderSpeedKmh?: number;
  /** 0x04, id of the alarm event to confirm manually. */
  alarmEventId?: number;
  /** 0x05 (2019), tyre pressure, 30 bytes kept as hex. */
  tyrePressureHex?: string;
  /** 0x06 (2019), carriage temperature, signed. */
  carriageTemp?: number;
  overspeed?: OverspeedInfo;
  areaAlarm?: AreaAlarmInfo;
  routeTime?: RouteTimeInfo;
  signals?: VehicleSignals;
  io?: IoStatus;
  analog?: AnalogInputs;
  /** 0x30. */
  signalStrength?: number;
  /** 0x31, GNSS satellites in use. */
  satellites?: number;
  /**
   * Vendor power items, as Traccar reads them (each also kept as hex in `unknown`): battery level %
   * (0x56 ×10, 0xD4, 0xE4, 0xF7), battery volts (0x69 /100, 0xF7 /1000, 0xEE /1000),
   * external power volts (0x61 /100, 0xD3 /10, 0xF1 /1000, 0xEE /1000), charging (0xE4, 0xF7).
   */
  batteryLevel?: number;
  batteryV?: number;
  powerV?: number;
  charging?: boolean;
  /** 0x80 vendor OBD block. */
  obd?: ObdBlock;
  /** 0xF3 vendor OBD items. */
  obdF3?: ObdValues;
  /** 0xE6 `$OBD-RT` sentence. */
  obdRt?: ObdRealtime;
  /** 0xEB vendor extension. */
  eb?: EbExtension;
  unknown?: UnknownItem[];
  /**
   * Hex of vendor items whose meaning rests on one implementation, keyed "0x80", "0xF3", "0xE6",
   * "0xEB", "0x02" (fuel with bit 15). Values are the item value, except "0x80": the whole block
   * with item headers, since its OBD items may follow the 0x80 item rather than sit inside it.
   */
  raw?: Record<string, string>;
  /** Hex of a tail that is not a whole item (kept, not thrown). */
  malformed?: string;
}

function areaTypeName(t: number): AreaTypeName {
  return t < AREA_TYPE_NAMES.length ? AREA_TYPE_NAMES[t] : 'unknown';
}

function addUnknown(x: LocationExtras, id: number, p: Buffer, s: number, e: number): void {
  (x.unknown ??= []).push({ id, hex: hex(p, s, e) });
}

function addRaw(x: LocationExtras, id: number, p: Buffer, s: number, e: number): void {
  (x.raw ??= {})[itemKey(id)] = hex(p, s, e);
}

/**
 * Decode the items in [s, e) of a 0x0200 body. Never throws: a broken tail lands in `malformed`.
 * `tz`: the device timezone of the times inside items (active safety).
 */
export function decodeExtras(p: Buffer, s: number, e: number, tz: number = DEFAULT_TZ_OFFSET_MINUTES): LocationExtras {
  const x: LocationExtras = {};
  let o = s;
  while (o < e) {
    if (o + 2 > e) break;
    const id = p[o];
    const len = p[o + 1];
    const vs = o + 2;
    const ve = vs + len;
    if (ve > e) break;
    switch (id) {
      case 0x01:
        if (len === 4) x.mileageKm = u32(p, vs) / 10;
        else addUnknown(x, id, p, vs, ve);
        break;
      case 0x02:
        if (len !== 2) addUnknown(x, id, p, vs, ve);
        else {
          const v = u16(p, vs);
          if (v & 0x8000) {
            x.fuelUnscaled = v & 0x7fff;
            addRaw(x, id, p, vs, ve);
          } else x.fuelL = v / 10;
        }
        break;
      case 0x03:
        if (len === 2) x.recorderSpeedKmh = u16(p, vs) / 10;
        else addUnknown(x, id, p, vs, ve);
        break;
      case 0x04:
        if (len === 2) x.alarmEventId = u16(p, vs);
        else addUnknown(x, id, p, vs, ve);
        break;
      case 0x05:
        x.tyrePressureHex = hex(p, vs, ve);
        break;
      case 0x06:
        if (len === 2) x.carriageTemp = i16(p, vs);
        else addUnknown(x, id, p, vs, ve);
        break;
      case 0x11:
        if (len === 1 && p[vs] === 0) x.overspeed = { areaType: 0, areaTypeName: 'none' };
        else if (len === 5) x.overspeed = { areaType: p[vs], areaTypeName: areaTypeName(p[vs]), areaId: u32(p, vs + 1) };
        else addUnknown(x, id, p, vs, ve);
        break;
      case 0x12:
        if (len === 6) {
          const d = p[vs + 5];
          x.areaAlarm = {
            areaType: p[vs],
            areaTypeName: areaTypeName(p[vs]),
            areaId: u32(p, vs + 1),
            direction: d,
            directionName: d === 0 ? 'in' : d === 1 ? 'out' : 'unknown',
          };
        } else addUnknown(x, id, p, vs, ve);
        break;
      case 0x13:
        if (len === 7) {
          const r = p[vs + 6];
          x.routeTime = {
            routeId: u32(p, vs),
            seconds: u16(p, vs + 4),
            result: r,
            resultName: r === 0 ? 'tooShort' : r === 1 ? 'tooLong' : 'unknown',
          };
        } else addUnknown(x, id, p, vs, ve);
        break;
      case 0x25:
        if (len === 4) x.signals = decodeSignals(u32(p, vs));
        else addUnknown(x, id, p, vs, ve);
        break;
      case 0x2a:
        if (len === 2) x.io = decodeIo(u16(p, vs));
        else addUnknown(x, id, p, vs, ve);
        break;
      case 0x2b:
        if (len === 4) x.analog = { ad0: u16(p, vs + 2), ad1: u16(p, vs) };
        else if (len === 2) x.analog = { ad0: u16(p, vs) };
        else addUnknown(x, id, p, vs, ve);
        break;
      case 0x30:
        if (len === 1) x.signalStrength = p[vs];
        else addUnknown(x, id, p, vs, ve);
        break;
      case 0x31:
        if (len === 1) x.satellites = p[vs];
        else addUnknown(x, id, p, vs, ve);
        break;
      case 0x56:
      case 0x61:
      case 0x69:
      case 0xd3:
      case 0xd4:
      case 0xe4:
      case 0xee:
      case 0xf1:
      case 0xf7:
        // Kept in `unknown` whether decoded or not: the meanings rest on one implementation, and
        // unknown items keep their wire order among each other, so the frame re-encodes as sent.
        decodePower(x, id, p, vs, len);
        addUnknown(x, id, p, vs, ve);
        break;
      case 0x64:
      case 0x65:
      case 0x66:
      case 0x67: {
        // Active safety (苏标); another standard's item stays hex for the session (activeSafety.ts).
        const v = decodeSafetyItem(id, p, vs, ve, 'jsatl12', tz);
        if (v) Object.assign(x, v);
        else addUnknown(x, id, p, vs, ve);
        break;
      }
      case 0x80:
        if (len > 1 && byteTlvFits(p, vs, ve)) {
          // Items inside the 0x80 value.
          const obd: ObdBlock = { content: '', nested: true };
          for (let k = vs; k < ve; k += 2 + p[k + 1]) readObdBlockItem(obd, p[k], p, k + 2, k + 2 + p[k + 1]);
          x.obd = obd;
          addRaw(x, id, p, o, ve);
        } else if (len === 1) {
          // Traccar's layout: a one-byte 0x80 item, then OBD items up to the end of the body.
          o = decodeFlatObd(x, p, o, ve, e);
          continue;
        } else addUnknown(x, id, p, vs, ve);
        break;
      case 0xf3: {
        const v = decodeF3(p, vs, ve);
        if (v) x.obdF3 = v;
        else addUnknown(x, id, p, vs, ve);
        addRaw(x, id, p, vs, ve);
        break;
      }
      case 0xe6: {
        const v = parseObdRt(p.toString('latin1', vs, ve));
        if (v) {
          x.obdRt = v;
          addRaw(x, id, p, vs, ve);
        } else addUnknown(x, id, p, vs, ve);
        break;
      }
      case 0xeb: {
        const v = decodeEb(p, vs, ve);
        if (v) x.eb = v;
        else addUnknown(x, id, p, vs, ve);
        addRaw(x, id, p, vs, ve);
        break;
      }
      default:
        addUnknown(x, id, p, vs, ve);
    }
    o = ve;
  }
  if (o < e) x.malformed = hex(p, o, e);
  return x;
}

/** Ids of the vendor power items (see LocationExtras.batteryLevel). */
export const POWER_ITEM_IDS: readonly number[] = [0x56, 0x61, 0x69, 0xd3, 0xd4, 0xe4, 0xee, 0xf1, 0xf7];

/** One vendor power item; false when its length is not one the vendors use (kept as unknown). */
function decodePower(x: LocationExtras, id: number, p: Buffer, vs: number, len: number): boolean {
  switch (id) {
    case 0x56: // level in tens of percent, then a reserved byte
      if (len < 1) return false;
      x.batteryLevel = p[vs] * 10;
      return true;
    case 0x61:
      if (len !== 2) return false;
      x.powerV = u16(p, vs) / 100;
      return true;
    case 0x69:
      if (len !== 2) return false;
      x.batteryV = u16(p, vs) / 100;
      return true;
    case 0xd3:
      if (len !== 2) return false;
      x.powerV = u16(p, vs) / 10;
      return true;
    case 0xd4:
      if (len !== 1) return false;
      x.batteryLevel = p[vs];
      return true;
    case 0xe4: // charge state (0xAA: unknown), then level
      if (len !== 2) return false;
      if (p[vs] !== 0xaa) x.charging = p[vs] === 1;
      x.batteryLevel = p[vs + 1];
      return true;
    case 0xee: // rssi, power mV, battery mV, satellites (rssi and satellites stay in the raw item: 0x30/0x31 carry them)
      if (len !== 6) return false;
      x.powerV = u16(p, vs + 1) / 1000;
      x.batteryV = u16(p, vs + 3) / 1000;
      return true;
    case 0xf1:
      if (len !== 4) return false;
      x.powerV = u32(p, vs) / 1000;
      return true;
    case 0xf7: // battery mV, then (optionally) charge state and level
      if (len !== 4 && len !== 6) return false;
      x.batteryV = u32(p, vs) / 1000;
      if (len === 6) {
        x.charging = p[vs + 4] === 1 || p[vs + 4] === 2;
        x.batteryLevel = p[vs + 5];
      }
      return true;
    default:
      return false;
  }
}

/** The flat 0x80 layout: returns where parsing stopped. `raw["0x80"]` covers the whole block. */
function decodeFlatObd(x: LocationExtras, p: Buffer, itemStart: number, contentEnd: number, e: number): number {
  const obd: ObdBlock = { content: hex(p, itemStart + 2, contentEnd), nested: false };
  let o = contentEnd;
  while (o + 2 <= e) {
    const ve = o + 2 + p[o + 1];
    if (ve > e) break;
    readObdBlockItem(obd, p[o], p, o + 2, ve);
    o = ve;
  }
  x.obd = obd;
  addRaw(x, 0x80, p, itemStart, o);
  return o;
}

// ---------------------------------------------------------------------------------------------
// Encoding

export interface OverspeedInput {
  areaType: number;
  areaId?: number;
}
export interface AreaAlarmInput {
  areaType: number;
  areaId: number;
  direction: number;
}
export interface RouteTimeInput {
  routeId: number;
  seconds: number;
  result: number;
}

/** What the encoder accepts: the decoded shape, with bit words also allowed as plain numbers. */
export interface LocationExtrasInput
  extends
    Omit<LocationExtras, 'overspeed' | 'areaAlarm' | 'routeTime' | 'signals' | 'io' | 'obd' | 'adas' | 'dsm' | 'tpms' | 'bsd'>,
    SafetyItemsInput {
  overspeed?: OverspeedInput;
  areaAlarm?: AreaAlarmInput;
  routeTime?: RouteTimeInput;
  signals?: SignalsInput;
  io?: IoInput;
  obd?: ObdValues & { content?: string; nested?: boolean };
}

/** Level → 0xD4 (%), battery → 0x69 and power → 0x61 (1/100 V); charging has no item of its own. */
function encodePowerValue(w: ByteWriter, key: 'batteryLevel' | 'batteryV' | 'powerV' | 'charging', x: LocationExtrasInput): void {
  if (key === 'batteryLevel' && x.batteryLevel !== undefined) w.u8(0xd4).u8(1).u8(x.batteryLevel);
  else if (key === 'batteryV' && x.batteryV !== undefined)
    w.u8(0x69)
      .u8(2)
      .u16(Math.round(x.batteryV * 100));
  else if (key === 'powerV' && x.powerV !== undefined)
    w.u8(0x61)
      .u8(2)
      .u16(Math.round(x.powerV * 100));
}

function item(w: ByteWriter, id: number, value: Buffer): void {
  if (value.length > 255) throw new Jt808EncodeError('TOO_LONG', `item ${itemKey(id)}: ${value.length} bytes`);
  w.u8(id).u8(value.length).bytes(value);
}

function rawOr(extras: LocationExtrasInput, id: number, build: () => Buffer): Buffer {
  const r = extras.raw?.[itemKey(id)];
  return r !== undefined ? Buffer.from(r, 'hex') : build();
}

/**
 * Items in the order of the object's keys (a decoded object keeps wire order, so standard
 * frames re-encode byte for byte). A flat 0x80 block always goes last, as it runs to the end.
 */
export function encodeExtras(w: ByteWriter, x: LocationExtrasInput, tz: number = DEFAULT_TZ_OFFSET_MINUTES): void {
  let flatObd: Buffer | undefined;
  for (const key of Object.keys(x) as (keyof LocationExtrasInput)[]) {
    switch (key) {
      case 'mileageKm':
        if (x.mileageKm !== undefined)
          w.u8(0x01)
            .u8(4)
            .u32(Math.round(x.mileageKm * 10));
        break;
      case 'fuelL':
        if (x.fuelL !== undefined)
          w.u8(0x02)
            .u8(2)
            .u16(Math.round(x.fuelL * 10));
        break;
      case 'fuelUnscaled':
        if (x.fuelUnscaled !== undefined)
          w.u8(0x02)
            .u8(2)
            .u16((x.fuelUnscaled & 0x7fff) | 0x8000);
        break;
      case 'recorderSpeedKmh':
        if (x.recorderSpeedKmh !== undefined)
          w.u8(0x03)
            .u8(2)
            .u16(Math.round(x.recorderSpeedKmh * 10));
        break;
      case 'alarmEventId':
        if (x.alarmEventId !== undefined) w.u8(0x04).u8(2).u16(x.alarmEventId);
        break;
      case 'tyrePressureHex':
        if (x.tyrePressureHex !== undefined) item(w, 0x05, Buffer.from(x.tyrePressureHex, 'hex'));
        break;
      case 'carriageTemp':
        if (x.carriageTemp !== undefined) w.u8(0x06).u8(2).i16(x.carriageTemp);
        break;
      case 'overspeed':
        if (x.overspeed !== undefined) {
          if (x.overspeed.areaType === 0) w.u8(0x11).u8(1).u8(0);
          else
            w.u8(0x11)
              .u8(5)
              .u8(x.overspeed.areaType)
              .u32(x.overspeed.areaId ?? 0);
        }
        break;
      case 'areaAlarm':
        if (x.areaAlarm !== undefined) {
          w.u8(0x12).u8(6).u8(x.areaAlarm.areaType).u32(x.areaAlarm.areaId).u8(x.areaAlarm.direction);
        }
        break;
      case 'routeTime':
        if (x.routeTime !== undefined) w.u8(0x13).u8(7).u32(x.routeTime.routeId).u16(x.routeTime.seconds).u8(x.routeTime.result);
        break;
      case 'signals':
        if (x.signals !== undefined) w.u8(0x25).u8(4).u32(signalsWord(x.signals));
        break;
      case 'io':
        if (x.io !== undefined) w.u8(0x2a).u8(2).u16(ioWord(x.io));
        break;
      case 'analog':
        if (x.analog !== undefined) {
          if (x.analog.ad1 === undefined) w.u8(0x2b).u8(2).u16(x.analog.ad0);
          else w.u8(0x2b).u8(4).u16(x.analog.ad1).u16(x.analog.ad0);
        }
        break;
      case 'signalStrength':
        if (x.signalStrength !== undefined) w.u8(0x30).u8(1).u8(x.signalStrength);
        break;
      case 'satellites':
        if (x.satellites !== undefined) w.u8(0x31).u8(1).u8(x.satellites);
        break;
      case 'batteryLevel':
      case 'batteryV':
      case 'powerV':
      case 'charging':
        // Decoded items are written back from `unknown`; built by hand, each value is one canonical item.
        if (!x.unknown?.some((u) => POWER_ITEM_IDS.includes(u.id))) encodePowerValue(w, key, x);
        break;
      case 'obd':
        if (x.obd !== undefined) {
          const obd = x.obd;
          const r = x.raw?.[itemKey(0x80)];
          if (r !== undefined) {
            // raw covers the whole item(s), header included.
            if (obd.nested) w.bytes(Buffer.from(r, 'hex'));
            else flatObd = Buffer.from(r, 'hex');
          } else if (obd.nested) {
            const inner = new ByteWriter(64);
            writeObdBlockItems(inner, obd);
            item(w, 0x80, inner.finish());
          } else {
            const block = new ByteWriter(64);
            const content = Buffer.from(obd.content ?? '00', 'hex');
            block.u8(0x80).u8(content.length).bytes(content);
            writeObdBlockItems(block, obd);
            flatObd = block.finish();
          }
        }
        break;
      case 'obdF3':
        if (x.obdF3 !== undefined) {
          const v = x.obdF3;
          item(
            w,
            0xf3,
            rawOr(x, 0xf3, () => encodeF3(v)),
          );
        }
        break;
      case 'obdRt':
        if (x.obdRt !== undefined) {
          const v = x.obdRt;
          item(
            w,
            0xe6,
            rawOr(x, 0xe6, () => Buffer.from(formatObdRt(v), 'latin1')),
          );
        }
        break;
      case 'eb':
        if (x.eb !== undefined) {
          const v = x.eb;
          item(
            w,
            0xeb,
            rawOr(x, 0xeb, () => encodeEb(v)),
          );
        }
        break;
      case 'adas':
      case 'dsm':
      case 'tpms':
      case 'bsd':
        if (x[key] !== undefined) item(w, SAFETY_ITEM[key], encodeSafetyValue(key, x, tz));
        break;
      case 'unknown':
        for (const u of x.unknown ?? []) {
          // A failed 0xF3/0xEB decode is in `unknown` and also in `raw`; write it once.
          item(w, u.id, Buffer.from(u.hex, 'hex'));
        }
        break;
      case 'raw':
      case 'malformed':
        break;
      default: {
        const never: never = key;
        throw new Jt808EncodeError('BAD_FIELD', `unknown extras key ${String(never)}`);
      }
    }
  }
  if (flatObd) w.bytes(flatObd);
  if (x.malformed !== undefined) w.bytes(Buffer.from(x.malformed, 'hex'));
}
