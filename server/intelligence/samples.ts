/**
 * What every deriver reads: the stored reports of a vehicle's window as the pipeline hands them,
 * the vehicle's context, time ranges and the small helpers over time-ordered samples. A leaf module
 * (it imports nothing of the engine), so the detectors, loaders and lookups can depend on it without
 * depending on the pipeline's contract (deriver.ts), which in turn depends on them.
 */

/** A stored position, as derivers read it (device-time order, epoch ms). */
export interface DerivePosition {
  time: number;
  latitude: number;
  longitude: number;
  /** km/h */
  speed: number;
  direction: number;
  acc: boolean;
  /** Unsigned 32-bit words. */
  alarm: number;
  status: number;
  /** Odometer (additional item 0x01), km. */
  mileageKm: number | null;
  /** Fuel level (additional item 0x02), litres. */
  fuelL: number | null;
  blind: boolean;
  /** Additional items beyond the columns, as decoded (OBD blocks, signals, DTCs…). */
  extras: Record<string, unknown> | null;
}

/** A stored OBD record (0x0900 / 0xF0), in device-time order. */
export interface DeriveObdRecord {
  time: number;
  subtype: number;
  latitude: number | null;
  longitude: number | null;
  /** Named readings: odometerKm, fuelLevel (%), speedKmh, rpm, coolantTempC, … */
  readings: Record<string, unknown> | null;
  detail: Record<string, unknown> | null;
  dtcCount: number;
  /** The trouble codes a trouble-code record (subtype OBD_DTC_SUBTYPE) lists, in order, as the window readers load them. */
  codes?: string[];
}

/** OBD record subtype of trouble-code lists. */
export const OBD_DTC_SUBTYPE = 2;

/** Who the window belongs to, and the settings in force for it. */
export interface VehicleContext {
  vehicleId: number;
  orgId: number;
  /** '/1/4/': the organisation's path, for nearest-ancestor settings and policies. */
  orgPath: string;
  licence: string;
  tankCapacityL: number | null;
  fuelTypeId: number | null;
  /** Trip settings of the nearest organisation that has them (defaults otherwise). */
  settings: TripSettings;
  /** IANA zone of local days (FLEET_TIMEZONE). */
  timeZone: string;
}

export interface TripSettings {
  /** A trip ends after a stop of at least this many minutes (default 5). */
  stopMinutes: number;
  /** oil_price.region the vehicles buy fuel in; null → the fuel type's price. */
  region: string | null;
}

/**
 * One vehicle's window [from, to): every position and OBD record in it, in device-time order, plus
 * the neighbours just outside it. `from` and `to` are already widened to segment boundaries (see
 * Deriver.extend), so rows a deriver rebuilds never straddle the window's edges.
 */
export interface DeriveWindow {
  vehicle: VehicleContext;
  /** Inclusive, epoch ms; -Infinity: from the vehicle's first report. */
  from: number;
  /** Exclusive, epoch ms; Infinity: through the vehicle's newest report. */
  to: number;
  positions: DerivePosition[];
  obdRecords: DeriveObdRecord[];
  /** The last position before `from` and the first at or after `to`, when they exist. */
  before: DerivePosition | null;
  after: DerivePosition | null;
  /**
   * The range asked for before the derivers widened it (a pass: the reports stored since the last;
   * a rebuild: the range given). Every report that changed lies in it, so a deriver whose rows
   * depend only on the reports near them (the replay's levels) may rebuild just around it.
   * Absent: the whole window.
   */
  dirty?: TimeRange;
  /**
   * The window continues this pipeline's last pass of the vehicle (its held window served): every
   * report before `dirty.from` is as that pass read it, so a deriver may carry on from what it
   * computed then (behaviour/dayCarry.ts). Absent: assume nothing.
   */
  continues?: boolean;
  /**
   * A pass of the worker: the newest device time its marks cover. Reports after it were stored as
   * the pass ran (their marks not yet taken), so the next pass's dirty range begins after it
   * whenever the terminal reports in order: what a deriver carries on from should stop before it
   * (a terminal may send several reports in one second of device time, and the rest of that second
   * may be among them).
   */
  marked?: number;
  /**
   * For derivers that rebuild whole local days (Deriver.readsDays), in a window that runs to the
   * newest report: every report from the local midnight the window starts in, as the pass read them.
   */
  days?: DeriveDays;
}

/** Every position and OBD record of the vehicle from `from` (a local midnight) through the newest, in device-time order. */
export interface DeriveDays {
  from: number;
  positions: DerivePosition[];
  obdRecords: DeriveObdRecord[];
}

export interface VehicleRange extends TimeRange {
  vehicleId: number;
}

export interface TimeRange {
  from: number;
  to: number;
}

/** SQL bounds of a range: ±Infinity become null (unbounded). */
export const boundOf = (ms: number): Date | null => (Number.isFinite(ms) ? new Date(ms) : null);

/** A bound as timestamptz text for set-wise statements (unnest of arrays): ±Infinity become ±infinity. */
export const boundText = (ms: number): string => (Number.isFinite(ms) ? new Date(ms).toISOString() : ms < 0 ? '-infinity' : 'infinity');

/** The index of the first item at or after `t` in items ordered by time (binary search: windows hold thousands). */
export function firstAtOrAfter(items: ReadonlyArray<{ time: number }>, t: number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (items[mid].time < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The index of the first item after `t` in items ordered by time. */
export function firstAfter(items: ReadonlyArray<{ time: number }>, t: number): number {
  let i = firstAtOrAfter(items, t);
  while (i < items.length && items[i].time <= t) i++;
  return i;
}

/** The items of [from, to) of a list ordered by time, as `filter` would give them. */
export function timeSlice<T extends { time: number }>(items: readonly T[], from: number, to: number): T[] {
  return items.slice(firstAtOrAfter(items, from), firstAtOrAfter(items, to));
}
