/**
 * A live pass whose window begins at the trip before the one a new report falls in (the trips
 * deriver's extend()) holds that trip for context only: the stop it started from lies before the
 * window, so its fuel cannot be read there (the stop's standing levels slosh), and its stored row
 * must stand. One vehicle gets its day live in two parts, another the same day in one blind-area
 * batch; both must leave the same trips, fuel events and ledger day.
 */

import type { LocationInput } from '../../../../server/telematics/jt808/codec';
import { BACKENDS } from '../../../helpers/testServer';
import { ScriptedDay } from '../alarms/scriptedDay';
import { demoTerminal, derivedRowsOf, startDeriveHarness, type DeriveHarness } from '../harness';

const HOME = { latitude: 31.2, longitude: 121.4 };

/** Parked levels sloshing around `level` (a tank sensor on a slope): the last one reads low. */
const slosh = (level: number) => [level + 0.6, level - 0.4, level + 0.9, level, level - 0.7, level + 0.3, level - 1.8];

function day(): { first: LocationInput[]; rest: LocationInput[] } {
  const d = new ScriptedDay('2026-11-10T00:00:00Z', HOME);
  for (const l of slosh(60)) d.step(600, 0, { acc: false, every: 600, fuelL: l });
  d.step(2 * 60, 0, { acc: true, every: 30 });
  d.step(20 * 60, 50, { every: 60, heading: 90, fuelL: 57 });
  d.step(60, 0, { acc: false, every: 60, fuelL: 56 });
  for (const l of slosh(56)) d.step(600, 0, { acc: false, every: 600, fuelL: l });
  d.step(2 * 60, 0, { acc: true, every: 30 });
  d.step(20 * 60, 50, { every: 60, heading: 0, fuelL: 53 });
  d.step(60, 0, { acc: false, every: 60, fuelL: 52 });
  for (const l of slosh(52)) d.step(600, 0, { acc: false, every: 600, fuelL: l });
  d.step(2 * 60, 0, { acc: true, every: 30 });
  d.step(6 * 60, 50, { every: 60, heading: 270, fuelL: 51 });
  const cut = d.reports.length;
  d.step(14 * 60, 50, { every: 60, heading: 270, fuelL: 49 });
  d.step(30 * 60, 0, { acc: false, every: 300, fuelL: 48 });
  return { first: d.reports.slice(0, cut), rest: d.reports.slice(cut) };
}

describe.each(BACKENDS)('a window that begins at a trip it holds for context, on %s', (backend) => {
  let h: DeriveHarness;
  beforeAll(async () => {
    h = await startDeriveHarness(backend);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('leaves that trip as the pass that had its stop wrote it', async () => {
    const { first, rest } = day();
    const live = await h.terminal(demoTerminal(4));
    const batch = await h.terminal(demoTerminal(5));
    // The third trip is under way when the first part is derived: the second pass's window begins at the second trip.
    await h.send(live, first, 'single');
    await h.derived();
    await h.send(live, rest, 'single');
    await h.send(batch, [...first, ...rest], 'blind');
    await h.derived();
    const a = await derivedRowsOf(h, await h.vehicleOf(demoTerminal(4)));
    const b = await derivedRowsOf(h, await h.vehicleOf(demoTerminal(5)));
    expect(a.trips).toHaveLength(3);
    expect(a.trips).toEqual(b.trips);
    expect(a.fuel).toEqual(b.fuel);
    // Cost is priced per vehicle (its fuel type), org per vehicle: the figures the rules derive are the rest.
    const figures = ({ org_id: _org, cost: _cost, ...rest }: (typeof a.ledger)[number]) => rest;
    expect(a.ledger.map(figures)).toEqual(b.ledger.map(figures));
  }, 120_000);
});
