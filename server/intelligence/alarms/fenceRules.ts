/**
 * The fences that apply to a vehicle, read from the database: open fences linked to it, or linked
 * to none and of its organisation or an ancestor (the alarm and behaviour derivers, through the
 * pass's lookups: settingsCache.ts).
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import { pathAbove } from '../../platform/scope';
import { areaOf, type FenceRule } from './detectors/fences';

/** Open fences that apply to the vehicle: linked to it, or linked to none and of an ancestor organisation. */
export async function fencesFor(db: Kysely<DB>, vehicleId: number, orgPath: string): Promise<FenceRule[]> {
  const r = await sql<{
    id: number;
    name: string;
    fence_type: string;
    geometry: unknown;
    dwell_seconds: number;
    alarm_on_enter: boolean | null;
    alarm_on_exit: boolean | null;
    speed_limit: number | null;
  }>`
    SELECT f.id, f.name, f.fence_type, f.geometry, f.dwell_seconds, f.alarm_on_enter, f.alarm_on_exit, f.speed_limit
    FROM fence f JOIN organisation o ON o.id = f.org_id
    WHERE COALESCE(f.status, 'open') = 'open'
      AND (EXISTS (SELECT 1 FROM vehicle_fence l WHERE l.fence_id = f.id AND l.vehicle_id = ${vehicleId})
           OR (NOT EXISTS (SELECT 1 FROM vehicle_fence l WHERE l.fence_id = f.id) AND ${pathAbove('o.path', orgPath)}))
    ORDER BY f.id`.execute(db);
  const out: FenceRule[] = [];
  for (const f of r.rows) {
    const geometry = (typeof f.geometry === 'string' ? JSON.parse(f.geometry) : f.geometry) as Parameters<typeof areaOf>[1];
    const area = areaOf(f.fence_type, geometry);
    if (!area) continue;
    out.push({
      id: f.id,
      name: f.name,
      area,
      dwellSeconds: f.dwell_seconds,
      alarmOnEnter: f.alarm_on_enter !== false,
      alarmOnExit: f.alarm_on_exit !== false,
      speedLimit: f.speed_limit,
    });
  }
  return out;
}
