/**
 * Issue 39, finding 1: the migration that makes a terminal's number and SIM one identity per device
 * on a database that already holds clashes. The terminal created first keeps a clashing identity;
 * the later one keeps its row (nothing a person entered is deleted), loses only that identity, and
 * the clash is written to its organisation's audit log.
 */

import { sql } from 'kysely';
import { deviceIdentity } from '../../../../schemas/kit/entity';
import type { Database } from '../../../../server/platform/db/database';
import { migrate } from '../../../../server/platform/db/migrate';
import { databaseBefore } from '../../../helpers/migrations';
import { BACKENDS } from '../../../helpers/testServer';

const IDENTITY = '2026112905000000_terminal_identity.sql';

describe.each(BACKENDS)('the terminal identity migration on %s', (backend) => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await databaseBefore(backend, IDENTITY));
  });
  afterAll(() => drop?.());

  it('gives a clashing identity to the terminal created first, keeps the other row and audits the clash', async () => {
    const db = database.db;
    const org = async (code: string, id: number) => {
      await sql`INSERT INTO organisation (id, code, name, path) VALUES (${id}, ${code}, ${code}, ${`/${id}/`})`.execute(db);
      return id;
    };
    const a = await org('A', 901);
    const b = await org('B', 902);
    const terminal = async (orgId: number, terminalNo: string, sim: string) =>
      (
        await sql<{
          id: number;
        }>`INSERT INTO terminal (org_id, terminal_no, sim) VALUES (${orgId}, ${terminalNo}, ${sim}) RETURNING id`.execute(db)
      ).rows[0].id;
    const first = await terminal(a, 'A1', '14455500001');
    const same = await terminal(a, '013800000009', '13800000009'); // number and SIM one identity of one terminal
    const later = await terminal(b, '014455500001', '14466600001'); // A's SIM, zero-padded, as a number

    await migrate(database);

    const held = await sql<{
      identity: string;
      terminal_id: number;
    }>`SELECT identity, terminal_id FROM terminal_identity ORDER BY identity`.execute(db);
    expect(held.rows).toEqual([
      { identity: '13800000009', terminal_id: same },
      { identity: '14455500001', terminal_id: first },
      { identity: '14466600001', terminal_id: later },
      { identity: 'A1', terminal_id: first },
    ]);
    expect((await sql`SELECT id FROM terminal WHERE id = ${later}`.execute(db)).rows).toHaveLength(1);
    const audit = await sql<{
      org_id: number;
      action: string;
      target: string;
      success: boolean;
      detail: string;
    }>`SELECT org_id, action, target, success, detail FROM audit_log WHERE action = 'terminalIdentityClash'`.execute(db);
    expect(audit.rows.map((x) => ({ ...x, detail: JSON.parse(x.detail) }))).toEqual([
      { org_id: b, action: 'terminalIdentityClash', target: '014455500001', success: false, detail: { identity: '14455500001' } },
    ]);

    // The later terminal can still be edited; a new SIM claims a free identity, and the clashing number is refused again.
    await sql`UPDATE terminal SET remark = 'kept', sim = '14466600002' WHERE id = ${later}`.execute(db);
    expect((await sql`SELECT identity FROM terminal_identity WHERE terminal_id = ${later} ORDER BY identity`.execute(db)).rows).toEqual([
      { identity: '14466600002' },
    ]);
    await expect(sql`UPDATE terminal SET terminal_no = '0014455500001' WHERE id = ${later}`.execute(db)).rejects.toThrow(
      /terminal_identity_pkey/,
    );
  });

  it('normalises in SQL exactly as the kit does', async () => {
    const samples = ['0', '000', '0001', '1000', '013800000009', 'A1', '0A1', ''];
    const r = await sql<{ v: string; n: string }>`SELECT v, terminal_identity_of(v) AS n FROM unnest(${samples}::text[]) AS v`.execute(
      database.db,
    );
    expect(r.rows.map((x) => x.n)).toEqual(samples.map(deviceIdentity));
  });
});
