/**
 * A terminal that reports again from ~180 km away (a terminal moved, the demo's history ending in
 * one place and its live run starting in another): the jump is never distance and never a trip,
 * the stop after it is where the vehicle now is, a drive after it counts in the day's trips and
 * ledger at once, and the replay's summary is the trips' sum. Through the real gateway over TCP,
 * whatever order the reports arrive in.
 */

import { playLegs, type ScriptState } from '../../../../server/simulator/dayScript';
import type { LocationInput } from '../../../../server/telematics/jt808/codec';
import { ADMIN_PASSWORD, BACKENDS } from '../../../helpers/testServer';
import { at, DAY, START } from '../days';
import { demoTerminal, derivedRowsOf, startDeriveHarness, type DeriveHarness } from '../harness';

const ms = (d: Date | string) => new Date(d).getTime();
const iso = (t: number) => new Date(t).toISOString();
/** ~180 km north. */
const JUMP_DEG = 1.62;
const jumped = (state: ScriptState, odometerKm = 0): void => {
  state.latitude += JUMP_DEG;
  state.odometerKm += odometerKm;
};

/** Parked from midnight to 10:00, then parked again 180 km away for the rest of the day (a report every 5 minutes). */
function parkedJumpDay(): LocationInput[] {
  const state = { ...START };
  const morning = playLegs(state, [{ kind: 'park', minutes: 600 }]);
  jumped(state);
  return [...morning, ...playLegs(state, [{ kind: 'park', minutes: 840 }])];
}

/**
 * Parked until 07:30, a drive of 30 minutes at 36 km/h (a report every 30 s), then, 30 s after its
 * last report, the next comes from 180 km away with another odometer (5,000 km lower), as the demo's
 * live run did: an hour's drive at 36 km/h from there, parked for the rest of the day.
 */
function movingJumpDay(): LocationInput[] {
  const state = { ...START };
  const before = playLegs(state, [
    { kind: 'park', minutes: 450 },
    { kind: 'drive', minutes: 30, kmh: 36, heading: 90 },
  ]);
  jumped(state, -5000);
  return [
    ...before,
    ...playLegs(state, [
      { kind: 'drive', minutes: 60, kmh: 36, heading: 0 },
      { kind: 'park', minutes: 900 },
    ]),
  ];
}

describe.each(BACKENDS)('a jump of 180 km between two reports on %s', (backend) => {
  let h: DeriveHarness;
  let admin: string;
  beforeAll(async () => {
    h = await startDeriveHarness(backend);
    admin = await h.s.login('admin', ADMIN_PASSWORD);
  });
  afterAll(() => h.close());

  const replaySummary = async (vehicleId: number, maxPoints?: number) => {
    const r = await h.s.call(admin, 'POST', '/api/vehicle/track/replay', {
      vehicleId,
      begin: iso(at('00:00')),
      end: iso(at('23:59')),
      ...(maxPoints ? { maxPoints } : {}),
    });
    expect(r.status).toBe(200);
    return r.body.summary as { distanceKm: number; maxSpeed: number };
  };

  /** A terminal sends its day's reports in turn (`first` live, then `late` as a blind-area upload), each derived: the vehicle and its rows. */
  const deliver = async (phone: string, first: LocationInput[], late: LocationInput[] = []) => {
    const t = await h.terminal(phone);
    await h.send(t, first, 'batch');
    await h.derived();
    if (late.length) {
      await h.send(t, late, 'blind');
      await h.derived();
    }
    const vehicleId = await h.vehicleOf(phone);
    return { vehicleId, rows: await derivedRowsOf(h, vehicleId) };
  };

  it('between two parked stretches gives no trip and no distance, and a stop where the vehicle now is', async () => {
    const { vehicleId, rows } = await deliver(demoTerminal(1), parkedJumpDay());
    expect(rows.trips).toEqual([]);
    expect(rows.stops.map((s) => ({ begin: ms(s.begin_time), end: ms(s.end_time), open: s.open }))).toEqual([
      { begin: at('00:00'), end: at('09:55'), open: false },
      { begin: at('10:00'), end: at('23:55'), open: true },
    ]);
    expect(rows.stops[0].latitude).toBeCloseTo(START.latitude, 4);
    expect(rows.stops[1].latitude).toBeCloseTo(START.latitude + JUMP_DEG, 4);
    expect(rows.ledger).toEqual([expect.objectContaining({ day: DAY, mileage_km: 0, trip_count: 0 })]);
    expect((await replaySummary(vehicleId)).distanceKm).toBe(0);
  });

  it('before an hour of driving counts the drive in the day’s trips, ledger and replay, and the jump in none', async () => {
    const { vehicleId, rows } = await deliver(demoTerminal(2), movingJumpDay());
    // The drive before the jump ends at its last report; the one after begins at the first report after the jump.
    expect(
      rows.trips.map((t) => ({
        begin: ms(t.begin_time),
        end: ms(t.end_time),
        km: Math.round(t.distance_km * 10) / 10,
        source: t.distance_source,
        open: t.open,
      })),
    ).toEqual([
      { begin: at('07:30'), end: at('07:59') + 30_000, km: 17.7, source: 'odometer', open: false },
      { begin: at('08:00'), end: at('09:00'), km: 36, source: 'odometer', open: false },
    ]);
    for (const t of rows.trips) expect(t.avg_speed).toBeLessThanOrEqual(t.max_speed + 0.5);
    expect(rows.trips[1].start_latitude).toBeCloseTo(START.latitude + JUMP_DEG, 4);
    const [day] = rows.ledger;
    expect(day).toMatchObject({ day: DAY, trip_count: 2, max_speed: 36 });
    expect(day.mileage_km).toBeCloseTo(17.7 + 36, 1);
    // The replay's summary, raw and through the minute levels, is the trips' sum: to 0.1 km, as the
    // odometers reset between them, so it reads the GNSS track, and the trips each their odometer.
    const sum = rows.trips.reduce((s, t) => s + t.distance_km, 0);
    for (const summary of [await replaySummary(vehicleId), await replaySummary(vehicleId, 40)])
      expect(Math.abs(summary.distanceKm - sum)).toBeLessThan(0.1);
  });

  it('gives the same rows whatever order the reports arrive in: the drive after the jump first, the day before it late', async () => {
    const reports = movingJumpDay();
    const jump = reports.findIndex((r) => Number(r.time) >= at('08:00'));
    const { rows } = await deliver(demoTerminal(3), reports.slice(jump), reports.slice(0, jump));
    expect(rows).toEqual(await derivedRowsOf(h, await h.vehicleOf(demoTerminal(2))));
  });

  it('gives the same rows when the reports around the jump come late, and the morning and evening first', async () => {
    const reports = movingJumpDay();
    const lo = reports.findIndex((r) => Number(r.time) >= at('07:45'));
    const hi = reports.findIndex((r) => Number(r.time) >= at('08:30'));
    const { rows } = await deliver(demoTerminal(5), [...reports.slice(0, lo), ...reports.slice(hi)], reports.slice(lo, hi));
    expect(rows).toEqual(await derivedRowsOf(h, await h.vehicleOf(demoTerminal(2))));
  });
});
