import { sql } from 'kysely';
import type { Database } from '../../../../server/platform/db/database';
import { migrate } from '../../../../server/platform/db/migrate';
import { databaseBefore } from '../../../helpers/migrations';
import { BACKENDS, type Backend } from '../../../helpers/testServer';

const PARTITIONING = '2026112216000000_partition_positions.sql';

/** A database migrated up to (not including) the partitioning migration. */
const beforePartitioning = (backend: Backend) => databaseBefore(backend, PARTITIONING);

// Months of several years, both edges of a month, a leap day, and clocks gone wrong.
const TIMES = [
  '2000-01-01T00:00:00Z',
  '2025-12-31T23:59:59.999Z',
  '2026-01-01T00:00:00Z',
  '2026-02-28T12:00:00Z',
  '2028-02-29T08:30:00Z',
  '2026-11-21T10:00:00Z',
  '2099-12-31T23:59:59Z',
];
/** The first instants of this UTC month and the next two, as ISO strings. */
const comingMonths = (now = new Date()) =>
  [0, 1, 2].map((k) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + k, 1)).toISOString());
const monthPartition = (table: string, iso: string) => `${table}_p${iso.slice(0, 4)}${iso.slice(5, 7)}`;

interface Located {
  part: string;
  row: Record<string, unknown>;
}

describe.each(BACKENDS)('partitioning migration on %s', (backend) => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await beforePartitioning(backend));
  });
  afterAll(() => drop?.());

  const rows = async (table: 'position' | 'obd_record' | 'obd_dtc'): Promise<Located[]> => {
    const r =
      await sql<Located>`SELECT tableoid::regclass::text AS part, to_jsonb(t) AS row FROM ${sql.table(table)} t ORDER BY terminal_id, device_time`.execute(
        database.db,
      );
    return r.rows;
  };

  it('keeps every position, OBD record and DTC of every month, each in its month partition, with keys and indexes', async () => {
    const db = database.db;
    for (const [i, iso] of TIMES.entries()) {
      for (const terminal of [1, 2]) {
        await sql`INSERT INTO position (terminal_id, device_time, vehicle_id, latitude, longitude, speed, alarm, status, blind, extras)
          VALUES (${terminal}, ${iso}, ${terminal * 10}, ${31 + i / 100}, ${121 + i / 100}, ${i * 1.5}, ${i === 3 ? 4294967295 : 0}, 3, ${i % 2 === 0}, ${JSON.stringify({ signalStrength: i })}::jsonb)`.execute(
          db,
        );
      }
      await sql`INSERT INTO obd_record (terminal_id, device_time, subtype, vehicle_id, readings, dtc_count) VALUES (1, ${iso}, 2, 10, ${JSON.stringify({ rpm: 800 + i })}::jsonb, 1)`.execute(
        db,
      );
      await sql`INSERT INTO obd_dtc (terminal_id, device_time, seq, vehicle_id, system_id, dtc, status, code) VALUES (1, ${iso}, 0, 10, 1, 769, 1, 'P0301')`.execute(
        db,
      );
    }
    const before = { position: await rows('position'), obd_record: await rows('obd_record'), obd_dtc: await rows('obd_dtc') };
    expect(before.position).toHaveLength(TIMES.length * 2);

    expect(await migrate(database)).toContain(PARTITIONING);

    for (const table of ['position', 'obd_record', 'obd_dtc'] as const) {
      const kind = await sql<{ relkind: string }>`SELECT relkind FROM pg_class WHERE oid = ${table}::regclass`.execute(db);
      expect(kind.rows[0].relkind).toBe('p');
      const after = await rows(table);
      // Every row kept, column for column…
      expect(after.map((x) => x.row)).toEqual(before[table].map((x) => x.row));
      // …in the partition of its (UTC) month.
      expect(after.map((x) => x.part)).toEqual(
        before[table].map((x) => monthPartition(table, new Date(x.row.device_time as string).toISOString())),
      );
      const parts = await sql<{ name: string }>`
        SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = ${table}::regclass`.execute(
        db,
      );
      // The data's months, and the current month and the next two for what terminals report next.
      const expected = [
        `${table}_default`,
        ...TIMES.map((t) => monthPartition(table, t)),
        ...comingMonths().map((m) => monthPartition(table, m)),
      ];
      expect(parts.rows.map((p) => p.name).sort()).toEqual([...new Set(expected)].sort());
    }
    const indexes = await sql<{
      name: string;
    }>`SELECT indexname AS name FROM pg_indexes WHERE tablename IN ('position', 'obd_record', 'obd_dtc') ORDER BY 1`.execute(db);
    expect(indexes.rows.map((r) => r.name)).toEqual([
      'obd_dtc_code_idx',
      'obd_dtc_pkey',
      'obd_dtc_vehicle_time_idx',
      'obd_record_pkey',
      'obd_record_vehicle_time_idx',
      'position_alarm_idx',
      'position_pkey',
      'position_vehicle_time_idx',
    ]);
    const old = await sql`SELECT 1 FROM pg_class WHERE relname LIKE '%_unpartitioned'`.execute(db);
    expect(old.rows).toEqual([]);
    // The key still refuses a second row for the same terminal and device time.
    await expect(
      sql`INSERT INTO position (terminal_id, device_time, latitude, longitude) VALUES (1, ${TIMES[2]}, 0, 0)`.execute(db),
    ).rejects.toThrow(/duplicate key/);
  });

  it('migrates an empty database too: only the current month and the next two, and the default', async () => {
    const fresh = await beforePartitioning(backend);
    try {
      await migrate(fresh.database);
      const parts = await sql<{ name: string }>`
        SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'position'::regclass ORDER BY 1`.execute(
        fresh.database.db,
      );
      expect(parts.rows.map((p) => p.name)).toEqual(
        ['position_default', ...comingMonths().map((m) => monthPartition('position', m))].sort(),
      );
    } finally {
      await fresh.drop();
    }
  });
});
