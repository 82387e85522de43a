/**
 * A vehicle's stored reports, newest first and paged (the vehicle detail's messages tab):
 * positions (0x0200/0x0704 as decoded, alarm and status words by bit name) or OBD records.
 * Scoped to the caller's subtree like every report; a vehicle outside it is a 404.
 */

import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { ObdMessage, PositionMessage } from '../../schemas/kit/telemetry';
import { callerOf } from '../platform/auth/authenticate';
import { NONE } from '../platform/auth/caller';
import { idParam } from '../platform/crud/routeSpec';
import { typed } from '../platform/http/typed';
import { decodeAlarm, decodeStatus } from '../telematics/jt808/messages/locationFlags';
import { timeRange } from './ranges';
import { pagingBody } from './schemas';
import { vehicleInScope } from './scope';
import type { ReportDeps } from './tripRoutes';

const LABELS = 'reports.fields';
const instant = { type: 'string', format: 'date-time' } as const;

/** A position row as read: times as dates, the 32-bit words possibly as text (bigint). */
type PositionRow = Omit<PositionMessage, 'time' | 'receivedAt' | 'alarm' | 'status' | 'alarms' | 'statusBits'> & {
  time: Date;
  receivedAt: Date;
  alarm: string | number;
  status: string | number;
};

type ObdRow = Omit<ObdMessage, 'time' | 'receivedAt'> & { time: Date; receivedAt: Date };

const num = { type: 'number' } as const;
const int = { type: 'integer' } as const;
const nullableNum = { type: ['number', 'null'] } as const;
const names = { type: 'array', items: { type: 'string' } } as const;
const openObject = { type: ['object', 'null'], additionalProperties: true } as const;

/** PositionMessage of schemas/kit/telemetry.ts. */
const positionMessage = {
  type: 'object',
  additionalProperties: false,
  required: [
    'time',
    'receivedAt',
    'latitude',
    'longitude',
    'altitude',
    'speed',
    'direction',
    'alarm',
    'status',
    'acc',
    'fixed',
    'mileageKm',
    'fuelL',
    'blind',
    'extras',
    'alarms',
    'statusBits',
  ],
  properties: {
    time: instant,
    receivedAt: instant,
    latitude: num,
    longitude: num,
    altitude: num,
    speed: num,
    direction: num,
    alarm: int,
    status: int,
    acc: { type: 'boolean' },
    fixed: { type: 'boolean' },
    mileageKm: nullableNum,
    fuelL: nullableNum,
    blind: { type: 'boolean' },
    extras: openObject,
    alarms: names,
    statusBits: names,
  },
} as const;

/** ObdRecordValues of schemas/kit/telemetry.ts. */
const readings = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: { odometerKm: num, fuelLevel: num, speedKmh: num, rpm: num, coolantTempC: num, vin: { type: 'string' } },
} as const;

/** ObdMessage of schemas/kit/telemetry.ts. */
const obdMessage = {
  type: 'object',
  additionalProperties: false,
  required: ['time', 'receivedAt', 'subtype', 'latitude', 'longitude', 'readings', 'detail', 'dtcCount'],
  properties: {
    time: instant,
    receivedAt: instant,
    subtype: int,
    latitude: nullableNum,
    longitude: nullableNum,
    readings,
    detail: openObject,
    dtcCount: int,
  },
} as const;

const messagePage = {
  type: 'object',
  additionalProperties: false,
  required: ['data', 'total', 'totalExact', 'pageIndex', 'pageSize'],
  properties: {
    data: { type: 'array', items: { anyOf: [positionMessage, obdMessage] } },
    total: int,
    totalExact: { type: 'boolean' },
    pageIndex: int,
    pageSize: int,
  },
} as const;

/** The set status bits by name (the raw word is in `status`). */
const statusNames = (raw: number): string[] =>
  Object.entries(decodeStatus(raw))
    .filter(([k, v]) => k !== 'raw' && v === true)
    .map(([k]) => k);

export function registerMessageRoutes(app: FastifyInstance, { db }: ReportDeps): void {
  typed(app).post(
    '/api/vehicle/message/vehicle-:id',
    {
      config: { permission: NONE, labels: LABELS },
      schema: {
        tags: ['trips'],
        summary: "a vehicle's stored positions or OBD records in a time range, newest first, paged",
        params: { type: 'object', required: ['id'], properties: { id: idParam } } as const,
        body: pagingBody({ kind: { enum: ['position', 'obd'] }, begin: instant, end: instant }, ['kind', 'begin', 'end'], []),
        response: { 200: messagePage },
      },
    },
    async (req) => {
      const { id } = req.params;
      const body = req.body;
      await vehicleInScope(db, callerOf(req), id);
      const { from, to } = timeRange(body.criteria.begin, body.criteria.end, 'criteria.');
      const offset = (body.pageIndex - 1) * body.pageSize;
      const range = sql`vehicle_id = ${id} AND device_time >= ${new Date(from)} AND device_time <= ${new Date(to)}`;
      const page = <T>(data: T[], total: number) => ({ data, total, totalExact: true, pageIndex: body.pageIndex, pageSize: body.pageSize });
      if (body.criteria.kind === 'position') {
        const [rows, count] = await Promise.all([
          sql<PositionRow>`SELECT device_time AS time, received_at AS "receivedAt", latitude, longitude, altitude, speed, direction, alarm, status, acc, fixed,
                 mileage_km AS "mileageKm", fuel_l AS "fuelL", blind, extras
            FROM position WHERE ${range} ORDER BY device_time DESC LIMIT ${body.pageSize} OFFSET ${offset}`.execute(db),
          sql<{ n: number }>`SELECT count(*)::int AS n FROM position WHERE ${range}`.execute(db),
        ]);
        return page(
          rows.rows.map((r) => ({
            ...r,
            time: new Date(r.time).toISOString(),
            receivedAt: new Date(r.receivedAt).toISOString(),
            alarm: Number(r.alarm),
            status: Number(r.status),
            alarms: [...decodeAlarm(Number(r.alarm)).active],
            statusBits: statusNames(Number(r.status)),
          })),
          count.rows[0].n,
        );
      }
      const [rows, count] = await Promise.all([
        sql<ObdRow>`SELECT device_time AS time, received_at AS "receivedAt", subtype, latitude, longitude, readings, detail, dtc_count AS "dtcCount"
          FROM obd_record WHERE ${range} ORDER BY device_time DESC, subtype LIMIT ${body.pageSize} OFFSET ${offset}`.execute(db),
        sql<{ n: number }>`SELECT count(*)::int AS n FROM obd_record WHERE ${range}`.execute(db),
      ]);
      return page(
        rows.rows.map((r) => ({ ...r, time: new Date(r.time).toISOString(), receivedAt: new Date(r.receivedAt).toISOString() })),
        count.rows[0].n,
      );
    },
  );
}
