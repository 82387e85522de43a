/**
 * The trips walk against the plain rules (plainTrips.ts), on random windows: walked at once, and
 * as live passes see a window grow, going on from the last pass's walk (tripCarry.ts) wherever the
 * carry's rules allow it, and from the first position where they do not.
 */

import fc from 'fast-check';
import type { DeriveObdRecord, DerivePosition, DeriveWindow, VehicleContext } from '../../../../server/intelligence/deriver';
import { TripCarries } from '../../../../server/intelligence/trips/tripCarry';
import { deriveTrips, tripRows } from '../../../../server/intelligence/trips/tripDeriver';
import { TripWalk } from '../../../../server/intelligence/trips/tripWalk';
import { positionAt, T0 } from '../positionAt';
import { plainTrips } from './plainTrips';
import { livePassArb, livePasses } from '../livePasses';

const vehicle = (stopMinutes: number, tankCapacityL: number | null): VehicleContext => ({
  vehicleId: 7,
  orgId: 1,
  orgPath: '/1/',
  licence: '沪A00007',
  tankCapacityL,
  fuelTypeId: null,
  settings: { stopMinutes, region: null },
  timeZone: 'Asia/Shanghai',
});

/** One report's change from the last: a gap, motion, the odometer and fuel readings. */
const stepArb = fc.record({
  gapS: fc.oneof(
    { weight: 8, arbitrary: fc.integer({ min: 0, max: 90 }) },
    { weight: 2, arbitrary: fc.integer({ min: 91, max: 1_500 }) },
    { weight: 1, arbitrary: fc.integer({ min: 1_501, max: 20_000 }) },
  ),
  acc: fc.boolean(),
  speed: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 5, max: 110 })),
  /** Metres moved north (jitter, driving, or a GNSS jump of ~100 km). */
  moveM: fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 0, max: 40 }) },
    { weight: 4, arbitrary: fc.integer({ min: 41, max: 1_500 }) },
    { weight: 1, arbitrary: fc.constant(100_000) },
  ),
  /** Metres off the track to the east for this one report (a multipath outlier close enough to pass as a step). */
  sideM: fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: -600, max: 600 }) }),
  odometer: fc.oneof(fc.constant(null), fc.constant('up' as const), fc.constant('back' as const)),
  fuel: fc.oneof(
    { weight: 3, arbitrary: fc.constant(null) },
    { weight: 3, arbitrary: fc.constant('same' as const) },
    { weight: 1, arbitrary: fc.integer({ min: -40, max: 60 }) },
  ),
});

interface Drive {
  positions: DerivePosition[];
  obdRecords: DeriveObdRecord[];
  before: DerivePosition | null;
  stopMinutes: number;
  tankCapacityL: number | null;
}

const driveOf = (minLength: number): fc.Arbitrary<Drive> =>
  fc
    .record({
      steps: fc.array(stepArb, { minLength, maxLength: 160 }),
      withBefore: fc.boolean(),
      stopMinutes: fc.integer({ min: 1, max: 10 }),
      tank: fc.oneof(fc.constant(null), fc.constant(400)),
      obd: fc.boolean(),
    })
    .map(({ steps, withBefore, stopMinutes, tank, obd }) => {
      let t = 0;
      let north = 0;
      let km = 1000;
      let fuel = 200;
      const all = steps.map((s) => {
        t += s.gapS / 60;
        // A jump is a single report off the track; the next is back on it.
        const jump = s.moveM === 100_000;
        if (!jump) north += s.moveM;
        if (s.odometer === 'up') km += s.moveM / 1000;
        if (s.odometer === 'back') km -= 1;
        if (typeof s.fuel === 'number') fuel = Math.max(0, fuel + s.fuel);
        return positionAt(t, {
          acc: s.acc,
          speed: s.speed,
          latitude: 31.2 + (jump ? 1 : north / 111_000),
          longitude: 121.4 + s.sideM / 95_000,
          mileageKm: s.odometer === null ? null : Math.round(km * 10) / 10,
          fuelL: s.fuel === null || obd ? null : fuel,
        });
      });
      const obdRecords: DeriveObdRecord[] = obd
        ? all
            .filter((_, i) => i % 3 === 0)
            .map((p, i) => ({
              time: p.time,
              subtype: 1,
              latitude: null,
              longitude: null,
              readings: { fuelLevel: (i * 7) % 101 },
              detail: null,
              dtcCount: 0,
            }))
        : [];
      const before = withBefore && all.length > 1 ? all[0] : null;
      return { positions: before ? all.slice(1) : all, obdRecords, before, stopMinutes, tankCapacityL: tank };
    });

const driveArb = driveOf(1);

const windowOf = (d: Drive, positions: DerivePosition[], extra: Partial<DeriveWindow> = {}): DeriveWindow => ({
  vehicle: vehicle(d.stopMinutes, d.tankCapacityL),
  from: positions.length ? positions[0].time : T0,
  to: Infinity,
  positions,
  obdRecords: d.obdRecords.filter((r) => r.time <= (positions.at(-1)?.time ?? -Infinity)),
  before: d.before,
  after: null,
  ...extra,
});

describe('the trips walk', () => {
  it('finds what the plain rules find, walked at once', () => {
    fc.assert(
      fc.property(driveArb, (d) => {
        const w = windowOf(d, d.positions);
        expect(deriveTrips(w)).toEqual(tripRows(w, plainTrips(w)));
      }),
      { numRuns: 400 },
    );
  });

  it('finds the same when stopped anywhere and gone on from there, twice over', () => {
    fc.assert(
      fc.property(driveArb, fc.nat(), fc.nat(), (d, a, b) => {
        const n = d.positions.length;
        const [x, y] = [a % (n + 1), b % (n + 1)].sort((p, q) => p - q);
        const first = TripWalk.start(d.positions, d.before, d.stopMinutes, d.tankCapacityL);
        first.walkTo(x);
        const at = first.point();
        // The first walk goes on past its point (as a pass walks past its marks), then is resumed from it.
        first.walkTo(n);
        first.result(null, d.obdRecords);
        const second = TripWalk.resume(first, at, d.positions);
        second.walkTo(y);
        const w = windowOf(d, d.positions, { obdRecords: d.obdRecords });
        expect(second.result(null, d.obdRecords)).toEqual(plainTrips({ ...w, positions: d.positions.slice(0, y) }));
        second.walkTo(n);
        expect(second.result(null, d.obdRecords)).toEqual(plainTrips(w));
      }),
      { numRuns: 400 },
    );
  });

  it('goes on from the last pass only where the window continues it, and then equals a fresh walk', () => {
    const resume = jest.spyOn(TripWalk, 'resume');
    let eligible = 0;
    let edited = 0;
    fc.assert(
      fc.property(driveOf(40), fc.array(livePassArb(15), { minLength: 2, maxLength: 12 }), (d, passes) => {
        const carries = new TripCarries();
        for (const pass of livePasses(d.positions, passes, (p) => ({ ...p, acc: !p.acc, speed: p.speed ? 0 : 30 }))) {
          const w = windowOf(d, pass.positions, {
            dirty: { from: pass.dirtyFrom, to: Infinity },
            marked: pass.marked,
            continues: pass.continues,
          });
          expect(carries.walk(w)).toEqual(plainTrips(w));
          if (pass.eligible) eligible++;
          if (pass.edited) edited++;
        }
      }),
      { numRuns: 300 },
    );
    // Most passes that could go on from the last did (the rest: the last walk stopped at no report).
    expect(eligible).toBeGreaterThan(800);
    expect(edited).toBeGreaterThan(150);
    expect(resume.mock.calls.length).toBeGreaterThan(eligible * 0.9);
    expect(resume.mock.calls.length).toBeLessThanOrEqual(eligible);
    resume.mockRestore();
  });
});
