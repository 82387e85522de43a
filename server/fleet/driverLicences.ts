import { sql, type Kysely } from 'kysely';
import type { LicenceExpiry } from '../../schemas/kit/driverLicence';
import type { Page } from '../../schemas/kit/entity';
import type { Caller } from '../platform/auth/caller';
import type { EntityModel } from '../platform/crud/model';
import { scopeCondition } from '../platform/crud/query';
import { countUpTo, offsetOf, pageOf, type Direction } from '../platform/paging';
import { orgUnder } from '../platform/scope';
import type { DB } from '../platform/db/tables';

export type { LicenceExpiry };

export interface LicenceQuery {
  /** Expired, or expiring within this many days from today (0 … 365). */
  withinDays: number;
  direction: Direction;
  pageIndex: number;
  pageSize: number;
}

/**
 * Drivers of the caller's subtree whose licence has expired or expires within `withinDays`, by
 * expiry (the id breaks ties so pages never overlap). "Today" is the database's date, the same one
 * the comparison uses, so `daysLeft` and the filter always agree.
 */
export async function licenceExpiries(db: Kysely<DB>, drivers: EntityModel, caller: Caller, q: LicenceQuery): Promise<Page<LicenceExpiry>> {
  const where = sql`${scopeCondition(drivers, caller)} AND t.license_expire IS NOT NULL AND t.license_expire <= CURRENT_DATE + ${q.withinDays}::int`;
  const dir = sql.raw(q.direction);
  const offset = offsetOf(q);
  const rows = await sql<LicenceExpiry>`
    SELECT t.id, t.name, t.mobile, t.org_id AS "orgId", o.name AS "orgName", t.license_no AS "licenseNo", t.license_class AS "licenseClass",
           to_char(t.license_expire, 'YYYY-MM-DD') AS "licenseExpire", (t.license_expire - CURRENT_DATE)::int AS "daysLeft", t.status,
           COALESCE((SELECT json_agg(json_build_object('id', v.id, 'licence', v.licence) ORDER BY v.licence, v.id)
                     FROM vehicle v WHERE v.driver_id = t.id AND ${orgUnder('v.org_id', caller.orgPath)}), '[]'::json) AS vehicles
    FROM driver t JOIN organisation o ON o.id = t.org_id
    WHERE ${where}
    ORDER BY t.license_expire ${dir}, t.id ${dir}
    LIMIT ${q.pageSize} OFFSET ${offset}`.execute(db);
  const data = rows.rows.map((r) => ({
    ...r,
    vehicles: typeof r.vehicles === 'string' ? (JSON.parse(r.vehicles) as LicenceExpiry['vehicles']) : r.vehicles,
  }));
  return pageOf(q, data, (limit) => countUpTo(db, sql`SELECT 1 FROM driver t WHERE ${where}`, limit));
}
