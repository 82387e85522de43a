/**
 * What the replay levels' deriver carries from one live pass of a vehicle to the next: per level,
 * the tally of the bucket the pass ended in (minuteDeriver.ts), as it stood before the newest
 * second the pass's marks cover (`DeriveWindow.marked`; more reports of that second may come). A
 * pass rebuilds the buckets from the one its new reports begin in, so without this a ten-minute
 * bucket's reports were all read again on every pass.
 *
 * A tally is gone on from only when the window continues the last pass of the vehicle (every report
 * before the new ones is as that pass read it), the pass rebuilds from that very bucket, and the
 * tally's last report lies before the new ones. Anything else tallies the bucket afresh.
 */

import type { DerivePosition, DeriveWindow } from '../samples';

/** What a minute row needs of a report (device-time order). */
export type MinutePoint = Pick<DerivePosition, 'time' | 'latitude' | 'longitude' | 'speed' | 'direction' | 'acc' | 'mileageKm'>;

/**
 * One bucket's figures as its reports are met in device-time order: the first, fastest, slowest
 * and last report (with their places in the bucket, which order the kept points), the GNSS distance
 * between its reports, the odometer's ends and the count. A live pass goes on from the tally the
 * last pass left (below) instead of reading the bucket's reports again.
 */
export interface BucketTally {
  minute: number;
  n: number;
  gnss: number;
  first: MinutePoint;
  top: MinutePoint;
  topAt: number;
  slow: MinutePoint;
  slowAt: number;
  last: MinutePoint;
  odoFirst: number | null;
  odoLast: number | null;
  odoSane: boolean;
}

/** Vehicles carried at most; beyond, all are dropped at once and the next passes tally afresh. */
const MAX_VEHICLES = 200_000;

export class BucketCarries {
  /** Per vehicle, per level (minutes per bucket), the tally to go on from. */
  private readonly byVehicle = new Map<number, Map<number, BucketTally>>();

  /** The tally a level of this window may go on from, rebuilding from the bucket starting at `from`. */
  usable(w: DeriveWindow, spanMinutes: number, from: number): BucketTally | null {
    if (!w.continues || !w.dirty) return null;
    const t = this.byVehicle.get(w.vehicle.vehicleId)?.get(spanMinutes);
    return t && t.minute === from && t.last.time < w.dirty.from ? t : null;
  }

  /** What a level's walk left for the next pass (null: nothing it may go on from). */
  keep(w: DeriveWindow, spanMinutes: number, tally: BucketTally | null): void {
    const vehicleId = w.vehicle.vehicleId;
    let levels = this.byVehicle.get(vehicleId);
    if (!tally || w.marked === undefined) {
      levels?.delete(spanMinutes);
      return;
    }
    if (!levels) {
      if (this.byVehicle.size >= MAX_VEHICLES) this.byVehicle.clear();
      this.byVehicle.set(vehicleId, (levels = new Map()));
    }
    levels.set(spanMinutes, tally);
  }
}
