/** Bench fixtures: N terminals with a vehicle each in one demo team, inserted with unnest. */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../server/platform/db/tables';

export const benchPhone = (n: number) => `8100${String(n).padStart(8, '0')}`;

export async function provisionTerminals(db: Kysely<DB>, count: number, orgCode = 'HD-SH'): Promise<string[]> {
  const org = await db.selectFrom('organisation').select('id').where('code', '=', orgCode).executeTakeFirstOrThrow();
  const phones: string[] = [];
  for (let start = 1; start <= count; start += 5000) {
    const n = Math.min(5000, count - start + 1);
    const nums = Array.from({ length: n }, (_, i) => start + i);
    const terminalNos = nums.map(benchPhone);
    phones.push(...terminalNos);
    await sql`INSERT INTO terminal (org_id, terminal_no, sim)
      SELECT ${org.id}, t, s FROM unnest(${terminalNos}::text[], ${nums.map((k) => `1460${String(k).padStart(9, '0')}`)}::text[]) AS u(t, s)`.execute(
      db,
    );
    await sql`INSERT INTO vehicle (org_id, licence, terminal_id)
      SELECT ${org.id}, 'BENCH' || t.terminal_no, t.id FROM terminal t WHERE t.terminal_no = ANY(${terminalNos}::text[])`.execute(db);
  }
  return phones;
}
