/**
 * What the alarm clock needs of the policies: for one type, the enabled policies of every
 * organisation, so each vehicle's nearest one can be picked without a query per vehicle.
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import { nearestPolicies, POLICY_COLUMNS, type AlarmPolicy, type PolicyRow } from './policies';
import type { AlarmType } from './types';

export interface ClockPolicies {
  /** The nearest policy of this type for a vehicle of the organisation at `orgPath`. */
  forPath(orgPath: string): AlarmPolicy | undefined;
  readonly any: boolean;
}

export async function clockPolicies(db: Kysely<DB>, type: AlarmType): Promise<ClockPolicies> {
  const rows = (
    await sql<PolicyRow & { path: string }>`
      SELECT ${POLICY_COLUMNS}, o.path
      FROM policy p JOIN organisation o ON o.id = p.org_id
      WHERE p.enabled AND p.alarm_type = ${type}`.execute(db)
  ).rows;
  return {
    any: rows.length > 0,
    forPath: (orgPath) => nearestPolicies(rows.filter((p) => orgPath.startsWith(p.path))).get(type),
  };
}
