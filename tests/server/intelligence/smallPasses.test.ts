import { sql } from 'kysely';
import { alarmDeriver } from '../../../server/intelligence/alarms/deriver';
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
    expect(passes.trips.map((r) => ({ begin: ms(r.begin_time), end: ms(r.end_time), distanceKm: Math.round(r.distance_km * 10) / 10, idleS: r.idle_s }))).toEqual(EXPECTED.trips);
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
    const t = await inPasses(phone, reports.filter((r) => !late(r)), 10);
    await h.send(t, reports.filter(late), 'blind');
    await h.derived();
    const vehicleId = await h.vehicleOf(phone);
    const passes = await allRowsOf(vehicleId);
    expect(passes.trips).toHaveLength(4);
    await h.derivation.pipeline.rebuild(vehicleId, { from: -Infinity, to: Infinity });
    expect(await allRowsOf(vehicleId)).toEqual(passes);
    // And the day's known answers, as when it is driven in order.
    expect(passes.trips.map((r) => ({ begin: ms(r.begin_time), end: ms(r.end_time), distanceKm: Math.round(r.distance_km * 10) / 10, idleS: r.idle_s }))).toEqual(EXPECTED.trips);
    expect(passes.stops.slice(0, 4).map((r) => ({ begin: ms(r.begin_time), end: ms(r.end_time) }))).toEqual(EXPECTED.stops);
    expect(passes.fuel.map((e) => e.kind)).toEqual(['refuel', 'drain']);
    expect(h.derivation.pipeline.stats.failures).toBe(0);
  });
});
