import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { BACKENDS, type TestServer, useTestServer } from '../../../helpers/testServer';

const MIGRATION = path.resolve(__dirname, '../../../../server/platform/db/migrations/2026112700020000_derive_mark.sql');

/** A database whose derivation left ranges pending in derive_state keeps them, as marks. */
describe.each(BACKENDS)('the derive-mark migration on %s', (backend) => {
  let s: TestServer;
  useTestServer(backend, (server) => {
    s = server;
  });

  it('turns pending ranges into marks and drops the columns they lived in', async () => {
    const { db } = s.database;
    const [a, b, c] = (await sql<{ id: number }>`SELECT id FROM vehicle ORDER BY id LIMIT 3`.execute(db)).rows.map((r) => r.id);
    // derive_state as it was before the migration, with one vehicle pending, one open-ended, one derived.
    await sql`DROP TABLE derive_mark`.execute(db);
    await sql`ALTER TABLE derive_state ADD COLUMN pending_from timestamptz, ADD COLUMN pending_to timestamptz, ADD COLUMN pending_seq bigint NOT NULL DEFAULT 0`.execute(
      db,
    );
    await sql`CREATE INDEX derive_state_pending_idx ON derive_state (vehicle_id) WHERE pending_from IS NOT NULL`.execute(db);
    await sql`DELETE FROM derive_state`.execute(db);
    await sql`
      INSERT INTO derive_state (vehicle_id, watermark, pending_from, pending_to, pending_seq, derived_seq) VALUES
        (${a}, '2026-11-20T08:00:00Z', '2026-11-20T07:00:00Z', '2026-11-20T09:00:00Z', 4, 3),
        (${b}, NULL, '2026-11-21T00:00:00Z', NULL, 1, 0),
        (${c}, '2026-11-22T00:00:00Z', NULL, NULL, 2, 2)`.execute(db);

    await s.database.runScript(fs.readFileSync(MIGRATION, 'utf8'), async () => undefined);

    const marks = await sql<{ vehicle_id: number; f: string; t: string }>`
      SELECT vehicle_id, to_char(pending_from AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS f, to_char(pending_to AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS t
      FROM derive_mark ORDER BY vehicle_id`.execute(db);
    expect(marks.rows).toEqual(
      [
        { vehicle_id: a, f: '2026-11-20 07:00', t: '2026-11-20 09:00' },
        { vehicle_id: b, f: '2026-11-21 00:00', t: '2026-11-21 00:00' },
      ].sort((x, y) => x.vehicle_id - y.vehicle_id),
    );
    const columns = await sql<{
      column_name: string;
    }>`SELECT column_name FROM information_schema.columns WHERE table_name = 'derive_state' ORDER BY column_name`.execute(db);
    // The pending columns are gone; later migrations' columns may follow.
    const names = columns.rows.map((r) => r.column_name);
    expect(names).toEqual(expect.arrayContaining(['derived_at', 'derived_seq', 'vehicle_id', 'watermark']));
    expect(names.filter((n) => n.startsWith('pending'))).toEqual([]);
    // The watermarks and pass counts stay.
    const states = await sql<{
      vehicle_id: number;
      derived_seq: string;
    }>`SELECT vehicle_id, derived_seq::text FROM derive_state ORDER BY vehicle_id`.execute(db);
    expect(states.rows).toEqual(
      [a, b, c].sort((x, y) => x - y).map((v) => ({ vehicle_id: v, derived_seq: String(v === a ? 3 : v === b ? 0 : 2) })),
    );
  });
});
