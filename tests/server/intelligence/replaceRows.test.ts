import { sql } from 'kysely';
import type { Insertable } from 'kysely';
import type { TripStopTable } from '../../../server/platform/db/tables';
import { replaceRows, rowSet } from '../../../server/platform/db/replaceRows';
import { STOP_COLUMNS as COLUMNS } from '../../../server/intelligence/trips/tripDeriver';
import { rangesTable } from '../../../server/intelligence/windowLoad';
import { BEHAVIOUR_COLUMNS, HEALTH_COLUMNS } from '../../../server/intelligence/behaviour/deriver';
import { BACKENDS, type TestServer, useTestServer } from '../../helpers/testServer';

const T0 = Date.parse('2026-11-20T00:00:00Z');
const min = 60_000;

type StopRow = Insertable<TripStopTable>;

/** A stop from minute b to minute e. */
const stop = (vehicleId: number, b: number, e: number, open = false): StopRow & { begin_time: Date } => ({
  vehicle_id: vehicleId,
  begin_time: new Date(T0 + b * min),
  end_time: new Date(T0 + e * min),
  duration_s: (e - b) * 60,
  latitude: 31.2,
  longitude: 121.4,
  open,
});

/** A deriver's rows replaced in one statement: what a delete and an insert left, with unchanged rows not rewritten. */
describe.each(BACKENDS)('rows replaced in one statement on %s', (backend) => {
  let s: TestServer;
  useTestServer(backend, (server) => {
    s = server;
  });

  it('keeps unchanged rows as they are, updates changed ones, adds new ones and deletes the owned rest', async () => {
    const { db } = s.database;
    const [a, b] = (await sql<{ id: number }>`SELECT id FROM vehicle ORDER BY id LIMIT 2`.execute(db)).rows.map((r) => r.id);
    /** Vehicle a's window [from, to) in minutes, owning the stops that begin in it. */
    const replace = (from: number, to: number, rows: StopRow[]) =>
      db.transaction().execute((trx) =>
        replaceRows(trx, rangesTable([{ vehicleId: a, from: T0 + from * min, to: T0 + to * min }]), [
          rowSet({
            table: 'trip_stop',
            columns: COLUMNS,
            key: ['vehicle_id', 'begin_time'],
            rows,
            owned: sql`t.vehicle_id = w.vehicle_id AND t.begin_time >= w.lo AND t.begin_time < w.hi`,
          }),
        ]),
      );
    const rows = async () =>
      (
        await sql<{ id: number; vehicle_id: number; b: number; e: number; open: boolean; version: string }>`
          SELECT id, vehicle_id, ((extract(epoch FROM begin_time) * 1000)::bigint - ${T0}) / 60000 AS b, ((extract(epoch FROM end_time) * 1000)::bigint - ${T0}) / 60000 AS e, open, xmin::text AS version
          FROM trip_stop WHERE vehicle_id = ANY(${[a, b]}::int[]) ORDER BY vehicle_id, begin_time`.execute(db)
      ).rows.map((r) => ({ ...r, b: Number(r.b), e: Number(r.e) }));

    // Another vehicle's stop in the same hours is never the window's.
    await db
      .insertInto('trip_stop')
      .values(stop(b, 10, 20))
      .execute();
    await replace(0, 60, [stop(a, 10, 20), stop(a, 30, 40, true)]);
    const first = await rows();
    expect(first.map((r) => [r.vehicle_id, r.b, r.e, r.open])).toEqual([
      [a, 10, 20, false],
      [a, 30, 40, true],
      [b, 10, 20, false],
    ]);

    // The next pass: the first stop unchanged, the second closed later, a third found.
    await replace(0, 60, [stop(a, 10, 20), stop(a, 30, 45), stop(a, 50, 55, true)]);
    const second = await rows();
    expect(second.map((r) => [r.vehicle_id, r.b, r.e, r.open])).toEqual([
      [a, 10, 20, false],
      [a, 30, 45, false],
      [a, 50, 55, true],
      [b, 10, 20, false],
    ]);
    // Same rows (ids) throughout; only the changed one has a new version.
    expect(second[0]).toEqual(first[0]);
    expect(second[1].id).toBe(first[1].id);
    expect(second[1].version).not.toBe(first[1].version);
    expect(second[3]).toEqual(first[2]);

    // A window owns only what begins in it: [25, 52) found nothing, so the stops at 30 and 50 go, the one at 10 stays.
    await replace(25, 52, []);
    expect((await rows()).map((r) => [r.vehicle_id, r.b])).toEqual([
      [a, 10],
      [b, 10],
    ]);
  });

  it('upserts alone when no window owns rows, and does nothing with nothing to do', async () => {
    const { db } = s.database;
    const [, , c] = (await sql<{ id: number }>`SELECT id FROM vehicle ORDER BY id LIMIT 3`.execute(db)).rows.map((r) => r.id);
    const put = (rows: StopRow[]) =>
      replaceRows(db, null, [rowSet({ table: 'trip_stop', columns: COLUMNS, key: ['vehicle_id', 'begin_time'], rows })]);
    await put([stop(c, 0, 5)]);
    await put([stop(c, 0, 7), stop(c, 10, 12)]);
    await put([]);
    const left = await db.selectFrom('trip_stop').select(['duration_s']).where('vehicle_id', '=', c).orderBy('begin_time').execute();
    expect(left.map((r) => r.duration_s)).toEqual([420, 120]);
    await expect(
      replaceRows(db, null, [
        rowSet({ table: 'trip_stop', columns: COLUMNS, key: ['vehicle_id', 'begin_time'], rows: [], owned: sql`true` }),
      ]),
    ).rejects.toThrow(/no windows given/);
  });

  it('carries array and jsonb columns: order kept, empty arrays too, and an unchanged row left alone', async () => {
    const { db } = s.database;
    const [, , , d] = (await sql<{ id: number; org_id: number }>`SELECT id FROM vehicle ORDER BY id LIMIT 4`.execute(db)).rows.map(
      (r) => r.id,
    );
    const orgId = (await sql<{ org_id: number }>`SELECT org_id FROM vehicle WHERE id = ${d}`.execute(db)).rows[0].org_id;
    const day = (n: number, sources: string[]) => ({
      vehicle_id: d,
      day: `2026-11-${n}`,
      org_id: orgId,
      harsh_acceleration: 0,
      harsh_braking: 0,
      sharp_turn: 0,
      speeding_s: 0,
      fatigue: 0,
      night_s: 0,
      sources,
    });
    const health = (n: number, faults: unknown[]) => ({
      vehicle_id: d,
      day: `2026-11-${n}`,
      org_id: orgId,
      health_index: 90,
      band: 'healthy' as const,
      faults: JSON.stringify(faults),
      min_battery_v: null,
      max_coolant_c: null,
      alarm_count: 0,
    });
    const put = (days: ReturnType<typeof day>[], healths: ReturnType<typeof health>[]) =>
      replaceRows(db, null, [
        rowSet({ table: 'behaviour_day', columns: BEHAVIOUR_COLUMNS, key: ['vehicle_id', 'day'], rows: days }),
        rowSet({ table: 'health_day', columns: HEALTH_COLUMNS, key: ['vehicle_id', 'day'], rows: healths }),
      ]);
    const read = async () => ({
      days: (
        await sql<{
          sources: string[];
          v: string;
        }>`SELECT sources, xmin::text AS v FROM behaviour_day WHERE vehicle_id = ${d} ORDER BY day`.execute(db)
      ).rows,
      faults: (await sql<{ faults: unknown }>`SELECT faults FROM health_day WHERE vehicle_id = ${d} ORDER BY day`.execute(db)).rows.map(
        (r) => (typeof r.faults === 'string' ? JSON.parse(r.faults) : r.faults),
      ),
    });
    const fault = { code: 'P0301', level: 'high', name: '1 缸失火, "引号"', resolvent: null };
    await put([day(20, ['terminal', 'computed']), day(21, [])], [health(20, [fault]), health(21, [])]);
    const first = await read();
    expect(first.days.map((r) => r.sources)).toEqual([['terminal', 'computed'], []]);
    expect(first.faults).toEqual([[fault], []]);
    await put([day(20, ['terminal', 'computed']), day(21, ['computed'])], [health(20, [fault]), health(21, [])]);
    const second = await read();
    expect(second.days.map((r) => r.sources)).toEqual([['terminal', 'computed'], ['computed']]);
    expect(second.days[0].v).toBe(first.days[0].v);
    expect(second.days[1].v).not.toBe(first.days[1].v);
  });
});
