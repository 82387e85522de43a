/**
 * Vehicle health reports (SPEC §7 vehicleDailyHealth) over the derived daily health index
 * (health_day; README "Health"): the index trend by day, the vehicles by band, and the totals.
 */

import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { callerOf } from '../platform/auth/authenticate';
import type { Caller } from '../platform/auth/caller';
import type { DB } from '../platform/db/tables';
import type { HealthBand, HealthFault } from '../intelligence/behaviour/health';
import type { BehaviourCriteria } from './behaviourRoutes';
import { dayCriteria } from './ranges';
import { date, ledgerBody, listOf, reportRoutes } from './schemas';
import { vehicleInScope, vehicleScope } from './scope';
import type { ReportDeps } from './tripRoutes';
import type { HealthVehicleRow } from '../../schemas/kit/reportColumns';
import { reportExportRoute, type ReportSheet } from './reportSheet';
import { HEALTH_VEHICLE_COLUMNS } from '../../schemas/kit/reportColumns';
import { int } from '../platform/crud/routeSpec';

const BASE = '/api/vehicle/vehicleDailyHealth';
const LABELS = 'behaviour.fields';
const route = reportRoutes(LABELS, 'health');
const band = { enum: ['healthy', 'attention', 'fault'] } as const;

type LatestRow = HealthVehicleRow;
/** A health_day row as read: faults without their cause yet (a JSON string on some drivers). */
type StoredRow = Omit<LatestRow, 'faults'> & { faults: HealthFault[] | string };

const from = (caller: Caller, c: BehaviourCriteria) => sql`health_day h JOIN vehicle v ON v.id = h.vehicle_id
  WHERE h.day >= ${c.begin}::date AND h.day <= ${c.end}::date AND ${vehicleScope(caller, { orgId: c.orgId, vehicleId: c.vehicleId })}`;

/** Each vehicle's last day in the range (its current state as of the range's end). */
async function latest(db: Kysely<DB>, caller: Caller, c: BehaviourCriteria): Promise<LatestRow[]> {
  if (c.vehicleId) await vehicleInScope(db, caller, c.vehicleId);
  const r = await sql<StoredRow>`
    SELECT DISTINCT ON (v.licence, v.id) v.id AS "vehicleId", v.licence, h.day::text AS date, h.health_index AS index, h.band,
           h.faults, h.min_battery_v AS "minBatteryV", h.max_coolant_c AS "maxCoolantC", h.alarm_count AS "alarmCount"
    FROM ${from(caller, c)} ORDER BY v.licence, v.id, h.day DESC`.execute(db);
  return withCauses(
    db,
    r.rows.map((x) => ({ ...x, faults: typeof x.faults === 'string' ? (JSON.parse(x.faults) as HealthFault[]) : x.faults })),
  );
}

/** Each open fault with its cause from the expert library (shared by every tenant), as its remedy already is. */
async function withCauses(db: Kysely<DB>, rows: Array<Omit<LatestRow, 'faults'> & { faults: HealthFault[] }>): Promise<LatestRow[]> {
  const codes = [...new Set(rows.flatMap((r) => r.faults.map((f) => f.code)))];
  const found = codes.length
    ? (
        await sql<{ code: string; cause: string | null }>`
        SELECT DISTINCT ON (dtc_code) dtc_code AS code, cause FROM expert_fault WHERE dtc_code = ANY(${codes}::text[]) ORDER BY dtc_code, id`.execute(
          db,
        )
      ).rows
    : [];
  const cause = new Map(found.map((f) => [f.code, f.cause]));
  return rows.map((r) => ({ ...r, faults: r.faults.map((f) => ({ ...f, cause: cause.get(f.code) ?? null })) }));
}

const counts = (rows: LatestRow[]) => ({
  vehicles: rows.length,
  healthy: rows.filter((r) => r.band === 'healthy').length,
  attention: rows.filter((r) => r.band === 'attention').length,
  fault: rows.filter((r) => r.band === 'fault').length,
});

const faultSchema = {
  type: 'object',
  properties: {
    code: { type: 'string' },
    level: { type: 'string' },
    name: { type: ['string', 'null'] },
    resolvent: { type: ['string', 'null'] },
    cause: { type: ['string', 'null'] },
  },
};
const vehicleSchema = {
  type: 'object',
  properties: {
    vehicleId: int,
    licence: { type: 'string' },
    date,
    index: int,
    band,
    faults: listOf(faultSchema),
    minBatteryV: { type: ['number', 'null'] },
    maxCoolantC: { type: ['number', 'null'] },
    alarmCount: int,
  },
};
const countsSchema = { vehicles: int, healthy: int, attention: int, fault: int } as const;

/** Each vehicle's last day in the range, worst index first (the bands are ranges of the index, so each band stays worst first too). */
const worstFirstOf =
  ({ db, timeZone }: ReportDeps) =>
  async (caller: Caller, body: unknown) =>
    (await latest(db, caller, dayCriteria<BehaviourCriteria>(body, timeZone))).sort(
      (a, b) => a.index - b.index || a.licence.localeCompare(b.licence),
    );

/** The fleet's vehicles by health, worst first (narrowed to `criteria.band` when given), as the export and a scheduled report write them. */
export const healthSheet = (deps: ReportDeps): ReportSheet<Awaited<ReturnType<ReturnType<typeof worstFirstOf>>>[number]> => {
  const worstFirst = worstFirstOf(deps);
  return {
    titleKey: 'reports.sheets.health',
    columns: HEALTH_VEHICLE_COLUMNS,
    rows: async (caller, body) => {
      const band = (body as { criteria: { band?: HealthBand | null } }).criteria.band;
      return (await worstFirst(caller, body)).filter((r) => !band || r.band === band);
    },
  };
};

export function registerHealthRoutes(app: FastifyInstance, deps: ReportDeps): void {
  const { db, timeZone } = deps;
  const criteriaOf = (body: unknown) => dayCriteria<BehaviourCriteria>(body, timeZone);
  const worstFirst = worstFirstOf(deps);

  app.post(
    `${BASE}/vehicleDailyHealthEchart`,
    route(
      'the health index by local day: the mean over the vehicles in scope (one vehicle with criteria.vehicleId), and the vehicles per band',
      ledgerBody(),
      listOf({ type: 'object', properties: { date, index: { type: 'number' }, ...countsSchema } }),
    ),
    async (req) => {
      const caller = callerOf(req);
      const c = criteriaOf(req.body);
      if (c.vehicleId) await vehicleInScope(db, caller, c.vehicleId);
      return (
        await sql<{ date: string; index: number; vehicles: number; healthy: number; attention: number; fault: number }>`
          SELECT h.day::text AS date, round(avg(h.health_index)::numeric, 1)::float8 AS index, count(*)::int AS vehicles,
                 count(*) FILTER (WHERE h.band = 'healthy')::int AS healthy, count(*) FILTER (WHERE h.band = 'attention')::int AS attention,
                 count(*) FILTER (WHERE h.band = 'fault')::int AS fault
          FROM ${from(caller, c)} GROUP BY h.day ORDER BY h.day`.execute(db)
      ).rows;
    },
  );

  app.post(
    `${BASE}/vehicleDailyHealthFleet`,
    route(
      "the vehicles by band (healthy, attention, fault) on each one's last day in the range, with their open faults and remedies",
      ledgerBody(),
      { type: 'object', properties: { healthy: listOf(vehicleSchema), attention: listOf(vehicleSchema), fault: listOf(vehicleSchema) } },
    ),
    async (req) => {
      const rows = await worstFirst(callerOf(req), req.body);
      return {
        healthy: rows.filter((r) => r.band === 'healthy'),
        attention: rows.filter((r) => r.band === 'attention'),
        fault: rows.filter((r) => r.band === 'fault'),
      };
    },
  );
  reportExportRoute(
    app,
    `${BASE}/vehicleDailyHealthFleet`,
    { labels: LABELS, tag: 'health', body: ledgerBody({ band: { enum: ['healthy', 'attention', 'fault', null] } }) },
    healthSheet(deps),
  );

  app.post(
    `${BASE}/total`,
    route("totals over each vehicle's last day in the range: vehicles per band, the mean index, open trouble codes", ledgerBody(), {
      type: 'object',
      properties: { ...countsSchema, index: { type: ['number', 'null'] }, openFaults: int },
    }),
    async (req) => {
      const rows = await latest(db, callerOf(req), criteriaOf(req.body));
      const index = rows.length ? Math.round((rows.reduce((s, r) => s + r.index, 0) / rows.length) * 10) / 10 : null;
      return { ...counts(rows), index, openFaults: rows.reduce((s, r) => s + r.faults.length, 0) };
    },
  );
}
