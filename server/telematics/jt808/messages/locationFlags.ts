/** Alarm and status words of 0x0200, and the bit words of items 0x25 / 0x2A. */

/** Alarm bit -> name (SmallChi JT808Alarm; bits 15-17 are the 2019 additions from go-jt808). */
export const ALARM_BITS = [
  'sos', // 0 emergency
  'overspeed', // 1
  'fatigue', // 2
  'danger', // 3 danger warning
  'gnssFault', // 4 GNSS module fault
  'gnssAntennaOpen', // 5 antenna open/cut
  'gnssAntennaShort', // 6
  'powerUnderVoltage', // 7 main power under-voltage
  'powerDown', // 8 main power down
  'lcdFault', // 9
  'ttsFault', // 10
  'cameraFault', // 11
  'icCardFault', // 12
  'overspeedWarning', // 13
  'fatigueWarning', // 14
  'illegalDrivingWarning', // 15 (2019)
  'tyrePressureWarning', // 16 (2019)
  'rightTurnBlindZoneWarning', // 17 (2019)
  'dailyDrivingOvertime', // 18
  'overtimeParking', // 19
  'areaInOut', // 20
  'routeInOut', // 21
  'routeTimeAbnormal', // 22 route driving time too short/long
  'routeDeviation', // 23
  'vssFault', // 24
  'fuelAbnormal', // 25
  'stolen', // 26
  'illegalIgnition', // 27
  'illegalDisplacement', // 28
  'collisionWarning', // 29
  'rolloverWarning', // 30
  'illegalDoorOpen', // 31
] as const;

export type AlarmName = (typeof ALARM_BITS)[number];

export interface AlarmFlags {
  raw: number;
  /** Names of the set bits, lowest bit first. */
  active: readonly AlarmName[];
}

const NO_ALARMS: readonly AlarmName[] = Object.freeze([]);

export function decodeAlarm(raw: number): AlarmFlags {
  if (raw === 0) return { raw, active: NO_ALARMS };
  const active: AlarmName[] = [];
  for (let bit = 0; bit < 32; bit++) if ((raw >>> bit) & 1) active.push(ALARM_BITS[bit]);
  return { raw, active };
}

export type AlarmInput = number | { raw?: number; active?: readonly AlarmName[] };

export function alarmWord(a: AlarmInput): number {
  if (typeof a === 'number') return a >>> 0;
  let raw = a.raw ?? 0;
  for (const name of a.active ?? []) raw |= 1 << ALARM_BITS.indexOf(name);
  return raw >>> 0;
}

export type LoadState = 'empty' | 'half' | 'reserved' | 'full';
const LOAD_STATES: readonly LoadState[] = ['empty', 'half', 'reserved', 'full'];

/** Status word (SmallChi JT808Status; 2019 additions from go-jt808). */
export interface LocationStatus {
  raw: number;
  accOn: boolean; // 0
  fixed: boolean; // 1 position valid
  south: boolean; // 2
  west: boolean; // 3
  outOfService: boolean; // 4
  coordsEncrypted: boolean; // 5
  forwardCollisionWarning: boolean; // 6 (2019, AEB)
  laneDepartureWarning: boolean; // 7 (2019)
  load: LoadState; // 8-9
  fuelCut: boolean; // 10 fuel line cut
  circuitCut: boolean; // 11
  doorLocked: boolean; // 12
  frontDoorOpen: boolean; // 13 door 1
  middleDoorOpen: boolean; // 14 door 2
  rearDoorOpen: boolean; // 15 door 3
  driverDoorOpen: boolean; // 16 door 4
  customDoorOpen: boolean; // 17 door 5
  gps: boolean; // 18
  beidou: boolean; // 19
  glonass: boolean; // 20
  galileo: boolean; // 21
  moving: boolean; // 22 (2019)
}

/** Boolean status fields and their bits, for encoding. */
export const STATUS_BITS = {
  accOn: 0,
  fixed: 1,
  south: 2,
  west: 3,
  outOfService: 4,
  coordsEncrypted: 5,
  forwardCollisionWarning: 6,
  laneDepartureWarning: 7,
  fuelCut: 10,
  circuitCut: 11,
  doorLocked: 12,
  frontDoorOpen: 13,
  middleDoorOpen: 14,
  rearDoorOpen: 15,
  driverDoorOpen: 16,
  customDoorOpen: 17,
  gps: 18,
  beidou: 19,
  glonass: 20,
  galileo: 21,
  moving: 22,
} as const;

export function decodeStatus(raw: number): LocationStatus {
  return {
    raw,
    accOn: (raw & 0x1) !== 0,
    fixed: (raw & 0x2) !== 0,
    south: (raw & 0x4) !== 0,
    west: (raw & 0x8) !== 0,
    outOfService: (raw & 0x10) !== 0,
    coordsEncrypted: (raw & 0x20) !== 0,
    forwardCollisionWarning: (raw & 0x40) !== 0,
    laneDepartureWarning: (raw & 0x80) !== 0,
    load: LOAD_STATES[(raw >>> 8) & 3],
    fuelCut: (raw & 0x400) !== 0,
    circuitCut: (raw & 0x800) !== 0,
    doorLocked: (raw & 0x1000) !== 0,
    frontDoorOpen: (raw & 0x2000) !== 0,
    middleDoorOpen: (raw & 0x4000) !== 0,
    rearDoorOpen: (raw & 0x8000) !== 0,
    driverDoorOpen: (raw & 0x10000) !== 0,
    customDoorOpen: (raw & 0x20000) !== 0,
    gps: (raw & 0x40000) !== 0,
    beidou: (raw & 0x80000) !== 0,
    glonass: (raw & 0x100000) !== 0,
    galileo: (raw & 0x200000) !== 0,
    moving: (raw & 0x400000) !== 0,
  };
}

/** `raw` with the flags `s` names set or cleared by their bits (the other bits kept). */
function withFlags<K extends string>(raw: number, s: Partial<Record<NoInfer<K>, boolean>>, bits: Readonly<Record<K, number>>): number {
  for (const [name, bit] of Object.entries(bits) as [K, number][]) {
    const v = s[name];
    if (v === true) raw |= 1 << bit;
    else if (v === false) raw &= ~(1 << bit);
  }
  return raw;
}

export type StatusInput = number | (Partial<Omit<LocationStatus, 'raw' | 'load'>> & { raw?: number; load?: LoadState });

/** Status word from a number or from named flags (named flags override the raw bits they name). */
export function statusWord(s: StatusInput): number {
  if (typeof s === 'number') return s >>> 0;
  let raw = withFlags(s.raw ?? 0, s, STATUS_BITS);
  if (s.load !== undefined) raw = (raw & ~0x300) | (LOAD_STATES.indexOf(s.load) << 8);
  return raw >>> 0;
}

/** Extended vehicle signals, item 0x25. */
export interface VehicleSignals {
  raw: number;
  lowBeam: boolean;
  highBeam: boolean;
  rightTurn: boolean;
  leftTurn: boolean;
  brake: boolean;
  reverse: boolean;
  fog: boolean;
  clearanceLamps: boolean;
  horn: boolean;
  airConditioner: boolean;
  neutral: boolean;
  retarder: boolean;
  abs: boolean;
  heater: boolean;
  clutch: boolean;
}

export const SIGNAL_BITS = {
  lowBeam: 0,
  highBeam: 1,
  rightTurn: 2,
  leftTurn: 3,
  brake: 4,
  reverse: 5,
  fog: 6,
  clearanceLamps: 7,
  horn: 8,
  airConditioner: 9,
  neutral: 10,
  retarder: 11,
  abs: 12,
  heater: 13,
  clutch: 14,
} as const;

const B = SIGNAL_BITS;

/**
 * Spelled out field by field: building it from SIGNAL_BITS with Object.fromEntries and a spread
 * took two thirds of the whole 0x0200 decode (cpu profile, 2026-11-29).
 */
export function decodeSignals(raw: number): VehicleSignals {
  return {
    raw,
    lowBeam: ((raw >>> B.lowBeam) & 1) === 1,
    highBeam: ((raw >>> B.highBeam) & 1) === 1,
    rightTurn: ((raw >>> B.rightTurn) & 1) === 1,
    leftTurn: ((raw >>> B.leftTurn) & 1) === 1,
    brake: ((raw >>> B.brake) & 1) === 1,
    reverse: ((raw >>> B.reverse) & 1) === 1,
    fog: ((raw >>> B.fog) & 1) === 1,
    clearanceLamps: ((raw >>> B.clearanceLamps) & 1) === 1,
    horn: ((raw >>> B.horn) & 1) === 1,
    airConditioner: ((raw >>> B.airConditioner) & 1) === 1,
    neutral: ((raw >>> B.neutral) & 1) === 1,
    retarder: ((raw >>> B.retarder) & 1) === 1,
    abs: ((raw >>> B.abs) & 1) === 1,
    heater: ((raw >>> B.heater) & 1) === 1,
    clutch: ((raw >>> B.clutch) & 1) === 1,
  };
}

export type SignalsInput = number | (Partial<Omit<VehicleSignals, 'raw'>> & { raw?: number });

export function signalsWord(s: SignalsInput): number {
  if (typeof s === 'number') return s >>> 0;
  return withFlags(s.raw ?? 0, s, SIGNAL_BITS) >>> 0;
}

/** IO status, item 0x2A. */
export interface IoStatus {
  raw: number;
  deepSleep: boolean;
  sleep: boolean;
}

export function decodeIo(raw: number): IoStatus {
  return { raw, deepSleep: (raw & 1) !== 0, sleep: (raw & 2) !== 0 };
}

export type IoInput = number | { raw?: number; deepSleep?: boolean; sleep?: boolean };

export function ioWord(s: IoInput): number {
  if (typeof s === 'number') return s;
  let raw = s.raw ?? 0;
  if (s.deepSleep !== undefined) raw = s.deepSleep ? raw | 1 : raw & ~1;
  if (s.sleep !== undefined) raw = s.sleep ? raw | 2 : raw & ~2;
  return raw & 0xffff;
}
