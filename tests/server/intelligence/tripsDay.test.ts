import { sql } from 'kysely';
import { BACKENDS } from '../../helpers/testServer';
import { at, DAY, EXPECTED, scriptedDay } from './days';
import { demoTerminal, derivedRowsOf, startDeriveHarness, type DeriveHarness } from './harness';

const ms = (d: Date | string) => new Date(d).getTime();

describe.each(BACKENDS)('trips, stops, fuel events and the ledger of a scripted day on %s', (backend) => {
  let h: DeriveHarness;
  beforeAll(async () => {
    h = await startDeriveHarness(backend);
  });
  afterAll(() => h.close());

  const rowsOf = (vehicleId: number) => derivedRowsOf(h, vehicleId);

  it('finds the trips, stops, idle, refuel, drain and the day’s ledger the script drove', async () => {
    const phone = demoTerminal(1);
    const t = await h.terminal(phone);
    await h.send(t, scriptedDay(), 'single');
    await h.derived();
    const rows = await rowsOf(await h.vehicleOf(phone));

    expect(
      rows.trips.map((r) => ({
        begin: ms(r.begin_time),
        end: ms(r.end_time),
        distanceKm: Math.round(r.distance_km * 10) / 10,
        idleS: r.idle_s,
      })),
    ).toEqual(EXPECTED.trips);
    expect(rows.trips.every((r) => r.distance_source === 'odometer' && r.max_speed === 36 && !r.open)).toBe(true);
    expect(rows.trips.map((r) => r.fuel_l)).toEqual([
      expect.closeTo(3.6 + 0.1, 0),
      expect.closeTo(2.4, 0),
      expect.closeTo(1.8, 0),
      expect.closeTo(1.8, 0),
    ]);
    expect(rows.stops.slice(0, 4).map((r) => ({ begin: ms(r.begin_time), end: ms(r.end_time) }))).toEqual(EXPECTED.stops);
    expect(rows.stops[4]).toMatchObject({ open: true });
    expect(ms(rows.stops[4].begin_time)).toBe(at('14:30'));
    expect(rows.fuel.map((e) => ({ kind: e.kind, amount: e.amount_l }))).toEqual([
      { kind: 'refuel', amount: 40 },
      { kind: 'drain', amount: 30 },
    ]);
    expect(ms(rows.fuel[0].time)).toBeGreaterThan(at('09:03'));
    expect(ms(rows.fuel[0].time)).toBeLessThan(at('10:03'));

    expect(rows.ledger).toHaveLength(1);
    const day = rows.ledger[0];
    expect(day).toMatchObject({ day: DAY, trip_count: 4, refuel_l: 40, drain_l: 30, idle_s: 180, max_speed: 36 });
    expect(day.mileage_km).toBeCloseTo(96, 1);
    // 0号柴油 of the demo fleet at 7.19 per litre (no oil price seeded).
    expect(day.cost).toBeCloseTo(day.fuel_l * 7.19, 1);
    expect(day.driving_s).toBe((63 + 40 + 30 + 30) * 60 - 180);
  });

  it('gives identical rows when the afternoon arrives first and the morning comes late as a blind-area upload', async () => {
    const inOrder = demoTerminal(2);
    const shuffled = demoTerminal(3);
    const reports = scriptedDay();
    const noon = reports.findIndex((r) => Number(r.time) >= at('12:00'));
    const a = await h.terminal(inOrder);
    await h.send(a, reports, 'batch');
    const b = await h.terminal(shuffled);
    await h.send(b, reports.slice(noon), 'single');
    await h.derived();
    await h.send(b, reports.slice(0, noon), 'blind');
    await h.derived();
    const expected = await rowsOf(await h.vehicleOf(inOrder));
    expect(expected.trips).toHaveLength(4);
    expect(await rowsOf(await h.vehicleOf(shuffled))).toEqual(expected);
  });

  it('derives after a restart what was stored while no pipeline ran', async () => {
    await h.crashDerivation();
    // Like terminals 1-3 (not 4: its vehicle runs on electricity, a different price).
    const phone = demoTerminal(5);
    const t = await h.terminal(phone);
    await h.send(t, scriptedDay(), 'batch');
    const vehicleId = await h.vehicleOf(phone);
    expect((await rowsOf(vehicleId)).trips).toEqual([]);
    await h.restartDerivation();
    await h.derived();
    expect(await rowsOf(vehicleId)).toEqual(await rowsOf(await h.vehicleOf(demoTerminal(2))));
  });

  it('changes nothing when a window is derived again', async () => {
    const vehicleId = await h.vehicleOf(demoTerminal(1));
    const before = await rowsOf(vehicleId);
    await h.derivation.pipeline.rebuild(vehicleId, { from: at('00:00'), to: at('23:59') });
    await h.derivation.pipeline.rebuild(vehicleId, { from: at('10:30'), to: at('10:31') });
    expect(await rowsOf(vehicleId)).toEqual(before);
    const state = await sql<{
      marks: number;
      watermark: Date;
    }>`SELECT (SELECT count(*)::int FROM derive_mark m WHERE m.vehicle_id = d.vehicle_id) AS marks, watermark FROM derive_state d WHERE vehicle_id = ${vehicleId}`.execute(
      h.s.database.db,
    );
    expect(state.rows[0].marks).toBe(0);
    expect(ms(state.rows[0].watermark)).toBe(at('23:55'));
  });
});
