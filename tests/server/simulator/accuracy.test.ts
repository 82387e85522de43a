/**
 * The accuracy suite's tolerances as a test (docs/accuracy.md): a part of `npm run accuracy` —
 * two labelled days of ten vehicles, every noise profile twice — through the real gateway and
 * derivation, on both databases.
 */

import { PROFILES } from '../../../server/simulator/accuracy/labelledDays';
import { dayFailures, eventsWithinTolerance, summarise, type DayVerdict } from '../../../server/simulator/accuracy/score';
import { runAccuracySuite } from '../../../server/simulator/accuracy/suite';
import { BACKENDS, startTestServer, type TestServer } from '../../helpers/testServer';

jest.setTimeout(300_000);

describe.each(BACKENDS)('the accuracy suite on %s', (backend) => {
  let s: TestServer;
  let verdicts: DayVerdict[];
  beforeAll(async () => {
    s = await startTestServer(backend);
    verdicts = await runAccuracySuite(s.database.db, { vehicles: PROFILES.length, days: 2 });
  });
  afterAll(() => s?.close());

  it('drives every noise profile, with refuels, drains and days from GNSS alone among them', () => {
    expect(verdicts).toHaveLength(PROFILES.length * 2);
    expect(new Set(verdicts.map((v) => v.profile))).toEqual(new Set(PROFILES.map((p) => p.name)));
    expect(verdicts.reduce((n, v) => n + v.events.truth, 0)).toBeGreaterThanOrEqual(5);
    expect(verdicts.filter((v) => !v.odometer && v.distance.gnssKm > 0).length).toBeGreaterThanOrEqual(4);
    // Days from GNSS alone say so in the ledger; days with an odometer measure none from GNSS.
    for (const v of verdicts) if (v.odometer) expect(v.distance.gnssKm).toBe(0);
  });

  it('counts trips and stops exactly, never a trip while standing, distance and fuel used within their tolerances every day', () => {
    expect(verdicts.flatMap((v) => dayFailures(v).map((f) => `${v.day} ${v.profile}: ${f}`))).toEqual([]);
  });

  it('finds refuels and drains with precision and recall of at least 95 %', () => {
    const all = summarise(verdicts).at(-1)!;
    expect(all.profile).toBe('all');
    expect(eventsWithinTolerance(all)).toBe(true);
  });
});
