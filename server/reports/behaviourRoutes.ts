/**
 * Driving behaviour reports (SPEC §7 dailyDrivingBehavior): events by type by day, the safety score
 * by day with the fleet's ranking, and the same score with proposed weights (preview, nothing
 * saved). Scores are computed here from the derived events (behaviour_event, less those a review
 * dismissed), the ledger's distance and driving time, and each vehicle's organisation's weights
 * (server/intelligence/behaviour/score.ts).
 */

import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { callerOf } from '../platform/auth/authenticate';
import type { Caller } from '../platform/auth/caller';
import type { DB } from '../platform/db/tables';
import { roundScore, safetyScore, type ScoredEvent } from '../intelligence/behaviour/score';
import type { BehaviourFigures } from '../../schemas/kit/behaviourFigures';
import { safetySettingsFor, WEIGHT_KEYS, type SafetyWeights } from '../intelligence/behaviour/settings';
import { dayCriteria } from './ranges';
import { date, ledgerBody, listOf, reportRoutes } from './schemas';
import { vehicleInScope, vehicleScope } from './scope';
import type { ReportDeps } from './tripRoutes';
import { reportExportRoute, type ReportSheet } from './reportSheet';
import { SAFETY_RANK_COLUMNS } from '../../schemas/kit/reportColumns';
import { int, num } from '../platform/crud/routeSpec';
import { typed } from '../platform/http/typed';

const BASE = '/api/vehicle/dailyDrivingBehavior';
const LABELS = 'behaviour.fields';
const route = reportRoutes(LABELS, 'behaviour');
const score = { type: ['number', 'null'], description: '0–100; null when no distance was driven' } as const;

export interface BehaviourCriteria {
  begin: string;
  end: string;
  vehicleId?: number | null;
  orgId?: number | null;
}

interface DayRow extends BehaviourFigures {
  vehicleId: number;
  licence: string;
  orgPath: string;
  date: string;
  /** The day's events by kind and severity, less the dismissed ones. */
  groups: ScoredEvent[];
}

const eventFigures = {
  harshAcceleration: int,
  harshBraking: int,
  sharpTurn: int,
  fatigue: int,
  distraction: int,
  speedingS: int,
  nightS: int,
} as const;

/** A range's figures from its events (counts for the counted kinds, seconds for the runs). */
export function figuresOf(groups: readonly ScoredEvent[], distanceKm: number, drivingS: number): BehaviourFigures {
  const f: BehaviourFigures = {
    harshAcceleration: 0,
    harshBraking: 0,
    sharpTurn: 0,
    fatigue: 0,
    distraction: 0,
    speedingS: 0,
    nightS: 0,
    distanceKm,
    drivingS,
  };
  for (const g of groups) {
    if (g.kind === 'speeding') f.speedingS += g.durationS;
    else if (g.kind === 'night') f.nightS += g.durationS;
    else f[g.kind] += g.count;
  }
  return f;
}

/** SQL for the events of behaviour_event `e` a review has not dismissed. */
export const notDismissed = sql`NOT EXISTS (SELECT 1 FROM behaviour_review r
  WHERE r.vehicle_id = e.vehicle_id AND r.kind = e.kind AND r.at = e.at AND r.state = 'dismissed')`;

const weight = { type: 'number', minimum: 0, maximum: 10 } as const;
/** Each weight of WEIGHT_KEYS, all optional (the `satisfies` keeps the two lists the same). */
export const weightsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    harshAcceleration: weight,
    harshBraking: weight,
    sharpTurn: weight,
    speedingLight: weight,
    speedingModerate: weight,
    speedingSevere: weight,
    fatigue: weight,
    distraction: weight,
    night: weight,
  },
} as const satisfies {
  readonly type: 'object';
  readonly additionalProperties: false;
  readonly properties: Record<(typeof WEIGHT_KEYS)[number], unknown>;
};

/** The event groups json_agg gave (PGlite may hand json over as text). */
export const groupsOf = (raw: unknown): ScoredEvent[] => ((typeof raw === 'string' ? JSON.parse(raw) : raw) as ScoredEvent[] | null) ?? [];

/** Per vehicle and day in scope: the events by kind and severity and the ledger's distance and driving time. */
async function dayRows(db: Kysely<DB>, caller: Caller, c: BehaviourCriteria): Promise<DayRow[]> {
  if (c.vehicleId) await vehicleInScope(db, caller, c.vehicleId);
  const r = await sql<{
    vehicleId: number;
    licence: string;
    orgPath: string;
    date: string;
    distanceKm: number;
    drivingS: number;
    groups: unknown;
  }>`
    SELECT v.id AS "vehicleId", v.licence, o.path AS "orgPath", b.day::text AS date,
           COALESCE(l.mileage_km, 0)::float8 AS "distanceKm", COALESCE(l.driving_s, 0)::int AS "drivingS", g.groups
    FROM behaviour_day b JOIN vehicle v ON v.id = b.vehicle_id JOIN organisation o ON o.id = v.org_id
    LEFT JOIN ledger_day l ON l.vehicle_id = b.vehicle_id AND l.day = b.day
    LEFT JOIN LATERAL (
      SELECT json_agg(json_build_object('kind', x.kind, 'severity', x.severity, 'count', x.count, 'durationS', x.duration_s)) AS groups
      FROM (SELECT e.kind, e.severity, sum(e.count)::int AS count, sum(e.duration_s)::int AS duration_s
            FROM behaviour_event e WHERE e.vehicle_id = b.vehicle_id AND e.day = b.day AND ${notDismissed}
            GROUP BY e.kind, e.severity) x
    ) g ON true
    WHERE b.day >= ${c.begin}::date AND b.day <= ${c.end}::date AND ${vehicleScope(caller, { orgId: c.orgId, vehicleId: c.vehicleId })}
    ORDER BY b.day, v.licence`.execute(db);
  return r.rows.map((row) => {
    const groups = groupsOf(row.groups);
    return { ...row, groups, ...figuresOf(groups, Number(row.distanceKm), Number(row.drivingS)) };
  });
}

const sumOf = (rows: readonly DayRow[]): BehaviourFigures & { groups: ScoredEvent[] } => {
  const groups = rows.flatMap((r) => r.groups);
  const distanceKm = Math.round(rows.reduce((s, r) => s + r.distanceKm, 0) * 1000) / 1000;
  return {
    ...figuresOf(
      groups,
      distanceKm,
      rows.reduce((s, r) => s + r.drivingS, 0),
    ),
    groups,
  };
};

/** The figures a report shows (without the groups it scored). */
const shown = ({ groups: _groups, ...figures }: BehaviourFigures & { groups: ScoredEvent[] }): BehaviourFigures => figures;

/**
 * Scores by day (the fleet's: the mean of its vehicles' scores weighted by their distance) and the
 * ranking (each vehicle's score over the whole range, best first, vehicles without one last).
 * `proposed` replaces every vehicle's weights (the preview).
 */
export async function safetyReport(db: Kysely<DB>, caller: Caller, c: BehaviourCriteria, proposed?: Partial<SafetyWeights>) {
  const rows = await dayRows(db, caller, c);
  const byPath = new Map<string, SafetyWeights>();
  const weightsOf = async (path: string) => {
    let w = byPath.get(path);
    if (!w) {
      w = { ...(await safetySettingsFor(db, path)).weights, ...(proposed ?? {}) };
      byPath.set(path, w);
    }
    return w;
  };
  const days = new Map<string, { weighted: number; km: number; rows: DayRow[] }>();
  const vehicles = new Map<number, { licence: string; path: string; rows: DayRow[] }>();
  for (const r of rows) {
    const s = safetyScore(r.groups, r, await weightsOf(r.orgPath));
    const d = days.get(r.date) ?? { weighted: 0, km: 0, rows: [] };
    if (s !== null) {
      d.weighted += s * r.distanceKm;
      d.km += r.distanceKm;
    }
    d.rows.push(r);
    days.set(r.date, d);
    const v = vehicles.get(r.vehicleId) ?? { licence: r.licence, path: r.orgPath, rows: [] };
    v.rows.push(r);
    vehicles.set(r.vehicleId, v);
  }
  const ranking = [];
  for (const [vehicleId, v] of vehicles) {
    const total = sumOf(v.rows);
    ranking.push({
      vehicleId,
      licence: v.licence,
      score: roundScore(safetyScore(total.groups, total, await weightsOf(v.path))),
      ...shown(total),
    });
  }
  ranking.sort((a, b) => (b.score ?? -1) - (a.score ?? -1) || a.licence.localeCompare(b.licence));
  return {
    days: [...days].map(([day, d]) => ({
      date: day,
      score: d.km > 0 ? Math.round((d.weighted / d.km) * 10) / 10 : null,
      ...shown(sumOf(d.rows)),
    })),
    ranking: ranking.map((r, i) => ({ rank: r.score === null ? null : i + 1, ...r })),
  };
}

const scoreFigures = { ...eventFigures, distanceKm: num, drivingS: int } as const;
const safetyAnswer = {
  type: 'object',
  properties: {
    days: listOf({ type: 'object', properties: { date, score, ...scoreFigures } }),
    ranking: listOf({
      type: 'object',
      properties: { rank: { type: ['integer', 'null'] }, vehicleId: int, licence: { type: 'string' }, score, ...scoreFigures },
    }),
  },
};

/** The vehicles ranked by safety score over the range, as the export and a scheduled report write them. */
export const safetySheet = ({ db, timeZone }: ReportDeps): ReportSheet<Awaited<ReturnType<typeof safetyReport>>['ranking'][number]> => ({
  titleKey: 'reports.sheets.safety',
  columns: SAFETY_RANK_COLUMNS,
  rows: async (caller, body) => (await safetyReport(db, caller, dayCriteria<BehaviourCriteria>(body, timeZone))).ranking,
});

export function registerBehaviourRoutes(fastify: FastifyInstance, deps: ReportDeps): void {
  const app = typed(fastify);
  const { db, timeZone } = deps;
  const criteriaOf = (body: unknown) => dayCriteria<BehaviourCriteria>(body, timeZone);

  app.post(
    `${BASE}/vehicleDangerEchart`,
    route(
      'driving events by type by local day (harsh acceleration, harsh braking, sharp turns, fatigue, seconds speeding, seconds at night)',
      ledgerBody(),
      listOf({ type: 'object', properties: { date, ...eventFigures } }),
    ),
    async (req) => {
      const c = criteriaOf(req.body);
      const rows = await dayRows(db, callerOf(req), c);
      const days = new Map<string, DayRow[]>();
      for (const r of rows) days.set(r.date, [...(days.get(r.date) ?? []), r]);
      return [...days].map(([day, rs]) => {
        const { distanceKm: _d, drivingS: _s, ...events } = shown(sumOf(rs));
        return { date: day, ...events };
      });
    },
  );

  app.post(
    `${BASE}/vehicleSafetyEchart`,
    route('safety score by local day, and the ranking of the vehicles over the range', ledgerBody(), safetyAnswer),
    async (req) => safetyReport(db, callerOf(req), criteriaOf(req.body)),
  );
  reportExportRoute(fastify, `${BASE}/vehicleSafetyEchart`, { labels: LABELS, tag: 'behaviour', body: ledgerBody() }, safetySheet(deps));

  const previewBody = ledgerBody();
  app.post(
    `${BASE}/safetyPreview`,
    route(
      'the safety score of a range with proposed weights (keys left out keep the weights in force); nothing is saved',
      { ...previewBody, required: ['criteria', 'weights'], properties: { ...previewBody.properties, weights: weightsSchema } },
      safetyAnswer,
    ),
    async (req) => safetyReport(db, callerOf(req), criteriaOf(req.body), req.body.weights),
  );
}
