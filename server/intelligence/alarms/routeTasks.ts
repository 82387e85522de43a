/**
 * The tasks with a planned route that Skewing is measured against, read by the pass for its
 * windows (deriver.ts), several vehicles in one statement.
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import { boundText, type TimeRange } from '../deriver';
import type { RouteTask } from './detectors/aiRules';

/** Per range, in the order given, its vehicle's tasks with a route (not cancelled) that overlap it, by id. */
export async function routeTasksMany(db: Kysely<DB>, ranges: ReadonlyArray<TimeRange & { vehicleId: number }>): Promise<RouteTask[][]> {
  const out: RouteTask[][] = ranges.map(() => []);
  if (!ranges.length) return out;
  const r = await sql<{ ord: number; id: number; name: string; route_line: unknown; start_time: Date | null; end_time: Date | null }>`
    SELECT w.ord, t.id, t.name, t.route_line, t.start_time, t.end_time
    FROM unnest(${ranges.map((x) => x.vehicleId)}::int[], ${ranges.map((x) => boundText(x.from))}::timestamptz[], ${ranges.map((x) => boundText(x.to))}::timestamptz[])
      WITH ORDINALITY AS w(vehicle_id, lo, hi, ord)
    JOIN task t ON t.vehicle_id = w.vehicle_id AND t.route_line IS NOT NULL AND COALESCE(t.status, 'pending') <> 'cancelled'
      AND (t.start_time IS NULL OR t.start_time < w.hi) AND (t.end_time IS NULL OR t.end_time >= w.lo)
    ORDER BY w.ord, t.id`.execute(db);
  for (const t of r.rows)
    out[Number(t.ord) - 1].push({
      id: t.id,
      name: t.name,
      line: (typeof t.route_line === 'string' ? JSON.parse(t.route_line) : t.route_line) as number[][],
      begin: t.start_time ? new Date(t.start_time).getTime() : -Infinity,
      end: t.end_time ? new Date(t.end_time).getTime() : Infinity,
    });
  return out;
}
