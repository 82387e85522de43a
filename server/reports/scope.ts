/**
 * Organisation scope of the report routes: vehicles in the caller's subtree, narrowed to an
 * organisation's subtree (criteria.orgId) or one vehicle (criteria.vehicleId).
 */

import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Caller } from '../platform/auth/caller';
import type { DB } from '../platform/db/tables';
import { notFound } from '../platform/http/errors';
import { orgUnder, pathOfOrg } from '../platform/scope';

export interface ScopedVehicle {
  id: number;
  licence: string;
  orgId: number;
  orgName: string;
}

/**
 * Condition on a vehicle alias `v`: in the caller's subtree and, when given, in an organisation's
 * subtree (an organisation outside the caller's subtree simply matches nothing) and one vehicle.
 */
export function vehicleScope(caller: Caller, filter: { orgId?: number | null; vehicleId?: number | null } = {}): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [orgUnder('v.org_id', caller.orgPath)];
  if (filter.orgId) parts.push(orgUnder('v.org_id', pathOfOrg(filter.orgId)));
  if (filter.vehicleId) parts.push(sql`v.id = ${filter.vehicleId}`);
  return sql.join(parts, sql` AND `);
}

/** The vehicle when the caller may see it; 404 otherwise (as if it did not exist). */
export async function vehicleInScope(db: Kysely<DB>, caller: Caller, id: number): Promise<ScopedVehicle> {
  const r = await sql<ScopedVehicle>`
    SELECT v.id, v.licence, v.org_id AS "orgId", o.name AS "orgName"
    FROM vehicle v JOIN organisation o ON o.id = v.org_id WHERE v.id = ${id} AND ${vehicleScope(caller)}`.execute(db);
  if (!r.rows[0]) throw notFound();
  return r.rows[0];
}
