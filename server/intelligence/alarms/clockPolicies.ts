/**
 * What the alarm clock needs of the policies: for one type, the enabled policies of every
 * organisation, so each vehicle's nearest one can be picked without a query per vehicle.
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import { nearestPolicies, type AlarmPolicy } from './policies';
import type { AlarmType } from './types';

export interface ClockPolicies {
  /** The nearest policy of this type for a vehicle of the organisation at `orgPath`. */
  forPath(orgPath: string): AlarmPolicy | undefined;
  readonly any: boolean;
}

export async function clockPolicies(db: Kysely<DB>, type: AlarmType): Promise<ClockPolicies> {
  const rows = (
    await sql<{
      id: number;
      org_id: number;
      alarm_type: string;
      threshold: number | null;
      duration_minutes: number | null;
      params: unknown;
      path: string;
      depth: number;
    }>`
      SELECT p.id, p.org_id, p.alarm_type, p.threshold, p.duration_minutes, p.params, o.path, length(o.path) AS depth
      FROM policy p JOIN organisation o ON o.id = p.org_id
      WHERE p.enabled AND p.alarm_type = ${type}`.execute(db)
  ).rows;
  return {
    any: rows.length > 0,
    forPath: (orgPath) => nearestPolicies(rows.filter((p) => orgPath.startsWith(p.path))).get(type),
  };
}
