/**
 * Vendor OBD extensions seen inside 0x0200 (and 0x0900). Their meanings come from one
 * implementation (Traccar's decoder, as summarised in the reference), so callers also get the
 * raw bytes as hex. Numeric widths follow each item's length byte rather than a guessed size.
 */

import { ByteWriter, hex, u16, uintN } from '../bytes';
import type { UnknownItem } from './tlv';

/** OBD readings, normalised units where the reference gives a scale. */
export interface ObdValues {
  rpm?: number;
  powerV?: number;
  engineLoadPct?: number;
  coolantTempC?: number;
  /** Unit as sent by the device (reference gives no scale for 0x85; 0xF3/0x0007 is /10). */
  fuelConsumption?: number;
  intakeTempC?: number;
  intakeFlow?: number;
  intakePressure?: number;
  throttlePct?: number;
  vin?: string;
  odometerKm?: number;
  tripKm?: number;
  fuelLevel?: number;
  dtcs?: string[];
  speedKmh?: number;
  /** 0x01 / 0x02 repeated inside the 0x80 block. */
  mileageKm?: number;
  fuelL?: number;
  tripFuel?: number;
  harshAccelerationCount?: number;
  harshBrakingCount?: number;
  harshCorneringCount?: number;
  unknown?: UnknownItem[];
}

/** Item 0x80: `content` is the hex of the 0x80 item's own value. */
export interface ObdBlock extends ObdValues {
  content: string;
  /** True when the OBD items sat inside the 0x80 value; false when they followed it (Traccar's layout). */
  nested: boolean;
}

function pushUnknown(v: ObdValues, id: number, p: Buffer, s: number, e: number): void {
  (v.unknown ??= []).push({ id, hex: hex(p, s, e) });
}

/** Comma-separated DTCs, blanks dropped. */
export function parseDtcList(text: string): string[] {
  return text
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c.length > 0);
}

/**
 * One item of the 0x80 OBD block (BYTE id, BYTE len). Ids: 0x81 rpm, 0x82 power/10 V, 0x83 load,
 * 0x84 coolant -40, 0x85 fuel consumption, 0x86 intake temp -40, 0x87 intake flow, 0x88 intake
 * pressure, 0x89 throttle, 0x8B VIN, 0x8C odometer x100 m, 0x8D trip x1000 m, 0x8E fuel level,
 * 0xA0 DTC CSV, and 0x01/0x02/0x03 as in the standard table.
 */
export function readObdBlockItem(v: ObdValues, id: number, p: Buffer, s: number, e: number): void {
  const n = e - s;
  if (id === 0x8b) {
    v.vin = p.toString('latin1', s, e).replace(/\0+$/, '');
    return;
  }
  if (id === 0xa0) {
    v.dtcs = parseDtcList(p.toString('latin1', s, e));
    return;
  }
  if (n < 1 || n > 4) {
    pushUnknown(v, id, p, s, e);
    return;
  }
  const x = uintN(p, s, n);
  switch (id) {
    case 0x01:
      v.mileageKm = x / 10;
      break;
    case 0x02:
      v.fuelL = x / 10;
      break;
    case 0x03:
      v.speedKmh = x / 10;
      break;
    case 0x81:
      v.rpm = x;
      break;
    case 0x82:
      v.powerV = x / 10;
      break;
    case 0x83:
      v.engineLoadPct = x;
      break;
    case 0x84:
      v.coolantTempC = x - 40;
      break;
    case 0x85:
      v.fuelConsumption = x;
      break;
    case 0x86:
      v.intakeTempC = x - 40;
      break;
    case 0x87:
      v.intakeFlow = x;
      break;
    case 0x88:
      v.intakePressure = x;
      break;
    case 0x89:
      v.throttlePct = x;
      break;
    case 0x8c:
      v.odometerKm = x / 10;
      break;
    case 0x8d:
      v.tripKm = x;
      break;
    case 0x8e:
      v.fuelLevel = x;
      break;
    default:
      pushUnknown(v, id, p, s, e);
  }
}

/** Canonical encoding of OBD block values (used when no raw bytes are at hand). */
export function writeObdBlockItems(w: ByteWriter, v: ObdValues): void {
  const num = (id: number, value: number | undefined, size: number): void => {
    if (value !== undefined) w.u8(id).u8(size).uintN(Math.round(value), size);
  };
  num(0x01, v.mileageKm === undefined ? undefined : v.mileageKm * 10, 4);
  num(0x02, v.fuelL === undefined ? undefined : v.fuelL * 10, 2);
  num(0x03, v.speedKmh === undefined ? undefined : v.speedKmh * 10, 2);
  num(0x81, v.rpm, 2);
  num(0x82, v.powerV === undefined ? undefined : v.powerV * 10, 2);
  num(0x83, v.engineLoadPct, 1);
  num(0x84, v.coolantTempC === undefined ? undefined : v.coolantTempC + 40, 1);
  num(0x85, v.fuelConsumption, 2);
  num(0x86, v.intakeTempC === undefined ? undefined : v.intakeTempC + 40, 1);
  num(0x87, v.intakeFlow, 2);
  num(0x88, v.intakePressure, 1);
  num(0x89, v.throttlePct, 1);
  if (v.vin !== undefined) {
    const b = Buffer.from(v.vin, 'latin1');
    w.u8(0x8b).u8(b.length).bytes(b);
  }
  num(0x8c, v.odometerKm === undefined ? undefined : v.odometerKm * 10, 4);
  num(0x8d, v.tripKm, 2);
  num(0x8e, v.fuelLevel, 1);
  if (v.dtcs !== undefined) {
    const b = Buffer.from(v.dtcs.join(','), 'latin1');
    w.u8(0xa0).u8(b.length).bytes(b);
  }
  for (const u of v.unknown ?? []) {
    const b = Buffer.from(u.hex, 'hex');
    w.u8(u.id).u8(b.length).bytes(b);
  }
}

/**
 * Item 0xF3: (WORD id, BYTE len, value)*. 0x0002 speed/10, 0x0003 rpm, 0x0004 V/1000,
 * 0x0005 odometer x100 m, 0x0007 fuel consumption/10, 0x0008 load/10, 0x0009 coolant -40,
 * 0x000B intake pressure, 0x000C intake temp -40, 0x000D intake flow, 0x000E throttle x100/255,
 * 0x0050 VIN, 0x0100 trip/10 (read as 0.1 km like item 0x01), 0x0102 trip fuel/10,
 * 0x0112-0x0114 harsh acceleration / braking / cornering counts.
 * Returns undefined when the bytes are not a whole number of sub-items.
 */
export function decodeF3(p: Buffer, s: number, e: number): ObdValues | undefined {
  const v: ObdValues = {};
  let o = s;
  while (o < e) {
    if (o + 3 > e) return undefined;
    const id = u16(p, o);
    const len = p[o + 2];
    const vs = o + 3;
    const ve = vs + len;
    if (ve > e) return undefined;
    o = ve;
    if (id === 0x0050) {
      v.vin = p.toString('latin1', vs, ve).replace(/\0+$/, '');
      continue;
    }
    if (len < 1 || len > 4) {
      pushUnknown(v, id, p, vs, ve);
      continue;
    }
    const x = uintN(p, vs, len);
    switch (id) {
      case 0x0002:
        v.speedKmh = x / 10;
        break;
      case 0x0003:
        v.rpm = x;
        break;
      case 0x0004:
        v.powerV = x / 1000;
        break;
      case 0x0005:
        v.odometerKm = x / 10;
        break;
      case 0x0007:
        v.fuelConsumption = x / 10;
        break;
      case 0x0008:
        v.engineLoadPct = x / 10;
        break;
      case 0x0009:
        v.coolantTempC = x - 40;
        break;
      case 0x000b:
        v.intakePressure = x;
        break;
      case 0x000c:
        v.intakeTempC = x - 40;
        break;
      case 0x000d:
        v.intakeFlow = x;
        break;
      case 0x000e:
        v.throttlePct = (x * 100) / 255;
        break;
      case 0x0100:
        v.tripKm = x / 10;
        break;
      case 0x0102:
        v.tripFuel = x / 10;
        break;
      case 0x0112:
        v.harshAccelerationCount = x;
        break;
      case 0x0113:
        v.harshBrakingCount = x;
        break;
      case 0x0114:
        v.harshCorneringCount = x;
        break;
      default:
        pushUnknown(v, id, p, vs, ve);
    }
  }
  return v;
}

/** Canonical 0xF3 value bytes from readings (simulator use). */
export function encodeF3(v: ObdValues): Buffer {
  const w = new ByteWriter(64);
  const num = (id: number, value: number | undefined, size: number): void => {
    if (value !== undefined) w.u16(id).u8(size).uintN(Math.round(value), size);
  };
  num(0x0002, v.speedKmh === undefined ? undefined : v.speedKmh * 10, 2);
  num(0x0003, v.rpm, 2);
  num(0x0004, v.powerV === undefined ? undefined : v.powerV * 1000, 2);
  num(0x0005, v.odometerKm === undefined ? undefined : v.odometerKm * 10, 4);
  num(0x0007, v.fuelConsumption === undefined ? undefined : v.fuelConsumption * 10, 2);
  num(0x0008, v.engineLoadPct === undefined ? undefined : v.engineLoadPct * 10, 2);
  num(0x0009, v.coolantTempC === undefined ? undefined : v.coolantTempC + 40, 2);
  num(0x000b, v.intakePressure, 2);
  num(0x000c, v.intakeTempC === undefined ? undefined : v.intakeTempC + 40, 2);
  num(0x000d, v.intakeFlow, 2);
  num(0x000e, v.throttlePct === undefined ? undefined : (v.throttlePct * 255) / 100, 2);
  if (v.vin !== undefined) {
    const b = Buffer.from(v.vin, 'latin1');
    w.u16(0x0050).u8(b.length).bytes(b);
  }
  num(0x0100, v.tripKm === undefined ? undefined : v.tripKm * 10, 2);
  num(0x0102, v.tripFuel === undefined ? undefined : v.tripFuel * 10, 2);
  num(0x0112, v.harshAccelerationCount, 2);
  num(0x0113, v.harshBrakingCount, 2);
  num(0x0114, v.harshCorneringCount, 2);
  for (const u of v.unknown ?? []) {
    const b = Buffer.from(u.hex, 'hex');
    w.u16(u.id).u8(b.length).bytes(b);
  }
  return w.finish();
}

/** `$OBD-RT,power,rpm,speed,throttle,load,coolant,instFuel,avgFuel,trip,odometer,tripFuelUsed,fuelUsed` (units as the device sends them). */
export interface ObdRealtime {
  power?: number;
  rpm?: number;
  speed?: number;
  throttle?: number;
  load?: number;
  coolant?: number;
  instFuel?: number;
  avgFuel?: number;
  trip?: number;
  odometer?: number;
  tripFuelUsed?: number;
  fuelUsed?: number;
}

export const OBD_RT_PREFIX = '$OBD-RT';
export const OBD_RT_FIELDS = [
  'power',
  'rpm',
  'speed',
  'throttle',
  'load',
  'coolant',
  'instFuel',
  'avgFuel',
  'trip',
  'odometer',
  'tripFuelUsed',
  'fuelUsed',
] as const satisfies readonly (keyof ObdRealtime)[];

/** Parse a `$OBD-RT,...` sentence; undefined when the text is something else. */
export function parseObdRt(text: string): ObdRealtime | undefined {
  const t = text.replace(/[\0\r\n]+$/, '');
  if (!t.startsWith(`${OBD_RT_PREFIX},`)) return undefined;
  const parts = t.slice(OBD_RT_PREFIX.length + 1).split(',');
  const out: ObdRealtime = {};
  OBD_RT_FIELDS.forEach((name, i) => {
    const raw = parts[i];
    if (raw === undefined || raw.trim() === '') return;
    const x = Number(raw);
    if (Number.isFinite(x)) out[name] = x;
  });
  return out;
}

export function formatObdRt(v: ObdRealtime): string {
  return [OBD_RT_PREFIX, ...OBD_RT_FIELDS.map((f) => (v[f] === undefined ? '' : String(v[f])))].join(',');
}

/** Item 0xEB: (WORD len, WORD id, value[len-2])*; len counts the id. */
export interface EbExtension {
  /** 0x00B2, hex with the 'f' padding removed. */
  iccid?: string;
  /** 0x002D, V/1000. */
  batteryV?: number;
  /** 0x0089, raw external-alarm word. */
  externalAlarms?: number;
  /** 0x00CE, power/100 V. */
  powerV?: number;
  /** 0x00D8 cell info, kept as hex. */
  cellHex?: string;
  /** 0x00B9 Wi-Fi info, kept as hex. */
  wifiHex?: string;
  unknown?: UnknownItem[];
}

export function decodeEb(p: Buffer, s: number, e: number): EbExtension | undefined {
  const v: EbExtension = {};
  let o = s;
  while (o < e) {
    if (o + 4 > e) return undefined;
    const len = u16(p, o);
    const id = u16(p, o + 2);
    const vs = o + 4;
    const ve = o + 2 + len;
    if (len < 2 || ve > e) return undefined;
    o = ve;
    const n = ve - vs;
    switch (id) {
      case 0x00b2:
        v.iccid = hex(p, vs, ve).replace(/f+$/i, '');
        break;
      case 0x002d:
        if (n >= 1 && n <= 4) v.batteryV = uintN(p, vs, n) / 1000;
        else (v.unknown ??= []).push({ id, hex: hex(p, vs, ve) });
        break;
      case 0x0089:
        if (n >= 1 && n <= 4) v.externalAlarms = uintN(p, vs, n);
        else (v.unknown ??= []).push({ id, hex: hex(p, vs, ve) });
        break;
      case 0x00ce:
        if (n >= 1 && n <= 4) v.powerV = uintN(p, vs, n) / 100;
        else (v.unknown ??= []).push({ id, hex: hex(p, vs, ve) });
        break;
      case 0x00d8:
        v.cellHex = hex(p, vs, ve);
        break;
      case 0x00b9:
        v.wifiHex = hex(p, vs, ve);
        break;
      default:
        (v.unknown ??= []).push({ id, hex: hex(p, vs, ve) });
    }
  }
  return v;
}

export function encodeEb(v: EbExtension): Buffer {
  const w = new ByteWriter(64);
  const put = (id: number, b: Buffer): void => {
    w.u16(b.length + 2)
      .u16(id)
      .bytes(b);
  };
  const word = (x: number, size: number): Buffer => new ByteWriter(size).uintN(Math.round(x), size).finish();
  if (v.iccid !== undefined) put(0x00b2, Buffer.from(v.iccid.padEnd(20, 'f'), 'hex'));
  if (v.batteryV !== undefined) put(0x002d, word(v.batteryV * 1000, 2));
  if (v.externalAlarms !== undefined) put(0x0089, word(v.externalAlarms, 4));
  if (v.powerV !== undefined) put(0x00ce, word(v.powerV * 100, 2));
  if (v.cellHex !== undefined) put(0x00d8, Buffer.from(v.cellHex, 'hex'));
  if (v.wifiHex !== undefined) put(0x00b9, Buffer.from(v.wifiHex, 'hex'));
  for (const u of v.unknown ?? []) put(u.id, Buffer.from(u.hex, 'hex'));
  return w.finish();
}
