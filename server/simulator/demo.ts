/** The small demo fleet `npm start` runs against its own gateway when the demo data is seeded. */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/tables';
import { demoFixtures } from '../seed/fixtures';
import type { Jt808Version } from '../telematics/jt808/codec';
import type { FleetTerminal } from './fleet';
import { CITIES } from './vehicle';

const CITY_OF_TEAM: Record<string, string> = { 'HD-SH': 'shanghai', 'HD-HZ': 'hangzhou', 'HN-SZ': 'shenzhen' };

/** Up to `count` demo terminals still in the database, alternating between the teams' cities. */
export async function demoFleet(db: Kysely<DB>, count: number): Promise<FleetTerminal[]> {
  const numbers = demoFixtures.terminals.map((t) => t.terminalNo);
  if (!count || !numbers.length) return [];
  const r = await sql<{ terminal_no: string; protocol: string | null; team: string | null }>`
    SELECT t.terminal_no, t.protocol, o.code AS team
    FROM terminal t LEFT JOIN vehicle v ON v.terminal_id = t.id LEFT JOIN organisation o ON o.id = v.org_id
    WHERE t.terminal_no IN (${sql.join(numbers)}) AND t.in_use IS NOT FALSE`.execute(db);
  const byTeam = new Map<string, typeof r.rows>();
  for (const row of r.rows.sort((a, b) => a.terminal_no.localeCompare(b.terminal_no))) {
    const team = row.team ?? '';
    byTeam.set(team, [...(byTeam.get(team) ?? []), row]);
  }
  const out: FleetTerminal[] = [];
  const queues = [...byTeam.values()];
  for (let i = 0; out.length < count && queues.some((q) => q.length); i++) {
    const row = queues[i % queues.length].shift();
    if (!row) continue;
    out.push({
      phone: row.terminal_no,
      version: (row.protocol === '2019' ? 2019 : 2013) as Jt808Version,
      city: CITIES.find((c) => c.name === CITY_OF_TEAM[row.team ?? '']),
    });
  }
  return out;
}
