/**
 * A stop whose fixes drift off where the vehicle parked and stay off (a cheap terminal in a car
 * park): the drifted reports are no place, but their levels are read standing, so a refuel among
 * them is found, and the next trip's fuel is read from just before it, not from where it parked.
 */

import type { DerivePosition, DeriveWindow, VehicleContext } from '../../../../server/intelligence/deriver';
import { deriveTrips } from '../../../../server/intelligence/trips/tripDeriver';
import { TripCarries } from '../../../../server/intelligence/trips/tripCarry';
import { positionAt } from '../positionAt';

const vehicle: VehicleContext = {
  vehicleId: 7,
  orgId: 1,
  orgPath: '/1/',
  licence: '沪A00007',
  tankCapacityL: 400,
  fuelTypeId: null,
  settings: { stopMinutes: 5, region: null },
  timeZone: 'Asia/Shanghai',
};

/** ~111 m per 0.001° of latitude: a drive north at 36 km/h is 0.0027° a half minute. */
const north = (minute: number, lat: number, o: Partial<DerivePosition>) => positionAt(minute, { latitude: 31.2 + lat, ...o });

function day(): DerivePosition[] {
  const out: DerivePosition[] = [];
  // Half an hour's drive burning 0.3 L a minute, from 300 L.
  for (let k = 0; k <= 60; k++) out.push(north(k / 2, k * 0.0027, { acc: true, speed: 36, fuelL: 300 - k * 0.15 }));
  const parkedAt = 60 * 0.0027;
  const parked = 300 - 60 * 0.15;
  // Parked: three reports where it stopped, then every fix 150–250 m off (drift) for the rest of the stop.
  for (let k = 1; k <= 3; k++) out.push(north(30 + k * 5, parkedAt + 0.0001 * k, { fuelL: parked }));
  const drift = (m: number) => parkedAt + 0.0015 + (m % 3) * 0.0003;
  for (let k = 4; k <= 8; k++) out.push(north(30 + k * 5, drift(k), { fuelL: parked }));
  // The refuel, 120 L, among the drifted reports.
  for (let k = 9; k <= 16; k++) out.push(north(30 + k * 5, drift(k), { fuelL: parked + 120 }));
  // On again: a second drive of 20 minutes from the full tank.
  for (let k = 1; k <= 40; k++)
    out.push(north(110 + k / 2, parkedAt + k * 0.0027, { acc: true, speed: 36, fuelL: parked + 120 - k * 0.15 }));
  out.push(north(131, parkedAt + 40 * 0.0027, { fuelL: parked + 120 - 6 }));
  out.push(north(140, parkedAt + 40 * 0.0027, { fuelL: parked + 120 - 6 }));
  return out;
}

const windowOf = (positions: DerivePosition[], extra: Partial<DeriveWindow> = {}): DeriveWindow => ({
  vehicle,
  from: positions[0].time,
  to: Infinity,
  positions,
  obdRecords: [],
  before: null,
  after: null,
  ...extra,
});

describe('a stop whose fixes drift off for good', () => {
  it('keeps the refuel among the drifted reports, and reads the next trip from just before it', () => {
    const rows = deriveTrips(windowOf(day()));
    expect(rows.fuelEvents.map((e) => [e.kind, e.amount_l])).toEqual([['refuel', 120]]);
    expect(rows.trips).toHaveLength(2);
    // The second drive burnt 40 × 0.15 L from the full tank (read before the refuel: 0, as when the level was read from where it parked).
    expect(rows.trips[1].fuel_l).toBe(6);
  });

  it('finds the same when the day arrives a few reports at a time', () => {
    const positions = day();
    const carries = new TripCarries();
    let last: ReturnType<typeof carries.walk> | null = null;
    for (let n = 5; n < positions.length + 5; n += 5) {
      const part = positions.slice(0, Math.min(n, positions.length));
      const newest = part[part.length - 1].time;
      last = carries.walk(
        windowOf(part, { continues: true, dirty: { from: part[Math.max(0, n - 5)].time, to: Infinity }, marked: newest }),
      );
    }
    const whole = deriveTrips(windowOf(positions));
    expect(last!.fuelEvents.map((e) => [e.kind, e.amountL])).toEqual(whole.fuelEvents.map((e) => [e.kind, e.amount_l]));
  });
});
