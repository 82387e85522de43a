/**
 * Alarm centre routes (SPEC §7): the alarm list (current and history, every category), handling
 * with a note (code `alarm-handle`), and the fence alarms with their fence.
 */

import type { DB } from '../platform/db/tables';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { NONE } from '../../schemas/kit/authority';
import { MAX_PAGE_SIZE, pageResponseSchema } from '../../schemas/kit/entity';
import { callerOf } from '../platform/auth/authenticate';
import { idParams, bool, int, nullable, str } from '../platform/crud/routeSpec';
import { typed } from '../platform/http/typed';
import { ALARM_ORDER, ALARM_STATES, handleAlarm, queryAlarms, toQuery } from './query';
import { registerAlarmExport } from './exportRoute';
import { ALARM_CATEGORIES, ALARM_TYPES } from '../intelligence/alarms/types';

export const ALARM_HANDLE_PERMISSION = 'alarm-handle';

const id = { type: ['integer', 'null'], minimum: 1, maximum: 2147483647 } as const;
const time = { type: ['string', 'null'], format: 'date-time' } as const;
/** The orderable columns (`Object.keys` forgets they are the table's keys). */
const ORDER_KEYS = Object.keys(ALARM_ORDER) as (keyof typeof ALARM_ORDER)[];

const criteria = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    id,
    type: { enum: [...ALARM_TYPES, null] },
    category: { enum: [...ALARM_CATEGORIES, null] },
    vehicleId: id,
    status: { enum: ['open', 'closed', null] },
    handled: nullable('boolean'),
    current: nullable('boolean'),
    state: { enum: [...ALARM_STATES, null] },
    begin: time,
    end: time,
    orgId: id,
    fenceId: id,
  },
} as const;

const body = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    criteria,
    order: {
      type: ['object', 'null'],
      additionalProperties: false,
      properties: {
        direction: { enum: ['ASC', 'DESC', 'asc', 'desc', 'ascend', 'descend', null] },
        property: { enum: [...ORDER_KEYS, null] },
      },
    },
    pageIndex: { type: 'integer', minimum: 1, default: 1 },
    pageSize: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: 20 },
  },
} as const;

/** An alarm as the lists answer it (the unread list of notifications too). */
export const ALARM_ROW_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    id: int,
    vehicleId: int,
    licence: str,
    type: str,
    category: str,
    level: str,
    begin: { type: 'string', format: 'date-time' },
    end: nullable('string'),
    status: { type: 'string', enum: ['open', 'closed'] },
    state: { type: 'string', enum: [...ALARM_STATES] },
    supersededBy: nullable('integer'),
    handled: bool,
    latitude: nullable('number'),
    longitude: nullable('number'),
    value: nullable('number'),
    detail: { type: ['object', 'null'], additionalProperties: true },
    handledBy: nullable('string'),
    handledAt: nullable('string'),
    note: nullable('string'),
  },
} as const;
const row = ALARM_ROW_SCHEMA;
const fenceRow = { ...row, properties: { ...row.properties, fenceId: nullable('integer'), fenceName: nullable('string') } };

export function registerAlarmRoutes(fastify: FastifyInstance, db: Kysely<DB>): void {
  const app = typed(fastify);
  const config = { permission: NONE, labels: 'alarm.fields' };
  app.post(
    '/api/vehicle/alarm/query',
    {
      config,
      schema: {
        tags: ['alarm'],
        summary: 'alarms of the caller’s vehicles (criteria.current: open or unhandled)',
        body,
        // Every alarm is answered with its fence (null but for fence alarms), as the fence list's.
        response: { 200: pageResponseSchema(fenceRow) },
      },
    },
    async (req) => queryAlarms(db, callerOf(req), toQuery(req.body)),
  );
  registerAlarmExport(app, db, body, (b) => toQuery(b));
  app.post(
    '/api/vehicle/vehicleFenceAlert/query',
    { config, schema: { tags: ['alarm'], summary: 'fence alarms, with the fence', body, response: { 200: pageResponseSchema(fenceRow) } } },
    async (req) => queryAlarms(db, callerOf(req), toQuery(req.body, { category: 'fence' })),
  );
  app.put(
    '/api/vehicle/alarm/:id/handle',
    {
      config: { permission: ALARM_HANDLE_PERMISSION, labels: 'alarm.fields' },
      schema: {
        tags: ['alarm'],
        summary: 'handle an alarm with a note; answers the alarm',
        response: { 200: fenceRow },
        params: idParams,
        body: {
          type: 'object',
          required: ['note'],
          additionalProperties: false,
          properties: {
            note: {
              type: 'string',
              minLength: 1,
              maxLength: 500,
              pattern: '\\S',
              'x-messages': {
                required: 'alarm.noteRequired',
                minLength: 'alarm.noteRequired',
                pattern: 'alarm.noteRequired',
                maxLength: 'alarm.noteTooLong',
              },
            },
          },
        },
      },
    },
    async (req) => {
      const { id: alarmId } = req.params;
      const caller = callerOf(req);
      await handleAlarm(db, caller, alarmId, req.body.note.trim());
      return (await queryAlarms(db, caller, { criteria: { id: alarmId }, property: 'begin', direction: 'DESC', pageIndex: 1, pageSize: 1 }))
        .data[0];
    },
  );
}
