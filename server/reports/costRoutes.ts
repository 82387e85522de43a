/**
 * The true cost of each vehicle: fuel (the ledger's cost, from its litres and the prices in force),
 * maintenance (done work orders, on their service day: the total cost, else parts plus labour) and
 * the other costs entered or imported (tolls, insurance, fines, tyres, parking, other) per vehicle
 * and day; summed by day, month, vehicle, model or organisation with cost per km and per day. By
 * vehicle, also the cost page's xlsx (export and scheduled report).
 */

import type { FastifyInstance } from 'fastify';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { callerOf } from '../platform/auth/authenticate';
import type { Caller } from '../platform/auth/caller';
import { NONE } from '../../schemas/kit/authority';
import { COST_GROUPS, OTHER_COST_KINDS, costSummarySchema, type CostFigures, type CostGroup } from '../../schemas/kit/costs';
import { COST_VEHICLE_COLUMNS, type CostVehicleRow } from '../../schemas/kit/reportColumns';
import type { DB } from '../platform/db/tables';
import { dayCriteria } from './ranges';
import { reportExportRoute, type ReportSheet } from './reportSheet';
import { ledgerBody } from './schemas';
import { vehicleInScope, vehicleScope } from './scope';
import type { ReportDeps } from './tripRoutes';

export interface CostCriteria {
  begin: string;
  end: string;
  vehicleId?: number | null;
  orgId?: number | null;
  by?: CostGroup | null;
}

/** Each cost of the vehicles in scope between two local days, one row per source item. */
function costItems(caller: Caller, c: CostCriteria, join: RawBuilder<unknown> = sql``): RawBuilder<unknown> {
  const inRange = (col: string) => sql`${sql.ref(col)} >= ${c.begin}::date AND ${sql.ref(col)} <= ${c.end}::date`;
  return sql`(
    SELECT l.vehicle_id, l.day, l.cost AS fuel, 0::float8 AS maintenance, NULL::text AS kind, 0::float8 AS amount, l.mileage_km
      FROM ledger_day l WHERE ${inRange('l.day')}
    UNION ALL
    SELECT w.vehicle_id, w.service_date, 0, COALESCE(w.cost, COALESCE(w.parts_cost, 0) + COALESCE(w.labour_cost, 0)), NULL, 0, 0
      FROM work_order w WHERE w.status = 'done' AND ${inRange('w.service_date')}
    UNION ALL
    SELECT k.vehicle_id, k.day, 0, 0, k.kind, k.amount, 0 FROM vehicle_cost k WHERE ${inRange('k.day')}
  ) x JOIN vehicle v ON v.id = x.vehicle_id ${join} WHERE ${vehicleScope(caller, { orgId: c.orgId, vehicleId: c.vehicleId })}`;
}

const r2 = (n: number) => Math.round(n * 100) / 100;

const SUMS = sql`
  COALESCE(sum(x.fuel), 0)::float8 AS fuel,
  COALESCE(sum(x.maintenance), 0)::float8 AS maintenance,
  COALESCE(sum(x.amount), 0)::float8 AS other,
  ${sql.join(
    OTHER_COST_KINDS.map(
      (k) => sql`COALESCE(sum(x.amount) FILTER (WHERE x.kind = ${k}), 0)::float8 AS ${sql.ref(k === 'other' ? 'otherKind' : k)}`,
    ),
  )},
  COALESCE(sum(x.mileage_km), 0)::float8 AS "mileageKm"`;

type Sums = Omit<CostFigures, 'total' | 'perKm' | 'perDay'>;

/** Days of [begin, end], both local days. */
const daysOf = (c: Pick<CostCriteria, 'begin' | 'end'>) => Math.round((Date.parse(c.end) - Date.parse(c.begin)) / 86_400_000) + 1;

function figures(s: Sums, days: number): CostFigures {
  const total = s.fuel + s.maintenance + s.other;
  return {
    fuel: r2(s.fuel),
    maintenance: r2(s.maintenance),
    other: r2(s.other),
    toll: r2(s.toll),
    insurance: r2(s.insurance),
    fine: r2(s.fine),
    tyre: r2(s.tyre),
    parking: r2(s.parking),
    otherKind: r2(s.otherKind),
    total: r2(total),
    mileageKm: Math.round(s.mileageKm * 1000) / 1000,
    perKm: s.mileageKm > 0 ? Math.round((total / s.mileageKm) * 1000) / 1000 : null,
    perDay: r2(total / Math.max(1, days)),
  };
}

const GROUP: Record<CostGroup, { key: RawBuilder<unknown>; label: RawBuilder<unknown>; join: RawBuilder<unknown> }> = {
  day: { key: sql`x.day::text`, label: sql`x.day::text`, join: sql`` },
  month: { key: sql`to_char(x.day, 'YYYY-MM')`, label: sql`to_char(x.day, 'YYYY-MM')`, join: sql`` },
  vehicle: { key: sql`v.id::text`, label: sql`v.licence`, join: sql`` },
  // The model a vehicle is of is its free-text model (the vehicle models' names).
  model: { key: sql`COALESCE(v.model, '')`, label: sql`COALESCE(v.model, '')`, join: sql`` },
  org: { key: sql`o.id::text`, label: sql`o.name`, join: sql`JOIN organisation o ON o.id = v.org_id` },
};

export async function costTotals(db: Kysely<DB>, caller: Caller, c: CostCriteria): Promise<CostFigures> {
  const r = await sql<Sums>`SELECT ${SUMS} FROM ${costItems(caller, c)}`.execute(db);
  return figures(r.rows[0], daysOf(c));
}

export async function costRows(db: Kysely<DB>, caller: Caller, c: CostCriteria, by: CostGroup) {
  const g = GROUP[by];
  const r = await sql<Sums & { key: string; label: string; vehicles: number }>`
    SELECT ${g.key} AS key, ${g.label} AS label, count(DISTINCT v.id)::int AS vehicles, ${SUMS}
    FROM ${costItems(caller, c, g.join)}
    GROUP BY 1, 2 ORDER BY ${by === 'day' || by === 'month' ? sql`1` : sql`sum(x.fuel + x.maintenance + x.amount) DESC, 2`}`.execute(db);
  // By day, a row's cost per day is its own total; by month, over the month's days in the range; otherwise over the range's days.
  const daysIn = (key: string) => {
    if (by === 'day') return 1;
    if (by !== 'month') return daysOf(c);
    const first = key + '-01' > c.begin ? key + '-01' : c.begin;
    const next = new Date(Date.UTC(Number(key.slice(0, 4)), Number(key.slice(5, 7)), 1)).toISOString().slice(0, 10);
    const last = next <= c.end ? new Date(Date.parse(next) - 86_400_000).toISOString().slice(0, 10) : c.end;
    return daysOf({ begin: first, end: last });
  };
  return r.rows.map(({ key, label, vehicles, ...s }) => ({ key, label, vehicles, ...figures(s, daysIn(key)) }));
}

/** The costs per vehicle over the range, most first (the cost page's table by vehicle), as the export and a scheduled report write them. */
export const costSheet = ({ db, timeZone }: ReportDeps): ReportSheet<CostVehicleRow> => ({
  titleKey: 'reports.sheets.cost',
  columns: COST_VEHICLE_COLUMNS,
  rows: async (caller, body) => {
    const c = dayCriteria<CostCriteria>(body, timeZone);
    if (c.vehicleId) await vehicleInScope(db, caller, c.vehicleId);
    return costRows(db, caller, c, 'vehicle');
  },
});

export function registerCostRoutes(app: FastifyInstance, { db, timeZone }: ReportDeps): void {
  app.post(
    '/api/vehicle/cost/summary',
    {
      config: { permission: NONE, labels: 'reports.fields' },
      schema: {
        tags: ['cost'],
        summary:
          'fuel, maintenance and other costs of the vehicles in scope over a range of local days: the totals with cost per km and per day, and the rows by day, month, vehicle, model or organisation (criteria.by, default vehicle)',
        body: ledgerBody({ by: { enum: [...COST_GROUPS, null] } }),
        response: { 200: costSummarySchema },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const c = dayCriteria<CostCriteria>(req.body, timeZone);
      if (c.vehicleId) await vehicleInScope(db, caller, c.vehicleId);
      const [totals, rows] = await Promise.all([costTotals(db, caller, c), costRows(db, caller, c, c.by ?? 'vehicle')]);
      return { begin: c.begin, end: c.end, days: daysOf(c), totals, rows };
    },
  );
  reportExportRoute(
    app,
    '/api/vehicle/cost/summary',
    { labels: 'reports.fields', tag: 'cost', body: ledgerBody() },
    costSheet({ db, timeZone }),
  );
}
