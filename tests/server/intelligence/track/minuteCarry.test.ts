/**
 * The replay levels carried from pass to pass (minuteCarry.ts) against a fresh tally of the same
 * buckets: random reports sent a few at a time (livePasses.ts).
 */

import fc from 'fast-check';
import type { DerivePosition, DeriveWindow, VehicleContext } from '../../../../server/intelligence/deriver';
import { BucketCarries } from '../../../../server/intelligence/track/minuteCarry';
import { floorTo, LEVEL_MINUTES, levelRows, MINUTE_MS, minuteRows } from '../../../../server/intelligence/track/minuteDeriver';
import { positionAt } from '../positionAt';
import { livePassArb, livePasses } from '../livePasses';

const vehicle: VehicleContext = {
  vehicleId: 9,
  orgId: 1,
  orgPath: '/1/',
  licence: '沪A00009',
  tankCapacityL: null,
  fuelTypeId: null,
  settings: { stopMinutes: 5, region: null },
  timeZone: 'Asia/Shanghai',
};

const reportArb = fc.record({
  gapS: fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 0, max: 20 }) },
    { weight: 2, arbitrary: fc.integer({ min: 21, max: 400 }) },
    { weight: 1, arbitrary: fc.integer({ min: 401, max: 2_000 }) },
  ),
  speed: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 5, max: 120 })),
  moveM: fc.oneof(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 21, max: 800 })),
  odometer: fc.oneof(fc.constant(null), fc.constant('up' as const), fc.constant('back' as const)),
});

describe('the replay levels carried from pass to pass', () => {
  it('give the rows a fresh tally of the rebuilt buckets gives', () => {
    let eligible = 0;
    let resumed = 0;
    fc.assert(
      fc.property(
        fc.array(reportArb, { minLength: 30, maxLength: 200 }),
        fc.array(livePassArb(25), { minLength: 2, maxLength: 15 }),
        (reports, passes) => {
          let t = 0;
          let north = 0;
          let km = 500;
          const all: DerivePosition[] = reports.map((r) => {
            t += r.gapS / 60;
            north += r.moveM;
            if (r.odometer === 'up') km += r.moveM / 1000;
            if (r.odometer === 'back') km -= 1;
            return positionAt(t, {
              speed: r.speed,
              acc: r.speed > 0,
              latitude: 31.2 + north / 111_000,
              mileageKm: r.odometer === null ? null : km,
            });
          });
          const carries = new BucketCarries();
          for (const pass of livePasses(all, passes, (p) => ({ ...p, speed: p.speed + 7 }))) {
            const { positions, dirtyFrom, marked, continues } = pass;
            const w: DeriveWindow = {
              vehicle,
              from: all[0].time,
              to: Infinity,
              positions,
              obdRecords: [],
              before: null,
              after: null,
              dirty: { from: dirtyFrom, to: Infinity },
              marked,
              continues,
            };
            for (const m of LEVEL_MINUTES) {
              const from = floorTo(dirtyFrom, m * MINUTE_MS);
              const inside = positions.filter((p) => p.time >= from);
              if (pass.eligible) eligible++;
              if (carries.usable(w, m, from)) resumed++;
              expect(levelRows(w, m, from, inside, carries)).toEqual(minuteRows(vehicle.vehicleId, inside, m));
            }
          }
        },
      ),
      { numRuns: 300 },
    );
    // Most passes that could go on did: the rest begin a new bucket, or the last walk stopped at no report of it.
    expect(eligible).toBeGreaterThan(900);
    expect(resumed).toBeGreaterThan(eligible * 0.5);
  });
});
