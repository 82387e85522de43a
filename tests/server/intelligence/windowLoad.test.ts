/**
 * The set-wise window readers read each range by its own index scan, however many rows the month
 * partition holds: joined plainly, the planner hashed the ranges against a sequential scan of the
 * whole partition, a cost that grew with every day of the month (the alarm bench's passes read
 * 82,000 rows for 288).
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../../server/platform/db/tables';
import type { PositionRecord } from '../../../server/telematics/store/records';
import { insertPositions } from '../../../server/telematics/store/writer';
import { loadPositionsMany, positionsOfRanges, rangesTable } from '../../../server/intelligence/windowLoad';
import { monthOf, monthStart, partitionName } from '../../../server/telematics/store/partitions';
import { BACKENDS, startTestServer, type TestServer } from '../../helpers/testServer';

// This month: its partition exists in a fresh database whatever the day the suite runs.
const MONTH = monthOf(new Date());
const PARTITION = partitionName('position', MONTH);
const T0 = monthStart(MONTH).getTime();
/** As the alarm bench at 5,200 reports/s: 400 vehicles, a pass of 200 of them. */
const VEHICLES = 400;
const PER_VEHICLE = 200;

const position = (vehicleId: number, i: number): PositionRecord => ({
  terminalId: vehicleId,
  vehicleId,
  deviceTime: T0 + i * 60_000,
  latitude: 31.2,
  longitude: 121.4,
  altitude: 0,
  speed: 30,
  direction: 0,
  alarm: 0,
  status: 3,
  acc: true,
  fixed: true,
  mileageKm: i,
  fuelL: null,
  blind: false,
  extras: null,
  dtcs: null,
});

/** Every scan node of a JSON plan: its type and relation. */
function scans(plan: unknown, into: Array<{ type: string; relation: string }> = []): Array<{ type: string; relation: string }> {
  if (Array.isArray(plan)) plan.forEach((p) => scans(p, into));
  else if (plan && typeof plan === 'object') {
    const node = plan as Record<string, unknown>;
    if (typeof node['Relation Name'] === 'string') into.push({ type: String(node['Node Type']), relation: node['Relation Name'] });
    for (const v of Object.values(node)) if (v && typeof v === 'object') scans(v, into);
  }
  return into;
}

describe.each(BACKENDS)('window ranges read set-wise on %s', (backend) => {
  let s: TestServer;
  let db: Kysely<DB>;
  beforeAll(async () => {
    s = await startTestServer(backend);
    db = s.database.db;
    // Unanalysed, as a month partition is for a while after it begins to fill (and the bench's
    // database throughout): autovacuum kept away so the statistics stay as they are.
    await sql`ALTER TABLE ${sql.table(PARTITION)} SET (autovacuum_enabled = false)`.execute(db);
    const rows: PositionRecord[] = [];
    for (let v = 1; v <= VEHICLES; v++) for (let i = 0; i < PER_VEHICLE; i++) rows.push(position(770_000 + v, i));
    for (let i = 0; i < rows.length; i += 5000) await insertPositions(db, rows.slice(i, i + 5000));
  }, 120_000);
  afterAll(() => s?.close());

  // A live pass: the last ten minutes of every vehicle.
  const ranges = Array.from({ length: VEHICLES / 2 }, (_, k) => ({
    vehicleId: 770_001 + k,
    from: T0 + (PER_VEHICLE - 10) * 60_000,
    to: Infinity,
  }));
  const explain = async (query: ReturnType<typeof sql>) =>
    scans((await sql<{ 'QUERY PLAN': unknown }>`EXPLAIN (FORMAT JSON) ${query}`.execute(db)).rows[0]['QUERY PLAN']);

  it('reads positions by index, range by range', async () => {
    // Only the month holding the rows matters: an empty partition is as cheap to scan as to probe.
    const month = (found: Array<{ type: string; relation: string }>) => found.filter((n) => n.relation === PARTITION).map((n) => n.type);
    const found = month(await explain(sql`SELECT w.ord, p.* FROM ${positionsOfRanges(ranges)} ORDER BY w.ord, p.ms`));
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter((type) => !/Index/.test(type))).toEqual([]);
    // The plain join the readers used to run scans the month partition whole here.
    const joined = await explain(
      sql`SELECT w.ord, p.* FROM ${rangesTable(ranges)} JOIN position p ON p.vehicle_id = w.vehicle_id AND p.device_time >= w.lo AND p.device_time < w.hi`,
    );
    expect(month(joined)).toContainEqual(expect.stringMatching(/Seq Scan/));
  });

  it('answers each range its own positions in device-time order', async () => {
    const got = await loadPositionsMany(db, [
      ranges[3],
      { vehicleId: ranges[3].vehicleId, from: T0, to: T0 + 3 * 60_000 },
      { vehicleId: 1, from: T0, to: Infinity },
    ]);
    expect(got.map((list) => list.map((p) => p.mileageKm))).toEqual([[190, 191, 192, 193, 194, 195, 196, 197, 198, 199], [0, 1, 2], []]);
  });
});
