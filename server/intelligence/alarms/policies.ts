/**
 * Thresholds come from the enabled policies of the vehicle's organisation and its ancestors: for
 * each alarm type the nearest organisation that has one wins (its lowest id, if it has several).
 */

import type { DB } from '../../platform/db/tables';
import { sql, type Kysely } from 'kysely';
import { isAlarmType, type AlarmType } from './types';
import { pathAbove } from '../../platform/scope';

export interface AlarmPolicy {
  id: number;
  orgId: number;
  alarmType: AlarmType;
  /** km/h for OverSpeed, volts for Low, metres for Trail; null when the type has none. */
  threshold: number | null;
  durationMinutes: number | null;
  /** Per-type parameters (schemas/kit/policyParams.ts); {} when none. */
  params: Record<string, number>;
}

export type PolicySet = ReadonlyMap<AlarmType, AlarmPolicy>;

/** A policy row with its organisation's depth, as POLICY_COLUMNS selects it over `policy p JOIN organisation o`. */
export interface PolicyRow {
  id: number;
  org_id: number;
  alarm_type: string;
  threshold: number | null;
  duration_minutes: number | null;
  params?: unknown;
  depth: number;
}

export const POLICY_COLUMNS = sql.raw('p.id, p.org_id, p.alarm_type, p.threshold, p.duration_minutes, p.params, length(o.path) AS depth');

/** Numeric parameters only: anything else was refused on write, or predates the schema. */
function paramsOf(raw: unknown): Record<string, number> {
  const o = typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw;
  if (!o || typeof o !== 'object') return {};
  return Object.fromEntries(
    Object.entries(o as Record<string, unknown>).filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1])),
  );
}

/** Picks, per type, the policy of the deepest organisation (rows of the path's organisations). */
export function nearestPolicies(rows: readonly PolicyRow[]): Map<AlarmType, AlarmPolicy> {
  const sorted = [...rows].sort((a, b) => b.depth - a.depth || a.id - b.id);
  const out = new Map<AlarmType, AlarmPolicy>();
  for (const r of sorted) {
    if (!isAlarmType(r.alarm_type) || out.has(r.alarm_type)) continue;
    out.set(r.alarm_type, {
      id: r.id,
      orgId: r.org_id,
      alarmType: r.alarm_type,
      threshold: r.threshold === null ? null : Number(r.threshold),
      durationMinutes: r.duration_minutes,
      params: paramsOf(r.params),
    });
  }
  return out;
}

/** The policies in force for vehicles of the organisation at `orgPath` ('/1/4/9/'). */
export async function policiesFor(db: Kysely<DB>, orgPath: string): Promise<Map<AlarmType, AlarmPolicy>> {
  const r = await sql<PolicyRow>`
    SELECT ${POLICY_COLUMNS}
    FROM policy p JOIN organisation o ON o.id = p.org_id
    WHERE p.enabled AND ${pathAbove('o.path', orgPath)}`.execute(db);
  return nearestPolicies(r.rows);
}

/** The organisation path of each vehicle (deleted ones are absent), for its policies. */
export async function orgPathsOf(db: Kysely<DB>, vehicleIds: readonly number[]): Promise<Map<number, string>> {
  const r = await sql<{
    id: number;
    path: string;
  }>`SELECT v.id, o.path FROM vehicle v JOIN organisation o ON o.id = v.org_id WHERE v.id = ANY(${[...new Set(vehicleIds)]}::int[])`.execute(
    db,
  );
  return new Map(r.rows.map((x) => [x.id, x.path]));
}
