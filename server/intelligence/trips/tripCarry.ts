/**
 * What the trips deriver carries from one live pass of a vehicle to the next: its walk over the
 * window (tripWalk.ts) as it stood before the newest time the pass's marks cover
 * (`DeriveWindow.marked`; the reports after it, and more of that very second, were stored as the
 * pass ran, and the next pass's dirty range begins with them). Without it, every pass walks the
 * open trip from its first report.
 *
 * A walk is gone on from only when the pipeline says the window continues its last pass of the
 * vehicle (every report before the dirty range is as that pass read it), the walk stopped before
 * the dirty range, the window begins where it began (the same first report and the same report
 * before it), and the trip settings and tank are the same. Anything else walks the window afresh,
 * so the rows are those of a rebuild.
 */

import { firstAtOrAfter, type DeriveWindow } from '../deriver';
import { TripWalk, type TripsFound, type WalkPoint } from './tripWalk';

interface TripCarry {
  from: number;
  beforeTime: number | null;
  stopMinutes: number;
  tankCapacityL: number | null;
  /** Device time of the last position walked. */
  through: number;
  walk: TripWalk;
  point: WalkPoint;
}

/** Vehicles carried at most; beyond, all are dropped at once and the next passes walk afresh. */
const MAX_VEHICLES = 200_000;

/** One pipeline's carries (each server builds its own deriver, so two databases in one process never share). */
export class TripCarries {
  private readonly byVehicle = new Map<number, TripCarry>();

  /** The trips of a window, going on from the last pass's walk when it may, and what the next pass may go on from. */
  walk(w: DeriveWindow): TripsFound {
    const { positions, vehicle } = w;
    const stopMinutes = vehicle.settings.stopMinutes;
    const carry = this.usable(w);
    const walk = carry
      ? TripWalk.resume(carry.walk, carry.point, positions)
      : TripWalk.start(positions, w.before, stopMinutes, vehicle.tankCapacityL);
    if (w.marked === undefined) this.byVehicle.delete(vehicle.vehicleId);
    else {
      walk.walkTo(firstAtOrAfter(positions, w.marked));
      const n = walk.walked;
      if (n > 0)
        this.keep(vehicle.vehicleId, {
          from: w.from,
          beforeTime: w.before?.time ?? null,
          stopMinutes,
          tankCapacityL: vehicle.tankCapacityL,
          through: positions[n - 1].time,
          walk,
          point: walk.point(),
        });
      else this.byVehicle.delete(vehicle.vehicleId);
    }
    walk.walkTo(positions.length);
    return walk.result(w.after, w.obdRecords);
  }

  private usable(w: DeriveWindow): TripCarry | null {
    if (!w.continues || !w.dirty) return null;
    const c = this.byVehicle.get(w.vehicle.vehicleId);
    if (!c || c.from !== w.from || c.beforeTime !== (w.before?.time ?? null)) return null;
    if (c.stopMinutes !== w.vehicle.settings.stopMinutes || c.tankCapacityL !== w.vehicle.tankCapacityL) return null;
    const n = c.point.next;
    return c.through < w.dirty.from && n <= w.positions.length && w.positions[n - 1].time === c.through ? c : null;
  }

  private keep(vehicleId: number, carry: TripCarry): void {
    if (this.byVehicle.size >= MAX_VEHICLES && !this.byVehicle.has(vehicleId)) this.byVehicle.clear();
    this.byVehicle.set(vehicleId, carry);
  }
}
