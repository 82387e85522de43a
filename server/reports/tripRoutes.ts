/**
 * Trips and track (SPEC §7): a vehicle's trips, its runs and stops, the last trip before a time,
 * a range's track and summary, and the track replay (raw and streamed, or simplified to maxPoints).
 * Read routes: whoever may list vehicles (NONE, like the vehicle list), scoped to the caller's subtree.
 */

import type { FastifyInstance } from 'fastify';
import { sql, type Kysely, type Selectable } from 'kysely';
import { callerOf } from '../platform/auth/authenticate';
import { NONE } from '../platform/auth/caller';
import { idParam } from '../platform/crud/routeSpec';
import type { DB, TripTable } from '../platform/db/tables';
import { notFound } from '../platform/http/errors';
import { typed } from '../platform/http/typed';
import { attributeSpans } from '../drivers/attribution';
import { timeRange } from './ranges';
import {
  listOf,
  pagingBody,
  rangeBody,
  replayPointSchema,
  segmentSchema,
  stopSchema,
  summarySchema,
  tripSchema,
  reportRoutes,
} from './schemas';
import { replaySchema } from '../../schemas/kit/trips';
import { vehicleInScope } from './scope';
import { simplifyTrack } from './simplify';
import { pointAt, streamReplay } from './track';
import { readTrackForSimplify } from './trackLevel';

export interface ReportDeps {
  db: Kysely<DB>;
  timeZone: string;
}

const READ = NONE;
const LABELS = 'reports.fields';
const route = reportRoutes(LABELS, 'trips');
const iso = (d: Date | string) => new Date(d).toISOString();
/** Track of `trip/single` and `trip/singleRange`: simplified beyond this many points. */
export const RANGE_TRACK_POINTS = 5000;
export const MAX_REPLAY_POINTS = 100_000;

type TripRow = Selectable<TripTable>;

export const tripOut = (t: TripRow) => ({
  id: t.id,
  vehicleId: t.vehicle_id,
  begin: iso(t.begin_time),
  end: iso(t.end_time),
  durationS: t.duration_s,
  distanceKm: t.distance_km,
  fuelL: t.fuel_l,
  idleS: t.idle_s,
  maxSpeed: Number(t.max_speed),
  avgSpeed: Number(t.avg_speed),
  open: t.open,
  start: { latitude: t.start_latitude, longitude: t.start_longitude, time: iso(t.begin_time) },
  stop: { latitude: t.end_latitude, longitude: t.end_longitude, time: iso(t.end_time) },
});

/** Trips as answered, each with its driver by the card sessions (server/drivers/attribution.ts). */
export async function withDrivers(db: Kysely<DB>, trips: readonly TripRow[]) {
  const drivers = await attributeSpans(
    db,
    trips.map((t) => ({ vehicleId: t.vehicle_id, begin: new Date(t.begin_time).getTime(), end: new Date(t.end_time).getTime() })),
  );
  return trips.map((t, i) => ({ ...tripOut(t), driver: drivers[i] }));
}

interface StopRow {
  begin_time: Date;
  end_time: Date;
  duration_s: number;
  latitude: number;
  longitude: number;
  open: boolean;
}

const stopOut = (s: StopRow) => ({
  begin: iso(s.begin_time),
  end: iso(s.end_time),
  durationS: s.duration_s,
  latitude: s.latitude,
  longitude: s.longitude,
  open: s.open,
});

/** Trips overlapping [from, to]. */
const tripsOverlapping = (db: Kysely<DB>, vehicleId: number, from: number, to: number) =>
  sql<TripRow>`SELECT * FROM trip WHERE vehicle_id = ${vehicleId} AND begin_time <= ${new Date(to)} AND end_time >= ${new Date(from)} ORDER BY begin_time`.execute(
    db,
  );

const stopsOverlapping = (db: Kysely<DB>, vehicleId: number, from: number, to: number) =>
  sql<StopRow>`SELECT begin_time, end_time, duration_s, latitude, longitude, open FROM trip_stop
    WHERE vehicle_id = ${vehicleId} AND begin_time <= ${new Date(to)} AND end_time >= ${new Date(from)} ORDER BY begin_time`.execute(db);

/** The track of a range, simplified to `maxPoints` (all points when it has no more). */
async function simplifiedTrack(db: Kysely<DB>, vehicleId: number, from: number, to: number, maxPoints: number) {
  // A long range comes from the minute level (first, fastest and last point of each minute) where derived.
  const { track, summary } = await readTrackForSimplify(db, vehicleId, from, to, maxPoints);
  return { points: simplifyTrack(track, maxPoints).map((i) => pointAt(track, i)), summary };
}

export function registerTripRoutes(fastify: FastifyInstance, { db }: ReportDeps): void {
  const app = typed(fastify);
  const vehicleParams = { type: 'object', required: ['id'], properties: { id: idParam } } as const;

  app.post(
    '/api/vehicle/trip/vehicle-:id',
    {
      config: { permission: READ, labels: LABELS },
      schema: {
        tags: ['trips'],
        summary: "a vehicle's trips overlapping a time range, newest first by default",
        params: vehicleParams,
        body: pagingBody(
          { begin: { type: 'string', format: 'date-time' }, end: { type: 'string', format: 'date-time' } },
          ['begin', 'end'],
          ['begin', 'distanceKm', 'durationS'],
        ),
        response: {
          200: {
            type: 'object',
            additionalProperties: false,
            required: ['data', 'total', 'totalExact', 'pageIndex', 'pageSize'],
            properties: {
              data: listOf(tripSchema),
              total: { type: 'integer' },
              totalExact: { type: 'boolean' },
              pageIndex: { type: 'integer' },
              pageSize: { type: 'integer' },
            },
          } as const,
        },
      },
    },
    async (req) => {
      const { id } = req.params;
      const body = req.body;
      await vehicleInScope(db, callerOf(req), id);
      const { from, to } = timeRange(body.criteria.begin, body.criteria.end, 'criteria.');
      const column =
        { begin: 'begin_time', distanceKm: 'distance_km', durationS: 'duration_s' }[body.order?.property ?? 'begin'] ?? 'begin_time';
      const asc = /^asc/i.test(body.order?.direction ?? 'desc');
      const where = sql`vehicle_id = ${id} AND begin_time <= ${new Date(to)} AND end_time >= ${new Date(from)}`;
      const [rows, count] = await Promise.all([
        sql<TripRow>`SELECT * FROM trip WHERE ${where} ORDER BY ${sql.ref(column)} ${sql.raw(asc ? 'ASC' : 'DESC')}, id
          LIMIT ${body.pageSize} OFFSET ${(body.pageIndex - 1) * body.pageSize}`.execute(db),
        sql<{ n: number }>`SELECT count(*)::int AS n FROM trip WHERE ${where}`.execute(db),
      ]);
      return {
        data: await withDrivers(db, rows.rows),
        total: count.rows[0].n,
        totalExact: true,
        pageIndex: body.pageIndex,
        pageSize: body.pageSize,
      };
    },
  );

  app.post(
    '/api/vehicle/trip/vehicle-:id/tripRunAndStop',
    {
      config: { permission: READ, labels: LABELS },
      schema: {
        tags: ['trips'],
        summary: "a vehicle's runs (trips) and stops over a time range, in time order",
        params: vehicleParams,
        body: rangeBody(),
        response: {
          200: {
            type: 'object',
            additionalProperties: false,
            required: ['segments'],
            properties: { segments: listOf(segmentSchema) },
          } as const,
        },
      },
    },
    async (req) => {
      const { id } = req.params;
      const { begin, end } = req.body;
      await vehicleInScope(db, callerOf(req), id);
      const { from, to } = timeRange(begin, end);
      const [trips, stops] = await Promise.all([tripsOverlapping(db, id, from, to), stopsOverlapping(db, id, from, to)]);
      const segments = [
        ...trips.rows.map((t) => ({
          kind: 'run' as const,
          begin: iso(t.begin_time),
          end: iso(t.end_time),
          durationS: t.duration_s,
          distanceKm: t.distance_km,
        })),
        ...stops.rows.map((s) => ({
          kind: 'stop' as const,
          begin: iso(s.begin_time),
          end: iso(s.end_time),
          durationS: s.duration_s,
          latitude: s.latitude,
          longitude: s.longitude,
        })),
      ].sort((a, b) => a.begin.localeCompare(b.begin) || (a.kind === 'stop' ? -1 : 1));
      return { segments };
    },
  );

  app.post(
    '/api/vehicle/trip/single',
    route(
      `the last trip ending at or before \`end\`, with its track (simplified beyond ${RANGE_TRACK_POINTS} points)`,
      {
        type: 'object',
        additionalProperties: false,
        required: ['vehicleId', 'end'],
        properties: { vehicleId: idParam, end: { type: 'string', format: 'date-time' } },
      } as const,
      {
        type: 'object',
        additionalProperties: false,
        required: ['trip', 'points'],
        properties: { trip: tripSchema, points: listOf(replayPointSchema) },
      } as const,
    ),
    async (req) => {
      const { vehicleId, end } = req.body;
      await vehicleInScope(db, callerOf(req), vehicleId);
      const r =
        await sql<TripRow>`SELECT * FROM trip WHERE vehicle_id = ${vehicleId} AND end_time <= ${new Date(end)} ORDER BY end_time DESC LIMIT 1`.execute(
          db,
        );
      const trip = r.rows[0];
      if (!trip) throw notFound();
      const { points } = await simplifiedTrack(
        db,
        vehicleId,
        new Date(trip.begin_time).getTime(),
        new Date(trip.end_time).getTime(),
        RANGE_TRACK_POINTS,
      );
      return { trip: tripOut(trip), points };
    },
  );

  app.post(
    '/api/vehicle/trip/singleRange',
    route(
      `a time range's track (simplified beyond ${RANGE_TRACK_POINTS} points), trips, stops and summary`,
      rangeBody({ vehicleId: idParam }, ['vehicleId']),
      {
        type: 'object',
        additionalProperties: false,
        required: ['points', 'trips', 'stops', 'summary'],
        properties: {
          points: listOf(replayPointSchema),
          trips: listOf(tripSchema),
          stops: listOf(stopSchema),
          summary: {
            type: 'object',
            additionalProperties: false,
            required: [...summarySchema.required, 'tripCount', 'idleS', 'fuelL'],
            properties: {
              ...summarySchema.properties,
              tripCount: { type: 'integer' },
              idleS: { type: 'integer' },
              fuelL: { type: 'number' },
            },
          },
        },
      } as const,
    ),
    async (req) => {
      const { vehicleId, begin, end } = req.body;
      await vehicleInScope(db, callerOf(req), vehicleId);
      const { from, to } = timeRange(begin, end);
      const { points, summary } = await simplifiedTrack(db, vehicleId, from, to, RANGE_TRACK_POINTS);
      const [trips, stops] = await Promise.all([tripsOverlapping(db, vehicleId, from, to), stopsOverlapping(db, vehicleId, from, to)]);
      const idleS = trips.rows.reduce((s, t) => s + t.idle_s, 0);
      const fuelL = Math.round(trips.rows.reduce((s, t) => s + (t.fuel_l ?? 0), 0) * 100) / 100;
      return {
        points,
        trips: await withDrivers(db, trips.rows),
        stops: stops.rows.map(stopOut),
        summary: { ...summary, tripCount: trips.rows.length, idleS, fuelL },
      };
    },
  );

  app.post(
    '/api/vehicle/track/replay',
    route(
      'the track in device-time order: every point (streamed) or, with maxPoints, simplified keeping stops and turns',
      rangeBody({ vehicleId: idParam, maxPoints: { type: 'integer', minimum: 2, maximum: MAX_REPLAY_POINTS } }, ['vehicleId']),
      replaySchema,
    ),
    async (req, reply) => {
      const { vehicleId, begin, end, maxPoints } = req.body;
      await vehicleInScope(db, callerOf(req), vehicleId);
      const { from, to } = timeRange(begin, end);
      const stops = (await stopsOverlapping(db, vehicleId, from, to)).rows.map(stopOut);
      // Every point is streamed as the same JSON, written piece by piece: a stream skips the
      // serializer, so it is sent as what the typed send cannot describe.
      if (maxPoints === undefined)
        return reply.type('application/json; charset=utf-8').send(streamReplay(db, vehicleId, from, to, stops) as never);
      const { points, summary } = await simplifiedTrack(db, vehicleId, from, to, maxPoints);
      return { points, stops, summary };
    },
  );
}
