/**
 * What the trips deriver wrote of each vehicle's window in its last live pass, so that the next
 * pass can tell the derivers after it the earliest row it changed (Deriver.widensForItself). A
 * vehicle parked for days rewrites its open stop on every pass, but its trips and fuel events,
 * which the ledger, the alarms (drains) and behaviour read, stay as they were: those derivers then
 * need not walk the days of the stop again. Stops are left out, as no later deriver reads them.
 *
 * Known only when the window continues this pipeline's last pass of the vehicle (nothing else
 * wrote its rows since) and starts no earlier than that pass's did: the rows the window owns are
 * then those that pass wrote from the window's start on. Otherwise the answer is -Infinity (unknown).
 */

import type { Insertable } from 'kysely';
import type { FuelEventTable, TripTable } from '../../platform/db/tables';

/** Vehicles kept at most; beyond, all are dropped at once (their next passes answer unknown). */
const MAX_VEHICLES = 200_000;

/** A row's time; one the row leaves out (never, as tripRows fills them) reads as the earliest, so it counts as changed. */
const ms = (d: Date | string | null | undefined) => (d == null ? -Infinity : new Date(d).getTime());

/** A row as written: where the window owns it (its key's time), and the earliest time a later deriver reads it at. */
interface RowAt {
  owned: number;
  read: number;
}

interface Written {
  from: number;
  rows: Map<string, RowAt>;
}

/** Each row, whole: a trip is owned and read at its begin, a fuel event owned at its time and read at its time or detection. */
function rowsOf(trips: ReadonlyArray<Insertable<TripTable>>, fuelEvents: ReadonlyArray<Insertable<FuelEventTable>>): Map<string, RowAt> {
  const out = new Map<string, RowAt>();
  for (const t of trips) {
    const begin = ms(t.begin_time);
    out.set(`t${JSON.stringify(t)}`, { owned: begin, read: begin });
  }
  for (const e of fuelEvents) {
    const time = ms(e.time);
    out.set(`f${JSON.stringify(e)}`, { owned: time, read: Math.min(time, e.detected_at == null ? Infinity : ms(e.detected_at)) });
  }
  return out;
}

export class TripChanges {
  private readonly byVehicle = new Map<number, Written>();

  /**
   * The earliest time a later deriver reads a trip or fuel event row at that differs from what the
   * last pass wrote of the window (Infinity: none), when `continues` (DeriveWindow.continues) and
   * the window starts no earlier than that pass's; -Infinity otherwise. `keep`: hold these rows for
   * the next pass (a pass of the worker); else forget the vehicle's.
   */
  changedFrom(
    vehicleId: number,
    from: number,
    rows: { trips: ReadonlyArray<Insertable<TripTable>>; fuelEvents: ReadonlyArray<Insertable<FuelEventTable>> },
    continues: boolean,
    keep: boolean,
  ): number {
    const now = rowsOf(rows.trips, rows.fuelEvents);
    const was = continues ? this.byVehicle.get(vehicleId) : undefined;
    let changed = -Infinity;
    if (was && was.from <= from) {
      changed = Infinity;
      for (const [k, r] of now) if (!was.rows.has(k)) changed = Math.min(changed, r.read);
      // What the last pass wrote before this window's start is not this pass's: it stays.
      for (const [k, r] of was.rows) if (r.owned >= from && !now.has(k)) changed = Math.min(changed, r.read);
    }
    if (!keep) this.byVehicle.delete(vehicleId);
    else {
      if (this.byVehicle.size >= MAX_VEHICLES && !this.byVehicle.has(vehicleId)) this.byVehicle.clear();
      this.byVehicle.set(vehicleId, { from, rows: now });
    }
    return changed;
  }
}
