/**
 * What the trips deriver wrote of each vehicle's window in its last live pass, so that a pass going
 * on from that pass's walk (tripCarry.ts) can tell the derivers after it the earliest row it changed
 * (Deriver.widensForItself). A vehicle parked for days rewrites its open stop on every pass, but
 * its trips and fuel events, which the ledger, the alarms (drains) and behaviour read, stay as they
 * were: those derivers then need not walk the days of the stop again. Stops are left out, as no
 * later deriver reads them. Anything but a resumed walk answers -Infinity (unknown).
 */

import type { Insertable } from 'kysely';
import type { FuelEventTable, TripTable } from '../../platform/db/tables';

/** Vehicles kept at most; beyond, all are dropped at once (their next passes answer unknown). */
const MAX_VEHICLES = 200_000;

/** A row's time; one the row leaves out (never, as tripRows fills them) reads as the earliest, so it counts as changed. */
const ms = (d: Date | string | null | undefined) => (d == null ? -Infinity : new Date(d).getTime());

/** Each row, whole, with the earliest time a later deriver reads it at: a trip's begin, a fuel event's time or detection. */
function rowTimes(trips: ReadonlyArray<Insertable<TripTable>>, fuelEvents: ReadonlyArray<Insertable<FuelEventTable>>): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of trips) out.set(`t${JSON.stringify(t)}`, ms(t.begin_time));
  for (const e of fuelEvents) out.set(`f${JSON.stringify(e)}`, Math.min(ms(e.time), e.detected_at == null ? Infinity : ms(e.detected_at)));
  return out;
}

export class TripChanges {
  private readonly byVehicle = new Map<number, Map<string, number>>();

  /**
   * The earliest time of a trip or fuel event row that differs from what the last pass wrote of
   * the window (Infinity: none), when `resumed` (the walk went on from that pass's); -Infinity
   * otherwise. `keep`: hold these rows for the next pass (a live pass); else forget the vehicle's.
   */
  changedFrom(
    vehicleId: number,
    rows: { trips: ReadonlyArray<Insertable<TripTable>>; fuelEvents: ReadonlyArray<Insertable<FuelEventTable>> },
    resumed: boolean,
    keep: boolean,
  ): number {
    const now = rowTimes(rows.trips, rows.fuelEvents);
    const was = resumed ? this.byVehicle.get(vehicleId) : undefined;
    let from = was ? Infinity : -Infinity;
    if (was) {
      for (const [k, t] of now) if (!was.has(k)) from = Math.min(from, t);
      for (const [k, t] of was) if (!now.has(k)) from = Math.min(from, t);
    }
    if (!keep) this.byVehicle.delete(vehicleId);
    else {
      if (this.byVehicle.size >= MAX_VEHICLES && !this.byVehicle.has(vehicleId)) this.byVehicle.clear();
      this.byVehicle.set(vehicleId, now);
    }
    return from;
  }
}
