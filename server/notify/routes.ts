/**
 * Notification routes: enabling and disabling a rule (SPEC `PUT notify/{a}/{b}`, code
 * `notify-enable`), setting a webhook rule's signing secret (write-only), the caller's unread
 * alarms and marking them read, and the webhook delivery log of the rules in the caller's scope.
 */

import { bool, int, nullable, str } from '../platform/crud/routeSpec';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { NONE } from '../../schemas/kit/authority';
import { pageResponseSchema } from '../../schemas/kit/entity';
import { callerOf } from '../platform/auth/authenticate';
import type { DB } from '../platform/db/tables';
import { notFound } from '../platform/http/errors';
import { typed } from '../platform/http/typed';
import { offsetOf, pageOf, pagingBodySchema, pagingOf } from '../platform/paging';
import { pathUnder } from '../platform/scope';
import { ALARM_ROW_SCHEMA } from '../alarmCentre/routes';

export const NOTIFY_ENABLE_PERMISSION = 'notify-enable';
export const NOTIFY_EDIT_PERMISSION = 'notify-edit';

const idParam = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;

/** An alarm row (the fields the unread list selects) and when it was notified. */
const unreadRow = { ...ALARM_ROW_SCHEMA, properties: { ...ALARM_ROW_SCHEMA.properties, notifiedAt: str } };

const deliveryRow = {
  type: 'object',
  properties: {
    id: int,
    notifyId: int,
    notifyName: str,
    alarmId: int,
    alarmType: str,
    licence: str,
    channel: str,
    url: nullable('string'),
    status: str,
    attempts: int,
    httpStatus: nullable('integer'),
    error: nullable('string'),
    createdAt: str,
    updatedAt: str,
  },
} as const;

const iso = (d: Date | string): string => new Date(d).toISOString();

/** The rule, when it lies in the caller's subtree; 404 otherwise (another subtree's rule is not there). */
async function ruleInScope(db: Kysely<DB>, orgPath: string, id: number): Promise<void> {
  const r = await sql<{
    id: number;
  }>`SELECT n.id FROM notify n JOIN organisation o ON o.id = n.org_id WHERE n.id = ${id} AND ${pathUnder('o.path', orgPath)}`.execute(db);
  if (!r.rows.length) throw notFound();
}

export function registerNotifyRoutes(fastify: FastifyInstance, db: Kysely<DB>): void {
  const app = typed(fastify);
  app.put(
    '/api/vehicle/notify/:id/secret',
    {
      config: { permission: NOTIFY_EDIT_PERMISSION, labels: 'notify.fields' },
      schema: {
        tags: ['notify'],
        summary: 'set (or clear, with null) the HMAC-SHA256 secret webhook deliveries of the rule are signed with; never read back',
        params: { type: 'object', required: ['id'], properties: { id: idParam } },
        body: {
          type: 'object',
          required: ['secret'],
          additionalProperties: false,
          properties: {
            secret: {
              type: ['string', 'null'],
              minLength: 16,
              maxLength: 200,
              'x-messages': { minLength: 'notify.secretTooShort', maxLength: 'notify.secretTooLong' },
            },
          },
        },
        response: { 200: { type: 'object', properties: { id: int, hasSecret: bool } } },
      },
    },
    async (req) => {
      const { id } = req.params;
      const { secret } = req.body;
      await ruleInScope(db, callerOf(req).orgPath, id);
      await sql`UPDATE notify SET secret = ${secret}, updated_at = now() WHERE id = ${id}`.execute(db);
      return { id, hasSecret: secret !== null };
    },
  );
  app.put(
    '/api/vehicle/notify/:id/:action',
    {
      config: { permission: NOTIFY_ENABLE_PERMISSION, labels: 'notify.fields' },
      schema: {
        tags: ['notify'],
        summary: 'enable or disable a notification rule',
        params: { type: 'object', required: ['id', 'action'], properties: { id: idParam, action: { enum: ['enable', 'disable'] } } },
        response: { 200: { type: 'object', properties: { id: int, enabled: bool } } },
      },
    },
    async (req) => {
      const { id, action } = req.params;
      await ruleInScope(db, callerOf(req).orgPath, id);
      const enabled = action === 'enable';
      await sql`UPDATE notify SET enabled = ${enabled}, updated_at = now() WHERE id = ${id}`.execute(db);
      return { id, enabled };
    },
  );
  app.post(
    '/api/vehicle/notify/unread/query',
    {
      config: { permission: NONE },
      schema: {
        tags: ['notify'],
        summary: 'the caller’s unread alarms, newest first',
        body: pagingBodySchema({}, [], { nullable: true }),
        response: { 200: pageResponseSchema(unreadRow) },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const p = pagingOf(req);
      const from = sql`FROM notify_unread u JOIN alarm a ON a.id = u.alarm_id JOIN vehicle v ON v.id = a.vehicle_id JOIN organisation o ON o.id = v.org_id
                       WHERE u.member_id = ${caller.memberId} AND ${pathUnder('o.path', caller.orgPath)}`;
      const rows = await sql<{
        id: number;
        vehicleId: number;
        licence: string;
        type: string;
        category: string;
        level: string;
        begin: Date;
        end: Date | null;
        value: number | null;
        notifiedAt: Date;
      }>`
        SELECT a.id, a.vehicle_id AS "vehicleId", v.licence, a.type, a.category, a.level, a.begin_time AS begin, a.end_time AS "end", a.value, u.created_at AS "notifiedAt"
        ${from} ORDER BY u.created_at DESC, a.id DESC LIMIT ${p.pageSize} OFFSET ${offsetOf(p)}`.execute(db);
      const data = rows.rows.map((r) => ({
        ...r,
        begin: iso(r.begin),
        end: r.end === null ? null : iso(r.end),
        notifiedAt: iso(r.notifiedAt),
      }));
      return pageOf(
        p,
        data,
        async (limit) =>
          (await sql<{ n: number }>`SELECT count(*)::int AS n FROM (SELECT 1 ${from} LIMIT ${limit}) c`.execute(db)).rows[0].n,
      );
    },
  );
  app.put(
    '/api/vehicle/notify/unread/read',
    {
      config: { permission: NONE },
      schema: {
        tags: ['notify'],
        summary: 'mark the caller’s unread alarms read: those listed, or all when alarmIds is absent or null',
        body: {
          type: ['object', 'null'],
          additionalProperties: false,
          properties: { alarmIds: { type: ['array', 'null'], maxItems: 1000, items: idParam } },
        },
        response: { 200: { type: 'object', properties: { read: int } } },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const ids = req.body?.alarmIds ?? null;
      const r =
        await sql`DELETE FROM notify_unread WHERE member_id = ${caller.memberId} ${ids ? sql`AND alarm_id = ANY (${ids}::int[])` : sql``}`.execute(
          db,
        );
      return { read: Number(r.numAffectedRows ?? 0) };
    },
  );
  app.post(
    '/api/vehicle/notify/delivery/query',
    {
      config: { permission: NONE },
      schema: {
        tags: ['notify'],
        summary: 'the webhook and SMS-gateway delivery log of the rules in the caller’s scope, newest first',
        body: pagingBodySchema(
          {
            notifyId: { type: ['integer', 'null'], minimum: 1, maximum: 2147483647 },
            alarmId: { type: ['integer', 'null'], minimum: 1, maximum: 2147483647 },
            status: { enum: ['pending', 'delivered', 'failed', null] },
          },
          [],
          { nullable: true },
        ),
        response: { 200: pageResponseSchema(deliveryRow) },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const p = pagingOf(req);
      const c = (p.criteria ?? {}) as { notifyId?: number | null; alarmId?: number | null; status?: string | null };
      const from = sql`FROM notify_delivery d JOIN notify n ON n.id = d.notify_id JOIN organisation o ON o.id = n.org_id
                       JOIN alarm a ON a.id = d.alarm_id JOIN vehicle v ON v.id = a.vehicle_id
                       WHERE ${pathUnder('o.path', caller.orgPath)}
                       ${c.notifyId ? sql`AND d.notify_id = ${c.notifyId}` : sql``} ${c.alarmId ? sql`AND d.alarm_id = ${c.alarmId}` : sql``}
                       ${c.status ? sql`AND d.status = ${c.status}` : sql``}`;
      const rows = await sql<{ createdAt: Date; updatedAt: Date } & Record<string, unknown>>`
        SELECT d.id, d.notify_id AS "notifyId", n.name AS "notifyName", d.alarm_id AS "alarmId", a.type AS "alarmType", v.licence, d.channel, d.url, d.status,
               d.attempts, d.http_status AS "httpStatus", d.error, d.created_at AS "createdAt", d.updated_at AS "updatedAt"
        ${from} ORDER BY d.created_at DESC, d.id DESC LIMIT ${p.pageSize} OFFSET ${offsetOf(p)}`.execute(db);
      const data = rows.rows.map((r) => ({ ...r, createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt) }));
      return pageOf(
        p,
        data,
        async (limit) =>
          (await sql<{ n: number }>`SELECT count(*)::int AS n FROM (SELECT 1 ${from} LIMIT ${limit}) c`.execute(db)).rows[0].n,
      );
    },
  );
}
