/**
 * What the behaviour deriver carries from one live pass to the next, per vehicle-day: each trip's
 * tally (events.ts) and the day's health extremes through the last report walked. A day is rebuilt
 * on every pass that touches it, so without this a pass costs the whole day's reports, per vehicle.
 *
 * What is carried stops before the newest time the pass's marks cover (`DeriveWindow.marked`): the
 * reports after it, and more of that second, were stored as the pass ran, and the next pass's dirty
 * range begins with them.
 * A carry is only gone on from when the pipeline says the window continues the last pass of the
 * vehicle (a held window served it: every report before the dirty range is as that pass read it)
 * and the report a tally stopped at lies before the dirty range; a trip must still begin where it
 * began and reach the report its tally stopped at. The settings in force must be the very objects
 * the carry was computed with (the settings cache hands out new ones after an edit). Anything else
 * walks the day afresh, so the rows are the same as a rebuild's.
 */

import { firstAfter, type DeriveObdRecord, type DerivePosition, type DeriveWindow } from '../deriver';
import { voltageOf } from '../alarms/detectors/policyRules';
import type { FenceRule, LimitsWalk } from '../alarms/detectors/fences';
import type { TripSpan, TripTally } from './events';
import type { BehaviourThresholds } from './settings';

/** The day's health extremes over its reports through `through` (and its OBD records through `recordsThrough`). */
export interface HealthTally {
  through: number;
  minBatteryV: number | null;
  maxCoolantC: number | null;
  recordsThrough: number;
  recordsMaxCoolantC: number | null;
}

/** Everything a vehicle-day's rows were computed with, and what to carry on from. */
export interface DayCarry {
  lo: number;
  hi: number;
  timeZone: string;
  speedLimit: number;
  thresholds: BehaviourThresholds;
  fences: readonly FenceRule[];
  /** Per trip begin, its tally. */
  trips: Map<number, TripTally>;
  health: HealthTally;
  /** The fence speed limits of the day's first reports (through the device time given), when a fence has one. */
  limits: { through: number; walk: LimitsWalk } | null;
}

/** The settings a carry must match. */
export type DayBasis = Omit<DayCarry, 'trips' | 'health' | 'limits'>;

function coolantOf(p: DerivePosition): number | null {
  const x = p.extras as {
    obd?: { coolantTempC?: number };
    obdF3?: { coolantTempC?: number };
    obdRt?: { coolant?: number; coolantTempC?: number };
  } | null;
  const v = x?.obd?.coolantTempC ?? x?.obdF3?.coolantTempC ?? x?.obdRt?.coolantTempC ?? x?.obdRt?.coolant;
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

function recordCoolantOf(r: DeriveObdRecord): number | null {
  const v = r.readings?.coolantTempC;
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

const lower = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));
const higher = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

/**
 * The day's lowest battery voltage with the ignition off and its highest coolant temperature, over
 * the day's own reports and records (`today`: none after the day) up to `until`, carried on from `from`.
 */
export function tallyHealth(
  today: readonly DerivePosition[],
  records: readonly DeriveObdRecord[],
  from?: HealthTally,
  until = Infinity,
): HealthTally {
  const out: HealthTally = from
    ? { ...from }
    : { through: -Infinity, minBatteryV: null, maxCoolantC: null, recordsThrough: -Infinity, recordsMaxCoolantC: null };
  const end = firstAfter(today, until);
  for (let i = firstAfter(today, out.through); i < end; i++) {
    const p = today[i];
    if (!p.acc) out.minBatteryV = lower(out.minBatteryV, voltageOf(p));
    out.maxCoolantC = higher(out.maxCoolantC, coolantOf(p));
    out.through = p.time;
  }
  const recordsEnd = firstAfter(records, until);
  for (let i = firstAfter(records, out.recordsThrough); i < recordsEnd; i++) {
    out.recordsMaxCoolantC = higher(out.recordsMaxCoolantC, recordCoolantOf(records[i]));
    out.recordsThrough = records[i].time;
  }
  return out;
}

/** The day's highest coolant temperature, reports and records together. */
export const maxCoolantOf = (h: HealthTally): number | null => higher(h.maxCoolantC, h.recordsMaxCoolantC);

/** Vehicles carried at most; beyond, all are dropped at once and the next passes walk their days afresh. */
const MAX_VEHICLES = 200_000;

/** Whether every report a walk went through (up to `through`) is as the last pass read it. */
const unchanged = (through: number, w: DeriveWindow) => through < w.dirty!.from;

const sameBasis = (a: DayBasis, b: DayBasis) =>
  a.lo === b.lo &&
  a.hi === b.hi &&
  a.timeZone === b.timeZone &&
  a.speedLimit === b.speedLimit &&
  a.thresholds === b.thresholds &&
  a.fences === b.fences;

/** One pipeline's carries (each server builds its own deriver, so two databases in one process never share). */
export class DayCarries {
  private readonly byVehicle = new Map<number, Map<string, DayCarry>>();

  /**
   * The carry a vehicle-day may go on from in this window, or null. `fromWindow`: the day's
   * reports are the window's own (not read from the table apart from it).
   */
  usable(w: DeriveWindow, day: string, basis: DayBasis, fromWindow: boolean): DayCarry | null {
    if (!w.continues || !w.dirty || !fromWindow) return null;
    const carry = this.byVehicle.get(w.vehicle.vehicleId)?.get(day);
    return carry && sameBasis(carry, basis) ? carry : null;
  }

  /** The tally a trip may go on from: it begins where it did, reaches the report its tally stopped at, and nothing it walked changed. */
  static tripFrom(carry: DayCarry | null, trip: TripSpan, w: DeriveWindow): TripTally | undefined {
    const tally = carry?.trips.get(trip.begin);
    return tally && tally.through <= trip.end && unchanged(tally.through, w) ? tally : undefined;
  }

  /** The health tally to go on from, when nothing it walked changed. */
  static healthFrom(carry: DayCarry | null, w: DeriveWindow): HealthTally | undefined {
    const h = carry?.health;
    return h && unchanged(h.through, w) && unchanged(h.recordsThrough, w) ? h : undefined;
  }

  /** The speed limits' walk to go on from: over the same first reports of the day, none of which changed. */
  static limitsFrom(carry: DayCarry | null, w: DeriveWindow, positions: readonly DerivePosition[]): LimitsWalk | undefined {
    const l = carry?.limits;
    if (!l || !unchanged(l.through, w)) return undefined;
    const n = l.walk.limits.length;
    return n <= positions.length && (n === 0 || positions[n - 1].time === l.through) ? l.walk : undefined;
  }

  /** What this pass computed of the vehicle's days, for the next (its other days are dropped). */
  keep(vehicleId: number, days: Map<string, DayCarry>): void {
    if (this.byVehicle.size >= MAX_VEHICLES && !this.byVehicle.has(vehicleId)) this.byVehicle.clear();
    this.byVehicle.set(vehicleId, days);
  }

  /** Forgets a vehicle (its day was walked from reports the window does not hold). */
  forget(vehicleId: number): void {
    this.byVehicle.delete(vehicleId);
  }
}
