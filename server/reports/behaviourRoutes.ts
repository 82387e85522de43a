/**
 * Driving behaviour reports (SPEC §7 dailyDrivingBehavior): events by type by day, the safety score
 * by day with the fleet's ranking, and the same score with proposed weights (preview, nothing
 * saved). Scores are computed here from the derived counts (behaviour_day), the ledger's distance
 * and driving time, and each vehicle's organisation's weights (server/intelligence/behaviour/score.ts).
 */

import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { callerOf } from '../platform/auth/authenticate';
import type { Caller } from '../platform/auth/caller';
import type { DB } from '../platform/db/tables';
import { safetyScore, type ScoreInput } from '../intelligence/behaviour/score';
import { safetySettingsFor, WEIGHT_KEYS, type SafetyWeights } from '../intelligence/behaviour/settings';
import { dayCriteria } from './ranges';
import { date, ledgerBody, listOf, reportRoutes } from './schemas';
import { vehicleInScope, vehicleScope } from './scope';
import type { ReportDeps } from './tripRoutes';
import { reportExportRoute } from './reportSheet';
import { SAFETY_RANK_COLUMNS } from '../../schemas/kit/reportColumns';
import { int, num } from '../platform/crud/routeSpec';

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

interface DayRow extends ScoreInput {
  vehicleId: number;
  licence: string;
  orgPath: string;
  date: string;
}

const eventFigures = { harshAcceleration: int, harshBraking: int, sharpTurn: int, fatigue: int, speedingS: int, nightS: int } as const;

export const weightsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(WEIGHT_KEYS.map((k) => [k, { type: 'number', minimum: 0, maximum: 10 }])),
} as const;

/** Per vehicle and day in scope: the counts and the ledger's distance and driving time. */
async function dayRows(db: Kysely<DB>, caller: Caller, c: BehaviourCriteria): Promise<DayRow[]> {
  if (c.vehicleId) await vehicleInScope(db, caller, c.vehicleId);
  const r = await sql<DayRow>`
    SELECT v.id AS "vehicleId", v.licence, o.path AS "orgPath", b.day::text AS date,
           b.harsh_acceleration AS "harshAcceleration", b.harsh_braking AS "harshBraking", b.sharp_turn AS "sharpTurn",
           b.fatigue, b.speeding_s AS "speedingS", b.night_s AS "nightS",
           COALESCE(l.mileage_km, 0)::float8 AS "distanceKm", COALESCE(l.driving_s, 0)::int AS "drivingS"
    FROM behaviour_day b JOIN vehicle v ON v.id = b.vehicle_id JOIN organisation o ON o.id = v.org_id
    LEFT JOIN ledger_day l ON l.vehicle_id = b.vehicle_id AND l.day = b.day
    WHERE b.day >= ${c.begin}::date AND b.day <= ${c.end}::date AND ${vehicleScope(caller, { orgId: c.orgId, vehicleId: c.vehicleId })}
    ORDER BY b.day, v.licence`.execute(db);
  return r.rows;
}

const sumOf = (rows: ScoreInput[]): ScoreInput => {
  const s: ScoreInput = {
    harshAcceleration: 0,
    harshBraking: 0,
    sharpTurn: 0,
    fatigue: 0,
    speedingS: 0,
    nightS: 0,
    distanceKm: 0,
    drivingS: 0,
  };
  for (const r of rows) for (const k of Object.keys(s) as Array<keyof ScoreInput>) s[k] += Number(r[k]);
  s.distanceKm = Math.round(s.distanceKm * 1000) / 1000;
  return s;
};

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
  const days = new Map<string, { weighted: number; km: number; rows: ScoreInput[] }>();
  const vehicles = new Map<number, { licence: string; path: string; rows: ScoreInput[] }>();
  for (const r of rows) {
    const s = safetyScore(r, await weightsOf(r.orgPath));
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
    ranking.push({ vehicleId, licence: v.licence, score: safetyScore(total, await weightsOf(v.path)), ...total });
  }
  ranking.sort((a, b) => (b.score ?? -1) - (a.score ?? -1) || a.licence.localeCompare(b.licence));
  return {
    days: [...days].map(([day, d]) => ({
      date: day,
      score: d.km > 0 ? Math.round((d.weighted / d.km) * 10) / 10 : null,
      ...sumOf(d.rows),
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

export function registerBehaviourRoutes(app: FastifyInstance, { db, timeZone }: ReportDeps): void {
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
        const { distanceKm: _d, drivingS: _s, ...events } = sumOf(rs);
        return { date: day, ...events };
      });
    },
  );

  app.post(
    `${BASE}/vehicleSafetyEchart`,
    route('safety score by local day, and the ranking of the vehicles over the range', ledgerBody(), safetyAnswer),
    async (req) => safetyReport(db, callerOf(req), criteriaOf(req.body)),
  );
  reportExportRoute(
    app,
    `${BASE}/vehicleSafetyEchart`,
    { labels: LABELS, tag: 'behaviour', body: ledgerBody(), titleKey: 'reports.sheets.safety', columns: SAFETY_RANK_COLUMNS },
    async (req) => (await safetyReport(db, callerOf(req), criteriaOf(req.body))).ranking,
  );

  const previewBody = ledgerBody();
  app.post(
    `${BASE}/safetyPreview`,
    route(
      'the safety score of a range with proposed weights (keys left out keep the weights in force); nothing is saved',
      { ...previewBody, required: ['criteria', 'weights'], properties: { ...previewBody.properties, weights: weightsSchema } },
      safetyAnswer,
    ),
    async (req) => safetyReport(db, callerOf(req), criteriaOf(req.body), (req.body as { weights: Partial<SafetyWeights> }).weights),
  );
}
