/**
 * What the pipeline keeps of each vehicle's last window between passes, so a live pass reads from
 * the database only the reports stored since (work proportional to the new reports, not to the
 * length of the open trip the window starts at).
 *
 * A held window is every stored position and OBD record of the vehicle from `from` through
 * `through`, as the last pass read them. It serves the next pass when the pass runs to the newest
 * report, the window starts no earlier than `from`, and no other process has derived the vehicle
 * since (its derived sequence is the one this process wrote): whole when the pass's pending range
 * begins after `through`, else (a late or blind-area report inside it, or concurrent writers
 * committing out of order) only its part before the pending range begins, which nothing stored
 * since can reach. Otherwise the pass reads the whole window as before and holds it anew. After a restart nothing is held: the first pass reads its whole window, so rows never
 * depend on what was held.
 */

import { firstAtOrAfter, type DeriveObdRecord, type DerivePosition, type DeriveWindow } from './deriver';

export interface HeldWindow {
  /** Every report with device time ≥ from (and ≤ through) is in the lists; -Infinity from the first. */
  from: number;
  /** The newest device time read, positions and OBD records alike (epoch ms). */
  through: number;
  /** The position just before `from` (null when `from` is unbounded or nothing lies before). */
  before: DerivePosition | null;
  positions: DerivePosition[];
  obdRecords: DeriveObdRecord[];
  /** The derive_state sequence the pass that read it consumed. */
  seq: number;
}

/** What a pass knows of a vehicle before reading: its widened range and its derive_state. */
export interface PassOf {
  from: number;
  to: number;
  pendingFrom: number;
  derivedSeq: number | null;
}

export interface HeldLimits {
  /** Positions held for all vehicles together; the least recently derived are dropped beyond it. */
  maxPositions: number;
  /** A window longer than this is not held (a vehicle parked for months with no trip). */
  maxPerVehicle: number;
}

export const DEFAULT_HELD_LIMITS: HeldLimits = { maxPositions: 1_000_000, maxPerVehicle: 50_000 };

/** The part of a held window from `from` on, with the position before it. */
export function heldFrom(
  held: HeldWindow,
  from: number,
): { before: DerivePosition | null; positions: DerivePosition[]; obdRecords: DeriveObdRecord[] } {
  if (from <= held.from) return { before: held.before, positions: held.positions, obdRecords: held.obdRecords };
  const i = firstAtOrAfter(held.positions, from);
  const j = firstAtOrAfter(held.obdRecords, from);
  return { before: i > 0 ? held.positions[i - 1] : held.before, positions: held.positions.slice(i), obdRecords: held.obdRecords.slice(j) };
}

/** A held window cut back to the reports before `at` (its through then just before `at`). */
export function heldBefore(held: HeldWindow, at: number): HeldWindow {
  let i = held.positions.length;
  while (i > 0 && held.positions[i - 1].time >= at) i--;
  let j = held.obdRecords.length;
  while (j > 0 && held.obdRecords[j - 1].time >= at) j--;
  return { ...held, through: at - 1, positions: held.positions.slice(0, i), obdRecords: held.obdRecords.slice(0, j) };
}

export class HeldWindows {
  private readonly held = new Map<number, HeldWindow>();
  private total = 0;

  constructor(private readonly limits: HeldLimits = DEFAULT_HELD_LIMITS) {}

  /** The vehicle's held window if it can serve this pass; a held window that cannot is dropped. */
  usable(vehicleId: number, pass: PassOf): HeldWindow | null {
    const h = this.held.get(vehicleId);
    if (!h) return null;
    if (pass.to === Infinity && pass.from >= h.from && pass.derivedSeq === h.seq) {
      if (pass.pendingFrom > h.through) return h;
      // Reports stored since begin at pendingFrom, even when they came in behind what was held (a
      // late upload, or writers committing batches out of order): what is held before it is
      // still every report there is, so only the rest is read again.
      if (pass.pendingFrom > pass.from) return heldBefore(h, pass.pendingFrom);
    }
    this.forget([vehicleId]);
    return null;
  }

  /** Holds what a committed pass read of a vehicle's window (run to the newest report). */
  keep(window: DeriveWindow, through: number, seq: number): void {
    const vehicleId = window.vehicle.vehicleId;
    this.forget([vehicleId]);
    if (window.to !== Infinity || window.positions.length > this.limits.maxPerVehicle || !Number.isFinite(through)) return;
    this.held.set(vehicleId, {
      from: window.from,
      through,
      before: window.before,
      positions: window.positions,
      obdRecords: window.obdRecords,
      seq,
    });
    this.total += window.positions.length;
    // Map order is insertion order: the first entries are the least recently derived.
    for (const [v, h] of this.held) {
      if (this.total <= this.limits.maxPositions) break;
      this.held.delete(v);
      this.total -= h.positions.length;
    }
  }

  forget(vehicleIds: Iterable<number>): void {
    for (const v of vehicleIds) {
      const h = this.held.get(v);
      if (!h) continue;
      this.held.delete(v);
      this.total -= h.positions.length;
    }
  }

  get size(): number {
    return this.held.size;
  }

  get positions(): number {
    return this.total;
  }
}

/** The newest device time among what a window read (positions and OBD records). */
export function newestOf(window: Pick<DeriveWindow, 'positions' | 'obdRecords'>, since = -Infinity): number {
  const p = window.positions.length ? window.positions[window.positions.length - 1].time : -Infinity;
  const o = window.obdRecords.length ? window.obdRecords[window.obdRecords.length - 1].time : -Infinity;
  return Math.max(since, p, o);
}
