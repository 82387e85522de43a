import type { DerivePosition } from '../../../server/intelligence/deriver';
import { parseDeriveArgs } from '../../../server/intelligence/deriveCli';
import { dayStart, localDay } from '../../../server/intelligence/localDay';
import { MAX_KMH, type TripSegment } from '../../../server/intelligence/trips/segment';
import { TripWalk, type TripsFound } from '../../../server/intelligence/trips/tripWalk';
import { steps, type Steps } from './trips/plainTrips';
import { positionAt, T0 } from './positionAt';

const p = positionAt;
/** 0.001° of latitude is ~111 m. */
const north = (m: number) => 31.2 + m * 0.001;
/** What one walk over the positions finds. */
function walked(
  ps: DerivePosition[],
  stopMinutes = 5,
  before: DerivePosition | null = null,
  tankCapacityL: number | null = null,
): TripsFound {
  const walk = TripWalk.start(ps, before, stopMinutes, tankCapacityL);
  walk.walkTo(ps.length);
  return walk.result(null, []);
}
const kinds = (ps: DerivePosition[], stopMinutes = 5) =>
  walked(ps, stopMinutes).segments.map((s) => [s.kind, (s.begin - T0) / 60_000, (s.end - T0) / 60_000]);

describe('trip segmentation', () => {
  it('keeps GNSS jitter while parked a stop, and a red light inside the trip', () => {
    const parked = [0, 1, 2, 3, 4, 5, 6].map((m, i) => p(m, { latitude: 31.2 + (i % 2) * 0.0004 }));
    expect(kinds(parked)).toEqual([['stop', 0, 6]]);
    const drive = [
      p(0),
      p(1, { acc: true, speed: 40, latitude: north(1) }),
      p(2, { acc: true, speed: 0, latitude: north(2) }),
      p(3, { acc: true, speed: 0, latitude: north(2) }),
      p(4, { acc: true, speed: 40, latitude: north(3) }),
      p(5, { acc: true, speed: 40, latitude: north(4) }),
    ];
    expect(kinds(drive)).toEqual([
      ['stop', 0, 1],
      ['trip', 1, 5],
    ]);
  });

  it('ends a trip only after the organisation’s stop minutes, at the first standing report', () => {
    const ps = [
      p(0, { acc: true, speed: 30 }),
      p(1, { acc: true, speed: 30, latitude: north(1) }),
      p(2, { latitude: north(1) }),
      p(6, { latitude: north(1) }),
      p(7, { latitude: north(1) }),
    ];
    expect(kinds(ps, 5)).toEqual([
      ['trip', 0, 2],
      ['stop', 2, 7],
    ]);
    expect(kinds(ps, 10)).toEqual([['trip', 0, 7]]);
  });

  it('ends a trip at a standing report followed by silence of the stop minutes, even when the next report moves', () => {
    // Parked with the ignition off for a minute, then nothing until the next morning, when it drives off elsewhere.
    const day = 24 * 60;
    const ps = [
      p(0, { acc: true, speed: 30 }),
      p(1, { acc: true, speed: 30, latitude: north(1) }),
      p(2, { latitude: north(1) }),
      p(3, { latitude: north(1) }),
      p(day, { acc: true, speed: 30, latitude: north(5) }),
      p(day + 1, { acc: true, speed: 30, latitude: north(6) }),
    ];
    expect(kinds(ps)).toEqual([
      ['trip', 0, 2],
      ['stop', 2, day],
      ['trip', day, day + 1],
    ]);
    // Silent for less than the stop minutes: a stop at a light, inside the trip.
    const brief = [...ps.slice(0, 4), p(6, { acc: true, speed: 30, latitude: north(5) })];
    expect(kinds(brief)).toEqual([['trip', 0, 6]]);
    // Driving when last seen (a tunnel): the trip goes on.
    const tunnel = [
      p(0, { acc: true, speed: 30 }),
      p(1, { acc: true, speed: 30, latitude: north(1) }),
      p(20, { acc: true, speed: 30, latitude: north(9) }),
    ];
    expect(kinds(tunnel)).toEqual([['trip', 0, 20]]);
  });

  it('takes towing (moving with the ACC off) as a trip and a GNSS jump as nothing', () => {
    const towed = [p(0), p(1, { speed: 20, latitude: north(2) }), p(2, { speed: 20, latitude: north(4) })];
    expect(kinds(towed)[1]).toEqual(['trip', 1, 2]);
    const jump = [p(0), p(1), p(1.5, { latitude: 32.5 }), p(2), p(8)];
    expect(kinds(jump)).toEqual([['stop', 0, 8]]);
    // Driving through a jump: it adds no distance (the reports 1 min apart are ~111 m apart).
    const through = [
      p(0, { acc: true, speed: 40 }),
      p(1, { acc: true, speed: 40, latitude: north(1) }),
      p(1.5, { acc: true, speed: 40, latitude: 32.5 }),
      p(2, { acc: true, speed: 40, latitude: north(2) }),
    ];
    expect(walked(through).trips.map((t) => t.metrics.distanceKm)).toEqual([expect.closeTo(0.222, 2)]);
  });
});

/** A trip's odometer distance as a plain reading of its points: the start (none after a relocation) and the good positions, copied out. */
function plainOdometerKm(ps: DerivePosition[], { jumps, fresh }: Steps, trip: TripSegment, before: DerivePosition | null): number | null {
  let from = trip.first - 1;
  while (from >= 0 && jumps[from]) from--;
  const start = fresh[trip.first] ? [] : from >= 0 ? [ps[from]] : before ? [before] : [];
  const points = [...start, ...ps.slice(trip.first, trip.last + 1).filter((_, k) => !jumps[trip.first + k])];
  const withOdo = points.filter((x) => x.mileageKm !== null);
  if (withOdo.length < 2) return null;
  for (let i = 1; i < withOdo.length; i++) if (withOdo[i].mileageKm! < withOdo[i - 1].mileageKm!) return null;
  const km = withOdo[withOdo.length - 1].mileageKm! - withOdo[0].mileageKm!;
  const h = (withOdo[withOdo.length - 1].time - withOdo[0].time) / 3_600_000;
  return km < 0 || km > MAX_KMH * h + 0.5 ? null : km;
}

describe('a trip’s distance', () => {
  it('reads the odometer as a plain reading of the trip’s points does: gaps, jumps, a reading that runs back', () => {
    let seed = 11;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    let odometer = 0;
    let gnss = 0;
    for (let w = 0; w < 300; w++) {
      let km = 1000;
      const ps = Array.from({ length: 5 + Math.floor(rnd() * 60) }, (_, i) => {
        km += rnd() < 0.03 ? -2 : 0.3 * rnd();
        return p(i * 0.5, {
          acc: true,
          speed: i % 25 < 18 ? 40 : 0,
          latitude: rnd() < 0.03 ? 32.5 : north(i * 0.15),
          mileageKm: rnd() < 0.7 ? Math.round(km * 10) / 10 : null,
        });
      });
      const before = rnd() < 0.5 ? p(-0.5, { mileageKm: rnd() < 0.5 ? 999 : null }) : null;
      const at = steps(ps, before);
      for (const { segment: trip, metrics: got } of walked(ps, 3, before).trips) {
        const want = plainOdometerKm(ps, at, trip, before);
        expect([got.distanceSource, got.distanceSource === 'odometer' ? got.distanceKm : null]).toEqual(
          want === null ? ['gnss', null] : ['odometer', Math.round(want * 1000) / 1000],
        );
        if (want === null) gnss++;
        else odometer++;
      }
    }
    // Both kinds were met (the walk is not vacuous).
    expect(odometer).toBeGreaterThan(50);
    expect(gnss).toBeGreaterThan(50);
  });
});

describe('fuel events', () => {
  const standing = (levels: number[], acc = false) => levels.map((fuelL, i) => p(i * 5, { fuelL, acc }));
  it('finds a refuel and a drain beyond the threshold, and not sloshing or idling', () => {
    const events = (ps: DerivePosition[]) => walked(ps, 5, null, 400).fuelEvents;
    const refuel = standing([100, 99, 101, 100, 140, 160, 161, 159, 160]);
    expect(events(refuel)).toMatchObject([{ kind: 'refuel', amountL: 60, levelBeforeL: 100, levelAfterL: 160, time: T0 + 20 * 60_000 }]);
    const slosh = standing([100, 104, 97, 103, 98, 102, 99]);
    expect(events(slosh)).toEqual([]);
    const drain = standing([200, 200, 199, 170, 170, 170, 169]);
    expect(events(drain)).toMatchObject([{ kind: 'drain', amountL: 30, detectedAt: T0 + 20 * 60_000 }]);
    expect(events(refuel)[0].detectedAt).toBeNull();
    // Five hours idling burns ~15 L: a 21 L fall with the ACC on is within 20 L + 15 L.
    const idling = Array.from({ length: 61 }, (_, i) => p(i * 5, { fuelL: 100 - i * 0.35, acc: true }));
    expect(events(idling)).toEqual([]);
  });

  it('keeps when a drain first read as one while the level goes on falling, though its half-way time moves', () => {
    const events = (ps: DerivePosition[]) => walked(ps, 5, null, 400).fuelEvents;
    // Siphoned 10 L every 5 minutes: 30 L down (the 400 L tank’s 20 L threshold reached) at the sixth report.
    const siphon = standing([200, 200, 200, 190, 180, 170, 160, 150, 140, 130]);
    const early = events(siphon.slice(0, 7));
    const late = events(siphon);
    expect(early).toMatchObject([{ kind: 'drain', amountL: 30, detectedAt: T0 + 25 * 60_000 }]);
    expect(late).toMatchObject([{ kind: 'drain', amountL: 60, detectedAt: T0 + 25 * 60_000 }]);
    expect(late[0].time).toBeGreaterThan(early[0].time);
  });
});

describe('local days and the derive command line', () => {
  it('maps instants to local days and back in the fleet’s zone', () => {
    expect(localDay(Date.parse('2026-11-19T16:00:00Z'), 'Asia/Shanghai')).toBe('2026-11-20');
    expect(localDay(Date.parse('2026-11-19T15:59:59Z'), 'Asia/Shanghai')).toBe('2026-11-19');
    expect(new Date(dayStart('2026-11-20', 'Asia/Shanghai')).toISOString()).toBe('2026-11-19T16:00:00.000Z');
    // A DST day in New York is 23 hours long.
    expect(dayStart('2026-03-09', 'America/New_York') - dayStart('2026-03-08', 'America/New_York')).toBe(23 * 3_600_000);
  });

  it('parses `npm run derive` arguments and refuses bad ones', () => {
    expect(parseDeriveArgs(['--vehicle', '7', '--from', '2026-11-20', '--to', '2026-11-20'], 'Asia/Shanghai')).toEqual({
      vehicle: 7,
      from: Date.parse('2026-11-19T16:00:00Z'),
      to: Date.parse('2026-11-20T16:00:00Z'),
    });
    expect(parseDeriveArgs(['--vehicle', 'all', '--from', '2026-11-20T01:00:00Z', '--to', '2026-11-20T02:00:00Z'], 'UTC')).toMatchObject({
      vehicle: 'all',
    });
    expect(parseDeriveArgs(['--vehicle', 'x', '--from', '2026-11-20', '--to', '2026-11-21'], 'UTC')).toBe('bad --vehicle: x');
    expect(parseDeriveArgs(['--vehicle', '1', '--from', 'soon', '--to', '2026-11-21'], 'UTC')).toBe('bad or missing --from: soon');
    expect(parseDeriveArgs(['--vehicle', '1', '--from', '2026-11-22', '--to', '2026-11-21'], 'UTC')).toBe('--to must be after --from');
    expect(parseDeriveArgs(['--vehicle', '1', '--since', '2026-11-22'], 'UTC')).toBe('unknown option --since');
    expect(parseDeriveArgs(['--vehicle'], 'UTC')).toBe('unexpected argument: --vehicle');
  });
});
