import { sql } from 'kysely';
import { BACKENDS } from '../../helpers/testServer';
import { scriptedDay } from './days';
import { demoTerminal, derivedRowsOf, startDeriveHarness, type DeriveHarness } from './harness';

/**
 * A live pass skips the insert of the derive_state rows of vehicles a committed pass already locked
 * (pipeline.ts lockStates). A row gone all the same (deleted by hand) must be created again by the
 * next pass, not taken for a deleted vehicle whose marks are dropped.
 */
describe.each(BACKENDS)('derive_state rows on %s', (backend) => {
  let h: DeriveHarness;
  beforeAll(async () => {
    h = await startDeriveHarness(backend);
  });
  afterAll(() => h.close());

  it('creates again a row deleted by hand and derives the reports stored since', async () => {
    const phone = demoTerminal(6);
    const t = await h.terminal(phone);
    const vehicleId = await h.vehicleOf(phone);
    const day = scriptedDay();
    const half = Math.floor(day.length / 2);
    await h.send(t, day.slice(0, half), 'batch');
    await h.derived();
    const db = h.s.database.db;
    await sql`DELETE FROM derive_state WHERE vehicle_id = ${vehicleId}`.execute(db);

    await h.send(t, day.slice(half), 'batch');
    await h.derived();
    const state = await sql<{ ms: number }>`
      SELECT (extract(epoch FROM watermark) * 1000)::float8 AS ms FROM derive_state WHERE vehicle_id = ${vehicleId}`.execute(db);
    expect(state.rows.map((r) => Math.round(Number(r.ms)))).toEqual([Number(day[day.length - 1].time)]);
    const passes = await derivedRowsOf(h, vehicleId);
    expect(passes.trips.length).toBeGreaterThan(0);
    await h.derivation.pipeline.rebuild(vehicleId, { from: -Infinity, to: Infinity });
    expect(await derivedRowsOf(h, vehicleId)).toEqual(passes);
    expect(h.derivation.pipeline.stats.failures).toBe(0);
  });
});
