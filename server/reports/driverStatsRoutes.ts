/**
 * Statistics per driver (by IC card session, server/drivers/attribution.ts): mileage, driving and
 * idle time and trips from the trips each driver drove (shared between local days by time, as the
 * daily ledger shares them), the safety score from the behaviour events inside their sessions with
 * that distance and time, and the alarms that began inside them. Rows a card no driver holds drove
 * are that card's; rows no session covers are "unassigned", never guessed from the vehicle's
 * assigned driver. Criteria `{begin, end}` are local days (FLEET_TIMEZONE), both inclusive.
 */

import type { FastifyInstance } from 'fastify';
import { typed } from '../platform/http/typed';
import { sql, type Kysely } from 'kysely';
import { DRIVER_STATS_COLUMNS, type DriverStatsRow } from '../../schemas/kit/reportColumns';
import { callerOf } from '../platform/auth/authenticate';
import type { Caller } from '../platform/auth/caller';
import { idParam, int, num } from '../platform/crud/routeSpec';
import type { DB, TripTable } from '../platform/db/tables';
import { driverKey, sessionIndex, type Attribution } from '../drivers/attribution';
import { sessionsOverlapping } from '../drivers/sessions';
import { ledgerOfDay, type LedgerTrip } from '../intelligence/ledger/ledgerDeriver';
import { localDay, nextDay } from '../intelligence/localDay';
import { roundScore, safetyScore, type ScoredEvent } from '../intelligence/behaviour/score';
import { safetySettingsFor } from '../intelligence/behaviour/settings';
import { figuresOf, notDismissed } from './behaviourRoutes';
import { dayCriteria, timeRange } from './ranges';
import { reportExportRoute, type ReportSheet } from './reportSheet';
import { date, driverRefSchema, instant, ledgerBody, listOf, reportRoutes } from './schemas';
import { vehicleInScope, vehicleScope } from './scope';
import type { ReportDeps } from './tripRoutes';
import type { Selectable } from 'kysely';

const BASE = '/api/vehicle/driverStatistics';
const LABELS = 'reports.fields';
const route = reportRoutes(LABELS, 'driver');

export interface DriverCriteria {
  begin: string;
  end: string;
  vehicleId?: number | null;
  orgId?: number | null;
  driverId?: number | null;
}

type TripRow = Selectable<TripTable> & { licence: string };

interface Group {
  attribution: Attribution;
  trips: Array<LedgerTrip & { id: number }>;
  events: ScoredEvent[];
  alarms: number;
}

const kindOf = (a: Attribution): DriverStatsRow['kind'] => (!a ? 'unassigned' : a.driverId !== null ? 'driver' : 'unknownCard');

/** The local days from `begin` to `end`, both inclusive. */
function daysOf(begin: string, end: string): string[] {
  const out: string[] = [];
  for (let d = begin; d <= end; d = nextDay(d)) out.push(d);
  return out;
}

/** The trips, behaviour events and alarms of the range in scope, grouped by who drove. */
async function grouped(db: Kysely<DB>, caller: Caller, c: DriverCriteria & { from: number; to: number }) {
  if (c.vehicleId) await vehicleInScope(db, caller, c.vehicleId);
  const scope = vehicleScope(caller, { orgId: c.orgId, vehicleId: c.vehicleId });
  const lo = new Date(c.from);
  const hi = new Date(c.to);
  const [trips, events, alarms] = await Promise.all([
    sql<TripRow>`SELECT t.*, v.licence FROM trip t JOIN vehicle v ON v.id = t.vehicle_id
      WHERE t.begin_time < ${hi} AND t.end_time >= ${lo} AND ${scope} ORDER BY t.begin_time, t.id`.execute(db),
    sql<{ vehicleId: number; at: Date; kind: ScoredEvent['kind']; severity: ScoredEvent['severity']; count: number; durationS: number }>`
      SELECT e.vehicle_id AS "vehicleId", e.at, e.kind, e.severity, e.count, e.duration_s AS "durationS"
      FROM behaviour_event e JOIN vehicle v ON v.id = e.vehicle_id
      WHERE e.day >= ${c.begin}::date AND e.day <= ${c.end}::date AND ${scope} AND ${notDismissed}`.execute(db),
    sql<{ vehicleId: number; begin: Date }>`SELECT a.vehicle_id AS "vehicleId", a.begin_time AS begin
      FROM alarm a JOIN vehicle v ON v.id = a.vehicle_id
      WHERE a.state = 'current' AND a.begin_time >= ${lo} AND a.begin_time < ${hi} AND ${scope}`.execute(db),
  ]);
  const ms = (d: Date | string) => new Date(d).getTime();
  const spanFrom = Math.min(c.from, ...trips.rows.map((t) => ms(t.begin_time)));
  const spanTo = Math.max(c.to, ...trips.rows.map((t) => ms(t.end_time)));
  const index = await sessionIndex(db, scope, spanFrom, spanTo);
  const groups = new Map<string, Group>();
  const groupOf = (a: Attribution) => {
    const key = driverKey(a);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { attribution: a, trips: [], events: [], alarms: 0 }));
    return g;
  };
  const tripDrivers = new Map<number, Attribution>();
  for (const t of trips.rows) {
    const a = index.ofSpan(t.vehicle_id, ms(t.begin_time), ms(t.end_time));
    tripDrivers.set(t.id, a);
    groupOf(a).trips.push({
      id: t.id,
      begin: ms(t.begin_time),
      end: ms(t.end_time),
      distanceKm: t.distance_km,
      fuelL: t.fuel_l,
      idleS: t.idle_s,
      maxSpeed: Number(t.max_speed),
    });
  }
  for (const e of events.rows)
    groupOf(index.at(e.vehicleId, ms(e.at))).events.push({
      kind: e.kind,
      severity: e.severity,
      count: Number(e.count),
      durationS: Number(e.durationS),
    });
  for (const a of alarms.rows) groupOf(index.at(a.vehicleId, ms(a.begin))).alarms++;
  return { groups, trips: trips.rows, tripDrivers };
}

/** A group's ledger figures by local day of the range (only days with a trip in them). */
function daysOfGroup(g: Group, c: DriverCriteria, timeZone: string) {
  const touched = new Set<string>();
  for (const t of g.trips) for (let d = localDay(t.begin, timeZone); d <= localDay(t.end, timeZone); d = nextDay(d)) touched.add(d);
  return daysOf(c.begin, c.end)
    .filter((d) => touched.has(d))
    .map((day) => ({ date: day, ...ledgerOfDay(day, timeZone, g.trips, [], 0) }));
}

const identity = (a: Attribution) => ({
  kind: kindOf(a),
  driverId: a?.driverId ?? null,
  driverName: a?.driverName ?? null,
  cardNo: a?.cardNo ?? null,
});

type Who = Pick<DriverStatsRow, 'kind' | 'driverName' | 'cardNo'>;
const order = (a: Who, b: Who) =>
  ['driver', 'unknownCard', 'unassigned'].indexOf(a.kind) - ['driver', 'unknownCard', 'unassigned'].indexOf(b.kind) ||
  (a.driverName ?? a.cardNo ?? '').localeCompare(b.driverName ?? b.cardNo ?? '');

/** Per driver (and unknown card, and the unassigned rest) over the range. */
export async function driverStats(db: Kysely<DB>, caller: Caller, c: DriverCriteria & { from: number; to: number }, timeZone: string) {
  const { groups } = await grouped(db, caller, c);
  const weights = new Map<string, Awaited<ReturnType<typeof safetySettingsFor>>['weights']>();
  const weightsOf = async (driverId: number | null) => {
    const path = driverId
      ? ((
          await sql<{ path: string }>`SELECT o.path FROM driver d JOIN organisation o ON o.id = d.org_id WHERE d.id = ${driverId}`.execute(
            db,
          )
        ).rows[0]?.path ?? caller.orgPath)
      : caller.orgPath;
    let w = weights.get(path);
    if (!w) weights.set(path, (w = (await safetySettingsFor(db, path)).weights));
    return w;
  };
  const rows: DriverStatsRow[] = [];
  for (const g of groups.values()) {
    if (c.driverId && g.attribution?.driverId !== c.driverId) continue;
    const days = daysOfGroup(g, c, timeZone);
    const sum = (k: 'mileageKm' | 'fuelL' | 'drivingS' | 'idleS' | 'tripCount') => days.reduce((s, d) => s + d[k], 0);
    const mileageKm = Math.round(sum('mileageKm') * 1000) / 1000;
    const drivingS = sum('drivingS');
    const f = figuresOf(g.events, mileageKm, drivingS);
    rows.push({
      ...identity(g.attribution),
      mileageKm,
      drivingS,
      idleS: sum('idleS'),
      tripCount: sum('tripCount'),
      fuelL: Math.round(sum('fuelL') * 100) / 100,
      maxSpeed: days.reduce((m, d) => Math.max(m, d.maxSpeed), 0),
      score: roundScore(safetyScore(g.events, { distanceKm: mileageKm, drivingS }, await weightsOf(g.attribution?.driverId ?? null))),
      alarmCount: g.alarms,
      harshAcceleration: f.harshAcceleration,
      harshBraking: f.harshBraking,
      sharpTurn: f.sharpTurn,
      fatigue: f.fatigue,
      speedingS: f.speedingS,
      nightS: f.nightS,
    });
  }
  return rows.sort(order);
}

/** The figures per driver as the export and a scheduled report write them. */
export const driverStatsSheet = ({ db, timeZone }: ReportDeps): ReportSheet<DriverStatsRow> => ({
  titleKey: 'driverStats.sheet',
  columns: DRIVER_STATS_COLUMNS,
  rows: async (caller, body) => driverStats(db, caller, dayCriteria<DriverCriteria>(body, timeZone), timeZone),
});

const criteriaExtra = { driverId: { ...idParam, type: ['integer', 'null'] } };
const who = {
  kind: { enum: ['driver', 'unknownCard', 'unassigned'] },
  driverId: { type: ['integer', 'null'] },
  driverName: { type: ['string', 'null'] },
  cardNo: { type: ['string', 'null'] },
} as const;
const dayFigures = { mileageKm: num, fuelL: num, drivingS: int, idleS: int, tripCount: int, maxSpeed: num } as const;
const statsRow = {
  type: 'object',
  properties: {
    ...who,
    ...dayFigures,
    score: { type: ['number', 'null'], description: '0–100; null when no distance was driven' },
    alarmCount: int,
    harshAcceleration: int,
    harshBraking: int,
    sharpTurn: int,
    fatigue: int,
    speedingS: int,
    nightS: int,
  },
};

const sessionRow = {
  type: 'object',
  properties: {
    vehicleId: int,
    licence: { type: 'string' },
    cardNo: { type: 'string' },
    driverId: { type: ['integer', 'null'] },
    driverName: { type: ['string', 'null'] },
    begin: instant,
    end: { ...instant, type: ['string', 'null'], description: 'null while the card is in' },
    beginEventId: { type: 'string' },
    endEventId: { type: ['string', 'null'] },
  },
} as const;

export function registerDriverStatsRoutes(fastify: FastifyInstance, { db, timeZone }: ReportDeps): void {
  const app = typed(fastify);
  const criteriaOf = (body: unknown) => dayCriteria<DriverCriteria>(body, timeZone);
  const body = ledgerBody(criteriaExtra);

  app.post(
    '/api/vehicle/driverSession/query',
    route(
      'driver sessions (IC card in to out) overlapping a time range, of the vehicles in scope',
      {
        type: 'object',
        additionalProperties: false,
        required: ['criteria'],
        properties: {
          criteria: {
            type: 'object',
            additionalProperties: false,
            required: ['begin', 'end'],
            properties: {
              begin: instant,
              end: instant,
              vehicleId: { ...idParam, type: ['integer', 'null'] },
              orgId: { ...idParam, type: ['integer', 'null'] },
              driverId: { ...idParam, type: ['integer', 'null'] },
              cardNo: { type: ['string', 'null'], maxLength: 20 },
            },
          },
        },
      } as const,
      listOf(sessionRow),
    ),
    async (req) => {
      const caller = callerOf(req);
      const c = req.body.criteria;
      const { from, to } = timeRange(c.begin, c.end, 'criteria.');
      const sessions = await sessionsOverlapping(db, vehicleScope(caller, c), from, to);
      const ids = [...new Set(sessions.map((s) => s.vehicleId))];
      const licences = new Map(
        ids.length
          ? (
              await sql<{ id: number; licence: string }>`SELECT id, licence FROM vehicle WHERE id = ANY (${ids}::int[])`.execute(db)
            ).rows.map((v) => [v.id, v.licence])
          : [],
      );
      return sessions
        .filter((s) => (!c.driverId || s.driverId === c.driverId) && (!c.cardNo || s.cardNo === c.cardNo))
        .map((s) => ({
          ...s,
          licence: licences.get(s.vehicleId) ?? '',
          begin: new Date(s.begin).toISOString(),
          end: s.end === null ? null : new Date(s.end).toISOString(),
        }));
    },
  );

  app.post(
    `${BASE}/byDriver`,
    route(
      'per driver (by IC card session) over the range: mileage, driving and idle time, trips, safety score and alarms; cards no driver holds and the unassigned rest as rows of their own',
      body,
      listOf(statsRow),
    ),
    async (req) => driverStats(db, callerOf(req), criteriaOf(req.body), timeZone),
  );
  reportExportRoute(fastify, `${BASE}/byDriver`, { labels: LABELS, tag: 'driver', body }, driverStatsSheet({ db, timeZone }));

  app.post(
    `${BASE}/byDay`,
    route(
      'the daily ledger split per driver: each driver’s trips shared between local days by time, as the ledger shares them',
      body,
      listOf({ type: 'object', properties: { date, ...who, ...dayFigures, refuelL: num, drainL: num, cost: num } }),
    ),
    async (req) => {
      const c = criteriaOf(req.body);
      const { groups } = await grouped(db, callerOf(req), c);
      const rows = [...groups.values()]
        .filter((g) => !c.driverId || g.attribution?.driverId === c.driverId)
        .flatMap((g) => daysOfGroup(g, c, timeZone).map((d) => ({ ...identity(g.attribution), ...d })));
      return rows.sort((a, b) => a.date.localeCompare(b.date) || order(a, b));
    },
  );

  app.post(
    `${BASE}/trips`,
    route(
      'the trips of the range with the driver of each (criteria.driverId: that driver’s only)',
      body,
      listOf({
        type: 'object',
        properties: {
          id: int,
          vehicleId: int,
          licence: { type: 'string' },
          begin: instant,
          end: instant,
          distanceKm: num,
          durationS: int,
          idleS: int,
          driver: driverRefSchema,
        },
      }),
    ),
    async (req) => {
      const c = criteriaOf(req.body);
      const { trips, tripDrivers } = await grouped(db, callerOf(req), c);
      return trips
        .map((t) => ({
          id: t.id,
          vehicleId: t.vehicle_id,
          licence: t.licence,
          begin: new Date(t.begin_time).toISOString(),
          end: new Date(t.end_time).toISOString(),
          distanceKm: t.distance_km,
          durationS: t.duration_s,
          idleS: t.idle_s,
          driver: tripDrivers.get(t.id) ?? null,
        }))
        .filter((t) => !c.driverId || t.driver?.driverId === c.driverId);
    },
  );
}
