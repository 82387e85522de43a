/**
 * Multipath outliers too close to be jumps on their own (plausible.ts isDetour, segment.ts
 * isShownOutlier): a straight drive keeps its true length, walked at once, position by position
 * as live passes go on, and by the plain rules alike.
 */

import type { DerivePosition, VehicleContext } from '../../../../server/intelligence/deriver';
import { TripWalk } from '../../../../server/intelligence/trips/tripWalk';
import { positionAt } from '../positionAt';
import { plainTrips } from './plainTrips';

const vehicle: VehicleContext = {
  vehicleId: 7,
  orgId: 1,
  orgPath: '/1/',
  licence: '沪A00007',
  tankCapacityL: null,
  fuelTypeId: null,
  settings: { stopMinutes: 5, region: null },
  timeZone: 'Asia/Shanghai',
};

const KM_PER_DEG_LAT = 111.32;
const KM_PER_DEG_LON = KM_PER_DEG_LAT * Math.cos((31.2 * Math.PI) / 180);

/** 41 reports 30 s apart driving north at 36 km/h (0.3 km a step, 12 km), a 10-minute stop after; `off` moves single reports (km north, km east). */
function drive(off: Record<number, [number, number]> = {}): DerivePosition[] {
  const out: DerivePosition[] = [];
  for (let i = 0; i <= 40; i++) {
    const [north, east] = off[i] ?? [0, 0];
    out.push(
      positionAt(i / 2, {
        acc: true,
        speed: 36,
        latitude: 31.2 + (i * 0.3 + north) / KM_PER_DEG_LAT,
        longitude: 121.4 + east / KM_PER_DEG_LON,
      }),
    );
  }
  const end = out[40];
  for (let m = 1; m <= 10; m++) out.push(positionAt(20 + m, { latitude: end.latitude, longitude: end.longitude }));
  return out;
}

const walked = (positions: DerivePosition[], pieces: boolean) => {
  const w = TripWalk.start(positions, null, 5, null);
  if (pieces) for (let i = 1; i <= positions.length; i++) w.walkTo(i);
  else w.walkTo(positions.length);
  return w.result(null, []);
};

const windowOf = (positions: DerivePosition[]) => ({
  vehicle,
  from: positions[0].time,
  to: Infinity,
  positions,
  obdRecords: [],
  before: null,
  after: null,
});

describe('outliers that pass as steps', () => {
  const straight = walked(drive(), false).trips;

  const trueKm = straight[0].metrics.distanceKm;

  it('measure the straight drive as 12 km', () => {
    expect(straight).toHaveLength(1);
    expect(Math.abs(trueKm - 12)).toBeLessThan(0.02);
  });

  // Report 10 is 0.2 km to the side: each step to and from it (0.36 km) is within what 36 km/h
  // allows (0.41 km), yet the way through it is 0.12 km longer than the speeds drove.
  const detour = drive({ 10: [0, 0.2] });
  // Report 20 is 0.05 km behind and 0.2 km to the side: the step to it passes, the step from it to
  // report 21 (0.68 km) is a jump, and the next reports would be jumps too until a relocation.
  const shown = drive({ 20: [-0.35, 0.2] });
  const both = drive({ 10: [0, 0.2], 20: [-0.35, 0.2], 30: [0, -0.25] });

  it.each([
    ['a detour', detour],
    ['an outlier the next report shows up', shown],
    ['several of both', both],
  ])('%s leaves the distance and the trip as they were', (_name, positions) => {
    for (const pieces of [false, true]) {
      const { trips, segments } = walked(positions, pieces);
      expect(trips).toHaveLength(1);
      expect(segments.map((s) => s.kind)).toEqual(['trip', 'stop']);
      expect(Math.abs(trips[0].metrics.distanceKm - trueKm)).toBeLessThan(0.005);
      expect(trips[0].segment).toEqual(straight[0].segment);
    }
    expect(walked(positions, false)).toEqual(plainTrips(windowOf(positions)));
  });

  it('keeps a real bend, whose way is what the speeds drove', () => {
    // A right-angle turn at report 20: north 6 km, then east 6 km at the same speed.
    const bend = drive().map((p, i) => {
      if (i <= 20) return p;
      const k = Math.min(i, 40) - 20;
      return { ...p, latitude: 31.2 + 6 / KM_PER_DEG_LAT, longitude: 121.4 + (k * 0.3) / KM_PER_DEG_LON };
    });
    const { trips } = walked(bend, false);
    expect(trips).toHaveLength(1);
    expect(Math.abs(trips[0].metrics.distanceKm - trueKm)).toBeLessThan(0.005);
  });
});
