import { sql, type Kysely } from 'kysely';
import type { DB } from '../platform/db/tables';

/** The route the demo schedules name (the demo fleet's port run). */
export const DEMO_SCHEDULE_ROUTE = '外高桥—洋山';

/**
 * The demo's schedules, so the team pages show data on a fresh demo database: each vehicle's driver
 * scheduled on it (all day) on every day of the played history it drove, from the daily ledger.
 * Runs once the history is derived; a second run adds nothing (one shift per driver and day).
 * Answers the schedules added.
 */
export async function seedDemoSchedules(db: Kysely<DB>): Promise<number> {
  const r = await sql`
    INSERT INTO schedule (org_id, driver_id, vehicle_id, work_date, shift, route)
    SELECT v.org_id, v.driver_id, v.id, l.day, 'allDay', ${DEMO_SCHEDULE_ROUTE}
    FROM ledger_day l JOIN vehicle v ON v.id = l.vehicle_id
    WHERE v.driver_id IS NOT NULL AND l.trip_count > 0
    ORDER BY l.day, v.id
    ON CONFLICT (driver_id, work_date, shift) DO NOTHING`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}
