import { sql } from 'kysely';
import { alarmDeriver } from '../../../server/intelligence/alarms/deriver';
import type { Deriver } from '../../../server/intelligence/deriver';
import { behaviourDeriver } from '../../../server/intelligence/behaviour/deriver';
import type { LocationInput } from '../../../server/telematics/jt808/codec';
import { BACKENDS } from '../../helpers/testServer';
import { at, EXPECTED, scriptedDay } from './days';
import { demoTerminal, derivedRowsOf, startDeriveHarness, type DeriveHarness } from './harness';

const ms = (d: Date | string) => new Date(d).getTime();

/**
 * A live vehicle is derived in many small passes, each reading from the database only what was
 * stored since the last (the pipeline holds the window between passes). The rows must be exactly
 * those a single rebuild over the whole history gives: with a restart in the middle (nothing held),
 * and with a late upload landing inside a held window.
 */
describe.each(BACKENDS)('a day derived in many small passes on %s', (backend) => {
  let h: DeriveHarness;
  beforeAll(async () => {
    h = await startDeriveHarness(backend, { extraDerivers: () => [alarmDeriver(), behaviourDeriver()] });
  });
  afterAll(() => h.close());

  /** Everything derived of a vehicle, to compare derivations. */
  const allRowsOf = async (vehicleId: number) => {
    const db = h.s.database.db;
    const behaviour = await db.selectFrom('behaviour_day').selectAll().where('vehicle_id', '=', vehicleId).orderBy('day').execute();
    const health = await db.selectFrom('health_day').selectAll().where('vehicle_id', '=', vehicleId).orderBy('day').execute();
    const alarms = await sql<{ type: string; subject: string; begin_time: Date; end_time: Date | null }>`
      SELECT type, subject, begin_time, end_time FROM alarm WHERE vehicle_id = ${vehicleId} ORDER BY begin_time, type, subject`.execute(db);
    return { ...(await derivedRowsOf(h, vehicleId)), behaviour, health, alarms: alarms.rows };
  };

  /** Sends reports live in chunks, waiting for each chunk's pass; answers the terminal. */
  const inPasses = async (phone: string, reports: LocationInput[], chunk: number, between?: (i: number) => Promise<void>) => {
    const t = await h.terminal(phone);
    for (let i = 0; i < reports.length; i += chunk) {
      await h.send(t, reports.slice(i, i + chunk), 'single');
      await h.derived();
      await between?.(i);
    }
    return t;
  };

  it('gives the rows of one full rebuild, across a restart of the pipeline', async () => {
    const phone = demoTerminal(6);
    const reports = scriptedDay();
    const half = Math.floor(reports.length / 2 / 12) * 12;
    await inPasses(phone, reports, 12, async (i) => {
      if (i !== half) return;
      await h.crashDerivation();
      await h.restartDerivation();
    });
    const pipeline = h.derivation.pipeline;
    // After the restart the first pass read its window from midnight (the behaviour deriver
    // rebuilds whole days) and the next only what was new: about the day once, where reading
    // every window whole reads the morning again on each of some twenty-five passes.
    expect(pipeline.stats.positionsRead).toBeLessThanOrEqual(2 * reports.length);
    expect(pipeline.stats.failures).toBe(0);
    const vehicleId = await h.vehicleOf(phone);
    const passes = await allRowsOf(vehicleId);
    expect(
      passes.trips.map((r) => ({
        begin: ms(r.begin_time),
        end: ms(r.end_time),
        distanceKm: Math.round(r.distance_km * 10) / 10,
        idleS: r.idle_s,
      })),
    ).toEqual(EXPECTED.trips);
    expect(passes.fuel.map((e) => e.kind)).toEqual(['refuel', 'drain']);
    expect(passes.behaviour).toHaveLength(1);
    await pipeline.rebuild(vehicleId, { from: -Infinity, to: Infinity });
    expect(await allRowsOf(vehicleId)).toEqual(passes);
  });

  it('gives the rows of one full rebuild when a late upload lands inside a held window', async () => {
    const phone = demoTerminal(7);
    const reports = scriptedDay();
    // The afternoon live (the window held from the 14:00 trip on), then the morning and 14:10–14:20 late.
    const late = (r: LocationInput) => Number(r.time) < at('12:00') || (Number(r.time) >= at('14:10') && Number(r.time) < at('14:20'));
    const t = await inPasses(
      phone,
      reports.filter((r) => !late(r)),
      10,
    );
    await h.send(t, reports.filter(late), 'blind');
    await h.derived();
    const vehicleId = await h.vehicleOf(phone);
    const passes = await allRowsOf(vehicleId);
    expect(passes.trips).toHaveLength(4);
    await h.derivation.pipeline.rebuild(vehicleId, { from: -Infinity, to: Infinity });
    expect(await allRowsOf(vehicleId)).toEqual(passes);
    // And the day's known answers, as when it is driven in order.
    expect(
      passes.trips.map((r) => ({
        begin: ms(r.begin_time),
        end: ms(r.end_time),
        distanceKm: Math.round(r.distance_km * 10) / 10,
        idleS: r.idle_s,
      })),
    ).toEqual(EXPECTED.trips);
    expect(passes.stops.slice(0, 4).map((r) => ({ begin: ms(r.begin_time), end: ms(r.end_time) }))).toEqual(EXPECTED.stops);
    expect(passes.fuel.map((e) => e.kind)).toEqual(['refuel', 'drain']);
    expect(h.derivation.pipeline.stats.failures).toBe(0);
  });
});

/**
 * A deriver that widens its windows only a little (the trips: back to the open trip's first report)
 * is handed them from there, not from where a later deriver's look-back (an alarm policy's hours)
 * starts them; a deriver that does not widen gets the whole window. The rows are still those of
 * one full rebuild.
 */
describe.each(BACKENDS)('each deriver’s window starts where its own widening does, on %s', (backend) => {
  const HOUR = 3_600_000;
  /** What each spy was handed on live passes: its window's start, the position before, and its first position. */
  const seen: Record<string, Array<{ from: number; before: number | null; first: number | null; dirtyFrom: number }>> = {
    narrow: [],
    wide: [],
    plain: [],
  };
  const spy = (name: 'narrow' | 'wide' | 'plain', back: number | null): Deriver => ({
    name,
    ...(back === null
      ? {}
      : { extend: async (_trx: unknown, _v: number, r: { from: number; to: number }) => ({ from: r.from - back, to: r.to }) }),
    async rebuild(_trx, w) {
      if (w.continues)
        seen[name].push({ from: w.from, before: w.before?.time ?? null, first: w.positions[0]?.time ?? null, dirtyFrom: w.dirty!.from });
    },
  });
  let h: DeriveHarness;
  beforeAll(async () => {
    h = await startDeriveHarness(backend, { extraDerivers: () => [spy('narrow', 60_000), spy('wide', 6 * HOUR), spy('plain', null)] });
  });
  afterAll(() => h.close());

  it('hands a narrow deriver its own part of the window, and the rows are one rebuild’s', async () => {
    const phone = demoTerminal(9);
    const t = await h.terminal(phone);
    const reports = scriptedDay();
    for (let i = 0; i < reports.length; i += 12) {
      await h.send(t, reports.slice(i, i + 12), 'single');
      await h.derived();
    }
    expect(seen.narrow.length).toBeGreaterThan(10);
    expect(seen.narrow.length).toBe(seen.wide.length);
    seen.narrow.forEach((n, k) => {
      const wide = seen.wide[k];
      // The narrow spy needs a minute before the marks and the trips' widening (from the first
      // report while the first trip is open); the wide one six hours.
      expect(wide.from).toBeLessThanOrEqual(wide.dirtyFrom - 6 * HOUR);
      expect(n.from).toBeGreaterThanOrEqual(wide.from);
      expect(n.from).toBeLessThanOrEqual(n.dirtyFrom - 60_000);
      // Its first position is the first at or after its start, and `before` the one just before.
      if (n.first !== null) expect(n.first).toBeGreaterThanOrEqual(n.from);
      if (n.before !== null) expect(n.before).toBeLessThan(n.from);
      expect(seen.plain[k].from).toBe(wide.from);
    });
    // Once the day's later trips are open, the narrow window leaves out reports the wide one has.
    expect(
      seen.narrow.filter((n, k) => n.from > seen.wide[k].from && n.before !== null && n.before >= seen.wide[k].from).length,
    ).toBeGreaterThan(5);
    const vehicleId = await h.vehicleOf(phone);
    const passes = await derivedRowsOf(h, vehicleId);
    expect(
      passes.trips.map((r) => ({
        begin: ms(r.begin_time),
        end: ms(r.end_time),
        distanceKm: Math.round(r.distance_km * 10) / 10,
        idleS: r.idle_s,
      })),
    ).toEqual(EXPECTED.trips);
    await h.derivation.pipeline.rebuild(vehicleId, { from: -Infinity, to: Infinity });
    expect(await derivedRowsOf(h, vehicleId)).toEqual(passes);
  });
});
