/**
 * Why a vehicle's safety score is what it is: over a rolling window (default four weeks to a day),
 * each event with its place, the weight it is scored with, its share of the score and its review,
 * and the vehicle's percentile among its organisation's vehicles (each event with its driver by IC card session). And the review of one event
 * (dismissed as false: it leaves the score; coached: it stays), audited, kept in its own table so
 * that re-derivation never deletes it.
 */

import type { FastifyInstance } from 'fastify';
import { typed } from '../platform/http/typed';
import { sql, type Kysely } from 'kysely';
import { callerOf } from '../platform/auth/authenticate';
import { NONE } from '../platform/auth/caller';
import type { DB } from '../platform/db/tables';
import { auditRequest } from '../platform/audit';
import { notFound } from '../platform/http/errors';
import { idParam, int, num } from '../platform/crud/routeSpec';
import { EVENT_KINDS, SPEEDING_SEVERITIES, type EventKind, type SpeedingSeverity } from '../intelligence/behaviour/events';
import { impactOf, NORMALISED_BY, safetyScore, weightOf, type Exposure, type ScoredEvent } from '../intelligence/behaviour/score';
import { safetySettingsFor, WEIGHT_KEYS } from '../intelligence/behaviour/settings';
import { attributeInstants } from '../drivers/attribution';
import { groupsOf, notDismissed } from './behaviourRoutes';
import { daysBefore, today } from './ranges';
import { date, driverRefSchema, instant, listOf } from './schemas';
import { vehicleInScope } from './scope';
import type { ReportDeps } from './tripRoutes';

export const SAFETY_REVIEW_PERMISSION = 'safetyEvent-review';
export const REVIEW_STATES = ['dismissed', 'coached'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];
/** The window when none is asked for: four weeks, as Samsara's and Geotab's scorecards default to. */
export const DEFAULT_WEEKS = 4;
const MAX_WEEKS = 52;
const MAX_NOTE = 500;

const BASE = '/api/vehicle/dailyDrivingBehavior';
const LABELS = 'behaviour.fields';

export interface ExplainCriteria {
  vehicleId: number;
  end?: string | null;
  weeks?: number | null;
}

interface EventRow {
  kind: EventKind;
  at: Date;
  day: string;
  latitude: number | null;
  longitude: number | null;
  count: number;
  durationS: number;
  severity: SpeedingSeverity | null;
  peakKmh: number | null;
  limitKmh: number | null;
  source: string;
  state: ReviewState | null;
  note: string | null;
  reviewedBy: string | null;
  reviewedAt: Date | null;
}

/** Per vehicle of the organisation: distance and driving time of the window, and its events less the dismissed. */
async function orgExposures(db: Kysely<DB>, orgId: number, begin: string, end: string) {
  const r = await sql<{ vehicleId: number; distanceKm: number; drivingS: number; groups: unknown }>`
    SELECT l.vehicle_id AS "vehicleId", sum(l.mileage_km)::float8 AS "distanceKm", sum(l.driving_s)::int AS "drivingS",
      (SELECT json_agg(json_build_object('kind', x.kind, 'severity', x.severity, 'count', x.count, 'durationS', x.duration_s))
       FROM (SELECT e.kind, e.severity, sum(e.count)::int AS count, sum(e.duration_s)::int AS duration_s
             FROM behaviour_event e WHERE e.vehicle_id = l.vehicle_id AND e.day >= ${begin}::date AND e.day <= ${end}::date AND ${notDismissed}
             GROUP BY e.kind, e.severity) x) AS groups
    FROM ledger_day l JOIN vehicle v ON v.id = l.vehicle_id
    WHERE v.org_id = ${orgId} AND l.day >= ${begin}::date AND l.day <= ${end}::date
    GROUP BY l.vehicle_id`.execute(db);
  return r.rows.map((row) => ({
    vehicleId: row.vehicleId,
    exposure: { distanceKm: Number(row.distanceKm), drivingS: Number(row.drivingS) } satisfies Exposure,
    groups: groupsOf(row.groups),
  }));
}

/**
 * The share of peers scoring below, ties counting half, in per cent (a percentile rank: 100 = better
 * than every peer); null without peers that have a score.
 */
export function percentileAmong(score: number | null, peers: readonly number[]): number | null {
  if (score === null || !peers.length) return null;
  const below = peers.filter((p) => p < score).length;
  const tied = peers.filter((p) => p === score).length;
  return ((below + tied / 2) / peers.length) * 100;
}

/** The explanation of one vehicle's score over the window ending `end` (inclusive local days). */
export async function explainScore(db: Kysely<DB>, vehicleId: number, orgId: number, orgPath: string, begin: string, end: string) {
  const settings = await safetySettingsFor(db, orgPath);
  const w = settings.weights;
  const exposures = await orgExposures(db, orgId, begin, end);
  const own = exposures.find((x) => x.vehicleId === vehicleId);
  const exposure: Exposure = own?.exposure ?? { distanceKm: 0, drivingS: 0 };
  const score = safetyScore(own?.groups ?? [], exposure, w);
  const peers = exposures
    .filter((x) => x.vehicleId !== vehicleId)
    .map((x) => safetyScore(x.groups, x.exposure, w))
    .filter((s): s is number => s !== null);
  const r = await sql<EventRow>`
    SELECT e.kind, e.at, e.day::text AS day, e.latitude, e.longitude, e.count, e.duration_s AS "durationS", e.severity,
           e.peak_kmh AS "peakKmh", e.limit_kmh AS "limitKmh", e.source,
           r.state, r.note, m.name AS "reviewedBy", r.reviewed_at AS "reviewedAt"
    FROM behaviour_event e
    LEFT JOIN behaviour_review r ON r.vehicle_id = e.vehicle_id AND r.kind = e.kind AND r.at = e.at
    LEFT JOIN member m ON m.id = r.reviewed_by
    WHERE e.vehicle_id = ${vehicleId} AND e.day >= ${begin}::date AND e.day <= ${end}::date
    ORDER BY e.at, e.kind`.execute(db);
  const drivers = await attributeInstants(
    db,
    r.rows.map((e) => ({ vehicleId, at: new Date(e.at).getTime() })),
  );
  const events = r.rows.map((e, i) => {
    const scored: ScoredEvent = { kind: e.kind, severity: e.severity, count: Number(e.count), durationS: Number(e.durationS) };
    // What the event takes off the score as it stands, and what it would if it counted.
    const impact = impactOf(scored, exposure, w);
    return {
      kind: e.kind,
      at: new Date(e.at).toISOString(),
      day: e.day,
      latitude: e.latitude,
      longitude: e.longitude,
      count: scored.count,
      durationS: scored.durationS,
      severity: e.severity,
      peakKmh: e.peakKmh,
      limitKmh: e.limitKmh,
      source: e.source,
      weight: weightOf(scored, w),
      normalisedBy: NORMALISED_BY[e.kind],
      impact,
      share: e.state === 'dismissed' ? 0 : impact,
      driver: drivers[i],
      review: e.state
        ? {
            state: e.state,
            note: e.note ?? '',
            reviewedBy: e.reviewedBy,
            reviewedAt: e.reviewedAt ? new Date(e.reviewedAt).toISOString() : null,
          }
        : null,
    };
  });
  return {
    vehicleId,
    begin,
    end,
    distanceKm: exposure.distanceKm,
    drivingS: exposure.drivingS,
    score,
    percentile: percentileAmong(score, peers),
    peers: peers.length,
    weights: w,
    weightsFrom: settings.from,
    events,
  };
}

const kind = { enum: [...EVENT_KINDS] } as const;
const nullableNum = { type: ['number', 'null'] } as const;
const nullableString = { type: ['string', 'null'] } as const;

const explainAnswer = {
  type: 'object',
  properties: {
    vehicleId: int,
    licence: { type: 'string' },
    orgId: int,
    orgName: { type: 'string' },
    begin: date,
    end: date,
    weeks: int,
    distanceKm: num,
    drivingS: int,
    score: { type: ['number', 'null'], description: '0–100 unrounded; null when no distance was driven' },
    percentile: { type: ['number', 'null'], description: "per cent of the organisation's other vehicles scoring lower (ties half)" },
    peers: { type: 'integer', description: "the organisation's other vehicles with a score in the window" },
    weights: { type: 'object', properties: Object.fromEntries(WEIGHT_KEYS.map((k) => [k, num])) },
    weightsFrom: { type: ['integer', 'null'], description: 'the organisation whose weights apply; null for the defaults' },
    events: listOf({
      type: 'object',
      properties: {
        kind,
        at: instant,
        day: date,
        latitude: nullableNum,
        longitude: nullableNum,
        count: int,
        durationS: int,
        severity: { enum: [...SPEEDING_SEVERITIES, null] },
        peakKmh: nullableNum,
        limitKmh: nullableNum,
        source: { type: 'string' },
        weight: num,
        normalisedBy: { enum: ['distance', 'drivingTime', 'drivingHours'] },
        impact: { type: 'number', description: 'points the event takes off the score when it counts' },
        share: { type: 'number', description: 'points it takes off now: 0 when dismissed' },
        driver: driverRefSchema,
        review: {
          type: ['object', 'null'],
          properties: {
            state: { enum: [...REVIEW_STATES] },
            note: { type: 'string' },
            reviewedBy: nullableString,
            reviewedAt: nullableString,
          },
        },
      },
    }),
  },
} as const;

const explainBody = {
  type: 'object',
  additionalProperties: false,
  required: ['criteria'],
  properties: {
    criteria: {
      type: 'object',
      additionalProperties: false,
      required: ['vehicleId'],
      properties: {
        vehicleId: idParam,
        end: { ...date, type: ['string', 'null'], description: 'last local day of the window (default today)' },
        weeks: { type: ['integer', 'null'], minimum: 1, maximum: MAX_WEEKS, description: `default ${DEFAULT_WEEKS}` },
      },
    },
  },
} as const;

const reviewBody = {
  type: 'object',
  additionalProperties: false,
  required: ['vehicleId', 'kind', 'at', 'state', 'note'],
  properties: {
    vehicleId: idParam,
    kind,
    at: instant,
    state: { enum: [...REVIEW_STATES] },
    note: { type: 'string', minLength: 1, maxLength: MAX_NOTE, pattern: '\\S' },
  },
} as const;

export function registerSafetyExplainRoutes(fastify: FastifyInstance, { db, timeZone }: ReportDeps): void {
  const app = typed(fastify);
  app.post(
    `${BASE}/safetyExplain`,
    {
      config: { permission: NONE, labels: LABELS },
      schema: {
        tags: ['behaviour'],
        summary:
          "why a vehicle's safety score is what it is over a rolling window: each event with its place, weight, share and review, and the percentile among its organisation's vehicles",
        body: explainBody,
        response: { 200: explainAnswer },
      },
    },
    async (req) => {
      const c = req.body.criteria;
      const vehicle = await vehicleInScope(db, callerOf(req), c.vehicleId);
      const weeks = c.weeks ?? DEFAULT_WEEKS;
      const end = c.end ?? today(timeZone).day;
      const begin = daysBefore(end, weeks * 7 - 1);
      const path = (await sql<{ path: string }>`SELECT path FROM organisation WHERE id = ${vehicle.orgId}`.execute(db)).rows[0].path;
      const explained = await explainScore(db, vehicle.id, vehicle.orgId, path, begin, end);
      return { ...explained, licence: vehicle.licence, orgId: vehicle.orgId, orgName: vehicle.orgName, weeks };
    },
  );

  app.put(
    `${BASE}/safetyEvent/review`,
    {
      config: { permission: SAFETY_REVIEW_PERMISSION, labels: LABELS },
      schema: {
        tags: ['behaviour'],
        summary:
          'review a derived safety event: dismissed as false (it leaves the score) or coached (it stays), with a note; audited, and kept across re-derivation',
        body: reviewBody,
        response: {
          200: {
            type: 'object',
            properties: { vehicleId: int, kind, at: instant, state: { enum: [...REVIEW_STATES] }, note: { type: 'string' } },
          },
        },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const body = req.body;
      await vehicleInScope(db, caller, body.vehicleId);
      const at = new Date(body.at);
      const note = body.note.trim();
      return db.transaction().execute(async (trx) => {
        const found = await sql<{ n: number }>`
          SELECT 1 AS n FROM behaviour_event WHERE vehicle_id = ${body.vehicleId} AND kind = ${body.kind} AND at = ${at}`.execute(trx);
        if (!found.rows.length) throw notFound();
        const before = await sql<{ state: ReviewState; note: string }>`
          SELECT state, note FROM behaviour_review WHERE vehicle_id = ${body.vehicleId} AND kind = ${body.kind} AND at = ${at} FOR UPDATE`.execute(
          trx,
        );
        await sql`INSERT INTO behaviour_review (vehicle_id, kind, at, state, note, reviewed_by)
          VALUES (${body.vehicleId}, ${body.kind}, ${at}, ${body.state}, ${note}, ${caller.memberId})
          ON CONFLICT (vehicle_id, kind, at) DO UPDATE SET state = excluded.state, note = excluded.note,
            reviewed_by = excluded.reviewed_by, reviewed_at = now()`.execute(trx);
        await auditRequest(trx, req, caller, 'safetyEventReview', `vehicle:${body.vehicleId}`, {
          kind: body.kind,
          at: at.toISOString(),
          state: body.state,
          note,
          before: before.rows[0] ?? null,
        });
        return { vehicleId: body.vehicleId, kind: body.kind, at: at.toISOString(), state: body.state, note };
      });
    },
  );
}
