/**
 * Active safety (主动安全) additional items of 0x0200, T/JSATL12-2017 (苏标) and the Guangdong
 * variant (粤标), which widens the terminal id in the alarm identification from 7 to 30 bytes and its
 * reserved tail from 1 to 2 (a 40-byte identification instead of 16):
 *   0x64 ADAS: alarm id DWORD, flag BYTE (0 none, 1 start, 2 end), type BYTE, level BYTE, front
 *     vehicle speed BYTE (km/h), front distance BYTE (1/10 s), departure BYTE (1 left, 2 right),
 *     road sign type BYTE, road sign value BYTE, then the common tail.
 *   0x65 DSM: alarm id DWORD, flag BYTE, type BYTE, level BYTE, fatigue degree BYTE (1-10),
 *     reserved BYTE[4], then the common tail.
 *   0x66 TPMS: alarm id DWORD, flag BYTE, then the common tail, then count BYTE and per tyre:
 *     position BYTE, alarm bits WORD, pressure WORD (kPa), temperature WORD (°C), battery WORD (%).
 *   0x67 BSD: alarm id DWORD, flag BYTE, type BYTE (1 rear, 2 left rear, 3 right rear), then the tail.
 *   Common tail: speed BYTE (km/h), altitude WORD (m), latitude DWORD, longitude DWORD (1e-6 °),
 *     time BCD[6], vehicle status WORD, alarm identification.
 *   Alarm identification: terminal id BYTE[7] (粤标 [30]), time BCD[6], sequence BYTE (of alarms in
 *     one second), attachment count BYTE, reserved BYTE (粤标 [2]).
 * Which layout a terminal speaks is chosen per model (gateway/safetyStandard.ts): the codec decodes
 * the national 苏标 layout, and an item that does not fit it stays in `unknown` for the session to
 * decode by the terminal's standard.
 */

import { ByteWriter } from '../bytes';
import { Jt808EncodeError, isJt808DecodeError } from '../errors';
import { BodyReader } from '../reader';
import { putHex, putTime } from './write';

export const SAFETY_STANDARDS = ['jsatl12', 'guangdong'] as const;
export type SafetyStandard = (typeof SAFETY_STANDARDS)[number];

export const SAFETY_ITEM = { adas: 0x64, dsm: 0x65, tpms: 0x66, bsd: 0x67 } as const;
export type SafetyKind = keyof typeof SAFETY_ITEM;
export const SAFETY_ITEM_IDS: readonly number[] = Object.values(SAFETY_ITEM);

/** Widths of the alarm identification's terminal id and reserved tail per standard. */
const ID_WIDTHS: Record<SafetyStandard, { terminal: number; reserved: number }> = {
  jsatl12: { terminal: 7, reserved: 1 },
  guangdong: { terminal: 30, reserved: 2 },
};

export const identificationBytes = (standard: SafetyStandard): number =>
  ID_WIDTHS[standard].terminal + 6 + 1 + 1 + ID_WIDTHS[standard].reserved;

/** The terminal's alarm identification (报警标识号): what ties attachments to the alarm. */
export interface AlarmIdentification {
  terminalId: string;
  /** BCD YYMMDDhhmmss as sent (the terminal's clock), kept verbatim so the key is exact. */
  timeBcd: string;
  /** The same instant as ISO UTC, null when it is no valid time. */
  time: string | null;
  sequence: number;
  attachments: number;
}

/** One text naming an identification: terminal id, time and sequence. */
export const identificationKey = (x: Pick<AlarmIdentification, 'terminalId' | 'timeBcd' | 'sequence'>): string =>
  `${x.terminalId}-${x.timeBcd}-${x.sequence}`;

/** Flag status: 0 no start or end (an event), 1 the alarm starts, 2 it ends. */
export const FLAG_NAMES = ['none', 'start', 'end'] as const;

export const ADAS_TYPES: Record<number, string> = {
  0x01: 'forwardCollision',
  0x02: 'laneDeparture',
  0x03: 'headwayClose',
  0x04: 'pedestrianCollision',
  0x05: 'frequentLaneChange',
  0x06: 'roadSignExceeded',
  0x07: 'obstacle',
  0x10: 'roadSignRecognised',
  0x11: 'activeCapture',
  // 粤标 additions.
  0x12: 'solidLineLaneChange',
  0x13: 'aislePedestrian',
};

export const DSM_TYPES: Record<number, string> = {
  0x01: 'fatigue',
  0x02: 'phoneCall',
  0x03: 'smoking',
  0x04: 'distraction',
  0x05: 'driverAbnormal',
  0x10: 'autoCapture',
  0x11: 'driverChange',
  // 粤标 additions.
  0x06: 'cameraBlocked',
  0x08: 'overtimeDriving',
  0x0a: 'seatbelt',
  0x0b: 'infraredBlocked',
  0x0c: 'handsOff',
  0x0d: 'phoneUse',
};

export const BSD_TYPES: Record<number, string> = { 0x01: 'rearApproach', 0x02: 'leftRearApproach', 0x03: 'rightRearApproach' };

/** TPMS alarm bits of one tyre, bit 0 first. */
export const TPMS_BITS = [
  'report',
  'highPressure',
  'lowPressure',
  'highTemperature',
  'sensorFault',
  'unbalanced',
  'slowLeak',
  'lowBattery',
] as const;

export const ROAD_SIGNS: Record<number, string> = { 1: 'speedLimit', 2: 'heightLimit', 3: 'weightLimit', 4: 'noEntry', 5: 'noParking' };

/** What every item carries after its own fields. */
export interface SafetyCommon {
  /** Terminal's alarm id (DWORD), counts up per alarm. */
  alarmId: number;
  flag: number;
  flagName: (typeof FLAG_NAMES)[number] | 'unknown';
  /** km/h. */
  speed: number;
  altitude: number;
  latitude: number;
  longitude: number;
  time: string | null;
  vehicleStatus: number;
  identification: AlarmIdentification;
  standard: SafetyStandard;
}

export interface AdasAlarm extends SafetyCommon {
  type: number;
  typeName: string;
  level: number;
  /** km/h; meaningful for forward collision and lane departure. */
  frontSpeed: number;
  /** Tenths of a second to the vehicle or pedestrian ahead. */
  frontDistance: number;
  /** 1 left, 2 right (lane departure). */
  departure: number;
  roadSign: number;
  roadSignValue: number;
}

export interface DsmAlarm extends SafetyCommon {
  type: number;
  typeName: string;
  level: number;
  /** 1-10, for fatigue. */
  fatigueDegree: number;
}

export interface TyreReading {
  /** Numbered from the left front wheel in a Z pattern, from 0. */
  position: number;
  alarmBits: number;
  alarms: string[];
  pressureKpa: number;
  temperatureC: number;
  batteryPct: number;
}

export interface TpmsAlarm extends SafetyCommon {
  tyres: TyreReading[];
}

export interface BsdAlarm extends SafetyCommon {
  type: number;
  typeName: string;
}

export interface SafetyItems {
  adas?: AdasAlarm;
  dsm?: DsmAlarm;
  tpms?: TpmsAlarm;
  bsd?: BsdAlarm;
}

const typeName = (names: Record<number, string>, t: number): string => names[t] ?? (t >= 0x08 ? 'custom' : 'unknown');

export function readIdentification(r: BodyReader, standard: SafetyStandard, tz: number): AlarmIdentification {
  const w = ID_WIDTHS[standard];
  // ASCII capitals and digits, NUL-padded.
  const terminalId = r.gbk(w.terminal, 'terminal id').replace(/\0+$/, '').trim();
  const timeBcd = r.hex(6, 'alarm time');
  const time = new BodyReader(Buffer.from(timeBcd, 'hex'), 0, 6, 'alarm time').time('alarm time', tz);
  const sequence = r.u8('sequence');
  const attachments = r.u8('attachments');
  r.hex(w.reserved, 'reserved');
  return { terminalId, timeBcd, time, sequence, attachments };
}

export function writeIdentification(w: ByteWriter, x: Omit<AlarmIdentification, 'time'>, standard: SafetyStandard): ByteWriter {
  const widths = ID_WIDTHS[standard];
  if (!/^[0-9A-Za-z]*$/.test(x.terminalId))
    throw new Jt808EncodeError('BAD_FIELD', `terminal id: "${x.terminalId}" is not letters and digits`);
  w.fixed(Buffer.from(x.terminalId, 'latin1'), widths.terminal, 'terminal id');
  if (!/^[0-9]{12}$/.test(x.timeBcd)) throw new Jt808EncodeError('BAD_FIELD', `alarm time: "${x.timeBcd}" is not YYMMDDhhmmss`);
  putHex(w, x.timeBcd, 'alarm time');
  return w.u8(x.sequence).u8(x.attachments).bytes(Buffer.alloc(widths.reserved));
}

function readTail(r: BodyReader, standard: SafetyStandard, tz: number): Omit<SafetyCommon, 'alarmId' | 'flag' | 'flagName' | 'standard'> {
  const speed = r.u8('speed');
  const altitude = r.u16('altitude');
  const latitude = r.u32('latitude') / 1e6;
  const longitude = r.u32('longitude') / 1e6;
  const time = r.time('time', tz);
  const vehicleStatus = r.u16('vehicle status');
  return { speed, altitude, latitude, longitude, time, vehicleStatus, identification: readIdentification(r, standard, tz) };
}

function head(r: BodyReader): { alarmId: number; flag: number; flagName: SafetyCommon['flagName'] } {
  const alarmId = r.u32('alarm id');
  const flag = r.u8('flag');
  return { alarmId, flag, flagName: FLAG_NAMES[flag] ?? 'unknown' };
}

/** Throws BAD_BODY when the bytes do not fit the layout exactly. */
function decodeStrict(id: number, p: Buffer, s: number, e: number, standard: SafetyStandard, tz: number): SafetyItems {
  const r = new BodyReader(p, s, e, `0x0200 item 0x${id.toString(16)}`);
  const h = head(r);
  let out: SafetyItems;
  switch (id) {
    case SAFETY_ITEM.adas: {
      const type = r.u8('type');
      const fields = {
        type,
        typeName: typeName(ADAS_TYPES, type),
        level: r.u8('level'),
        frontSpeed: r.u8('front speed'),
        frontDistance: r.u8('front distance'),
        departure: r.u8('departure'),
        roadSign: r.u8('road sign'),
        roadSignValue: r.u8('road sign value'),
      };
      out = { adas: { ...h, ...fields, ...readTail(r, standard, tz), standard } };
      break;
    }
    case SAFETY_ITEM.dsm: {
      const type = r.u8('type');
      const level = r.u8('level');
      const fatigueDegree = r.u8('fatigue degree');
      r.hex(4, 'reserved');
      out = { dsm: { ...h, type, typeName: typeName(DSM_TYPES, type), level, fatigueDegree, ...readTail(r, standard, tz), standard } };
      break;
    }
    case SAFETY_ITEM.tpms: {
      const tail = readTail(r, standard, tz);
      const count = r.u8('tyre count');
      const tyres: TyreReading[] = [];
      for (let k = 0; k < count; k++) {
        const position = r.u8('tyre position');
        const alarmBits = r.u16('tyre alarms');
        tyres.push({
          position,
          alarmBits,
          alarms: TPMS_BITS.filter((_, bit) => (alarmBits >> bit) & 1),
          pressureKpa: r.u16('tyre pressure'),
          temperatureC: r.u16('tyre temperature'),
          batteryPct: r.u16('tyre battery'),
        });
      }
      out = { tpms: { ...h, ...tail, tyres, standard } };
      break;
    }
    case SAFETY_ITEM.bsd: {
      const type = r.u8('type');
      out = { bsd: { ...h, type, typeName: typeName(BSD_TYPES, type), ...readTail(r, standard, tz), standard } };
      break;
    }
    default:
      throw new Jt808EncodeError('BAD_FIELD', `0x${id.toString(16)} is no active safety item`);
  }
  r.done();
  return out;
}

/**
 * One active safety item [s, e) under a standard, or undefined when its bytes do not fit that
 * layout (short, long, or a tyre count the bytes do not hold): the caller keeps it as hex.
 */
export function decodeSafetyItem(
  id: number,
  p: Buffer,
  s: number,
  e: number,
  standard: SafetyStandard,
  tz: number,
): SafetyItems | undefined {
  try {
    return decodeStrict(id, p, s, e, standard, tz);
  } catch (err) {
    if (isJt808DecodeError(err)) return undefined;
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Encoding (tests, the simulator, and re-encoding a decoded frame)

type Input<T extends SafetyCommon> = Omit<T, 'flagName' | 'typeName' | 'identification' | 'standard' | 'time' | 'alarms'> & {
  time: string | null;
  identification: Omit<AlarmIdentification, 'time'>;
  standard?: SafetyStandard;
};
export type AdasInput = Input<AdasAlarm>;
export type DsmInput = Input<DsmAlarm>;
export type BsdInput = Input<BsdAlarm>;
export type TpmsInput = Omit<Input<TpmsAlarm>, 'tyres'> & { tyres: Omit<TyreReading, 'alarms'>[] };

export interface SafetyItemsInput {
  adas?: AdasInput;
  dsm?: DsmInput;
  tpms?: TpmsInput;
  bsd?: BsdInput;
}

function writeTail(w: ByteWriter, x: Input<SafetyCommon>, tz: number): void {
  w.u8(x.speed)
    .u16(x.altitude)
    .u32(Math.round(x.latitude * 1e6))
    .u32(Math.round(x.longitude * 1e6));
  putTime(w, x.time, tz);
  w.u16(x.vehicleStatus);
  writeIdentification(w, x.identification, x.standard ?? 'jsatl12');
}

/** The value (without id and length) of one item. */
export function encodeSafetyValue(kind: SafetyKind, x: SafetyItemsInput, tz: number): Buffer {
  const w = new ByteWriter(96);
  switch (kind) {
    case 'adas': {
      const a = x.adas!;
      w.u32(a.alarmId)
        .u8(a.flag)
        .u8(a.type)
        .u8(a.level)
        .u8(a.frontSpeed)
        .u8(a.frontDistance)
        .u8(a.departure)
        .u8(a.roadSign)
        .u8(a.roadSignValue);
      writeTail(w, a, tz);
      break;
    }
    case 'dsm': {
      const d = x.dsm!;
      w.u32(d.alarmId).u8(d.flag).u8(d.type).u8(d.level).u8(d.fatigueDegree).u32(0);
      writeTail(w, d, tz);
      break;
    }
    case 'tpms': {
      const t = x.tpms!;
      w.u32(t.alarmId).u8(t.flag);
      writeTail(w, t, tz);
      w.u8(t.tyres.length);
      for (const y of t.tyres) w.u8(y.position).u16(y.alarmBits).u16(y.pressureKpa).u16(y.temperatureC).u16(y.batteryPct);
      break;
    }
    case 'bsd': {
      const b = x.bsd!;
      w.u32(b.alarmId).u8(b.flag).u8(b.type);
      writeTail(w, b, tz);
      break;
    }
  }
  return w.finish();
}
