/**
 * Reading and handling alarms, scoped to the caller's organisation subtree through the alarm's
 * vehicle. "Current" is current.ts's one definition (open, or ended within the last day and not
 * handled); without it, all (history, with the handled alarms new data withdrew or superseded:
 * intelligence/alarms/store.ts). Open and current count only alarms derivation still finds.
 */

import type { DB } from '../platform/db/tables';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Page } from '../../schemas/kit/entity';
import type { Caller } from '../platform/auth/caller';
import { AppError, notFound } from '../platform/http/errors';
import type { LiveRaisedAlarm } from '../telematics/live/hub';
import { orgUnder, pathOfOrg } from '../platform/scope';
import { currentAlarm } from './current';
import type { AlarmCategory } from '../intelligence/alarms/types';

export interface AlarmCriteria {
  type?: string | null;
  category?: AlarmCategory | null;
  vehicleId?: number | null;
  status?: 'open' | 'closed' | null;
  handled?: boolean | null;
  /** Current (current.ts): open, or ended recently and not handled; neither withdrawn nor superseded. */
  current?: boolean | null;
  /** What derivation made of it (intelligence/alarms/store.ts). */
  state?: AlarmState | null;
  /** Alarms that began in [begin, end] (ISO-8601). */
  begin?: string | null;
  end?: string | null;
  orgId?: number | null;
  fenceId?: number | null;
  /** One alarm (the handle route's answer; the console's link to the alarm that superseded one). */
  id?: number | null;
}

export const ALARM_ORDER = { begin: 'a.begin_time', end: 'a.end_time', type: 'a.type', level: 'a.level', licence: 'v.licence' } as const;

export interface AlarmQuery {
  criteria: AlarmCriteria;
  property: keyof typeof ALARM_ORDER;
  direction: 'ASC' | 'DESC';
  pageIndex: number;
  pageSize: number;
}

/** The list routes' request body (its schema: routes.ts). */
export interface Body {
  criteria?: AlarmCriteria | null;
  order?: { direction?: string | null; property?: keyof typeof ALARM_ORDER | null } | null;
  pageIndex?: number;
  pageSize?: number;
}

/** The request body as a query; `force` overrides criteria (the fence list: category fence). */
export function toQuery(b: Body | null, force: Partial<AlarmCriteria> = {}): AlarmQuery {
  return {
    criteria: { ...(b?.criteria ?? {}), ...force },
    property: b?.order?.property ?? 'begin',
    direction: b?.order?.direction ? (/^desc/i.test(b.order.direction) ? 'DESC' : 'ASC') : 'DESC',
    pageIndex: b?.pageIndex ?? 1,
    pageSize: b?.pageSize ?? 20,
  };
}

export const ALARM_STATES = ['current', 'withdrawn', 'superseded'] as const;
export type AlarmState = (typeof ALARM_STATES)[number];

/** A listed alarm: what live delivery announces, plus its status and handling. */
export interface AlarmRow extends LiveRaisedAlarm {
  status: 'open' | 'closed';
  state: AlarmState;
  /** The alarm that replaced a superseded one. */
  supersededBy: number | null;
  handled: boolean;
  handledBy: string | null;
  handledAt: string | null;
  note: string | null;
  fenceName: string | null;
}

type Fragment = RawBuilder<unknown>;

function conditions(caller: Caller, c: AlarmCriteria): Fragment {
  const parts: Fragment[] = [orgUnder('v.org_id', caller.orgPath)];
  if (c.id) parts.push(sql`a.id = ${c.id}`);
  if (c.type) parts.push(sql`a.type = ${c.type}`);
  if (c.category) parts.push(sql`a.category = ${c.category}`);
  if (c.vehicleId) parts.push(sql`a.vehicle_id = ${c.vehicleId}`);
  if (c.fenceId) parts.push(sql`a.fence_id = ${c.fenceId}`);
  if (c.status === 'open') parts.push(sql`a.end_time IS NULL AND a.state = 'current'`);
  if (c.status === 'closed') parts.push(sql`(a.end_time IS NOT NULL OR a.state <> 'current')`);
  if (c.handled === true || c.handled === false) parts.push(sql`a.handled = ${c.handled}`);
  if (c.current) parts.push(currentAlarm('a'));
  if (c.state) parts.push(sql`a.state = ${c.state}`);
  if (c.begin) parts.push(sql`a.begin_time >= ${c.begin}::timestamptz`);
  if (c.end) parts.push(sql`a.begin_time <= ${c.end}::timestamptz`);
  if (c.orgId) parts.push(orgUnder('v.org_id', pathOfOrg(c.orgId)));
  return sql.join(parts, sql` AND `);
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export async function queryAlarms(db: Kysely<DB>, caller: Caller, q: AlarmQuery): Promise<Page<AlarmRow>> {
  const where = conditions(caller, q.criteria);
  const dir = sql.raw(q.direction);
  const offset = (q.pageIndex - 1) * q.pageSize;
  const r = await sql<Omit<AlarmRow, 'begin' | 'end' | 'handledAt'> & { begin: Date; end: Date | null; handledAt: Date | null }>`
    SELECT a.id, a.vehicle_id AS "vehicleId", v.licence, a.type, a.category, a.level, a.begin_time AS begin, a.end_time AS "end",
           CASE WHEN a.end_time IS NULL AND a.state = 'current' THEN 'open' ELSE 'closed' END AS status, a.state, a.superseded_by AS "supersededBy", a.handled, a.latitude, a.longitude, a.value,
           a.detail, m.name AS "handledBy", a.handled_at AS "handledAt", a.note, a.fence_id AS "fenceId", f.name AS "fenceName"
    FROM alarm a
    JOIN vehicle v ON v.id = a.vehicle_id
    LEFT JOIN member m ON m.id = a.handled_by
    LEFT JOIN fence f ON f.id = a.fence_id
    WHERE ${where}
    ORDER BY ${sql.raw(ALARM_ORDER[q.property])} ${dir} NULLS LAST, a.id ${dir}
    LIMIT ${q.pageSize} OFFSET ${offset}`.execute(db);
  const data = r.rows.map((x) => ({
    ...x,
    begin: iso(x.begin)!,
    end: iso(x.end),
    handledAt: iso(x.handledAt),
    detail: typeof x.detail === 'string' ? (JSON.parse(x.detail) as Record<string, unknown>) : x.detail,
  }));
  if (data.length < q.pageSize && (data.length > 0 || offset === 0))
    return { data, total: offset + data.length, totalExact: true, pageIndex: q.pageIndex, pageSize: q.pageSize };
  const n = await sql<{ n: number }>`SELECT count(*)::int AS n FROM alarm a JOIN vehicle v ON v.id = a.vehicle_id WHERE ${where}`.execute(
    db,
  );
  return { data, total: n.rows[0]?.n ?? 0, totalExact: true, pageIndex: q.pageIndex, pageSize: q.pageSize };
}

/** Records the caller's note on an alarm of its subtree; 404 outside it, 406 when already handled. */
export async function handleAlarm(db: Kysely<DB>, caller: Caller, id: number, note: string): Promise<void> {
  const r = await sql<{ id: number; handled: boolean }>`
    SELECT a.id, a.handled FROM alarm a JOIN vehicle v ON v.id = a.vehicle_id
    WHERE a.id = ${id} AND ${orgUnder('v.org_id', caller.orgPath)}`.execute(db);
  const row = r.rows[0];
  if (!row) throw notFound();
  if (row.handled) throw new AppError(406, 'alarm.alreadyHandled');
  await sql`UPDATE alarm SET handled = true, handled_by = ${caller.memberId}, handled_at = now(), note = ${note} WHERE id = ${id} AND NOT handled`.execute(
    db,
  );
}
