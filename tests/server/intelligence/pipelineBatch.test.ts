import { BACKENDS } from '../../helpers/testServer';
import { EXPECTED, scriptedDay } from './days';
import { demoTerminal, derivedRowsOf, startDeriveHarness, type DeriveHarness } from './harness';

const ms = (d: Date | string) => new Date(d).getTime();

/**
 * The pipeline derives the vehicles with something pending together, several per transaction with
 * one statement per step for all of them. Each vehicle's rows must be exactly those it gets when
 * derived alone.
 */
describe.each(BACKENDS)('deriving several vehicles at once on %s', (backend) => {
  let h: DeriveHarness;
  beforeAll(async () => {
    h = await startDeriveHarness(backend);
  });
  afterAll(() => h.close());

  const rowsOf = (vehicleId: number) => derivedRowsOf(h, vehicleId);

  it('gives every vehicle of a batch the rows it gets alone', async () => {
    const phones = [5, 6, 7, 8].map(demoTerminal);
    const terminals = await Promise.all(phones.map((p) => h.terminal(p)));
    // All four at once, so their marks meet in the same passes.
    await Promise.all(terminals.map((t) => h.send(t, scriptedDay(), 'batch')));
    await h.derived();
    const vehicles = await Promise.all(phones.map((p) => h.vehicleOf(p)));
    const together = await Promise.all(vehicles.map(rowsOf));
    for (const rows of together) {
      expect(
        rows.trips.map((r) => ({
          begin: ms(r.begin_time),
          end: ms(r.end_time),
          distanceKm: Math.round(r.distance_km * 10) / 10,
          idleS: r.idle_s,
        })),
      ).toEqual(EXPECTED.trips);
      expect(rows.ledger).toHaveLength(1);
    }
    // Alone: each rebuilt by itself over its whole history.
    for (const [i, v] of vehicles.entries()) {
      await h.derivation.pipeline.rebuild(v, { from: -Infinity, to: Infinity });
      expect(await rowsOf(v)).toEqual(together[i]);
    }
    expect(h.derivation.pipeline.stats.failures).toBe(0);
  });
});
