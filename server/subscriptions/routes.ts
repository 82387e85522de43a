/**
 * Event subscriptions of an organisation: created (the signing secret shown once, unless the
 * caller sets it), listed, changed, paused and resumed, deleted; their delivery log, and a replay
 * of their events from a time. Every subscription lies in the caller's subtree (another subtree's
 * is not there: 404); its vehicles lie in its own organisation's subtree; its URL passes the
 * webhook guard when saved (and again when connecting, in the deliverer).
 */

import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { NONE } from '../../schemas/kit/authority';
import { pageResponseSchema } from '../../schemas/kit/entity';
import type { FieldError } from '../../schemas/kit/errors';
import { auditRequest } from '../platform/audit';
import { callerOf } from '../platform/auth/authenticate';
import type { Caller } from '../platform/auth/caller';
import { idParam, idParams, int, noContent, nullable, str } from '../platform/crud/routeSpec';
import type { DB } from '../platform/db/tables';
import { invalid, notFound } from '../platform/http/errors';
import { typed } from '../platform/http/typed';
import { offsetOf, pageOf, pagingBodySchema, pagingOf } from '../platform/paging';
import { pathOfOrg, pathUnder } from '../platform/scope';
import { targetFieldError, type TargetAllow } from '../notify/target';
import { deliveryKey } from './deliverer';
import { EVENT_TYPES } from './events';
import { replay, resume } from './outbox';

export const SUBSCRIPTION_ADD = 'subscription-add';
export const SUBSCRIPTION_EDIT = 'subscription-edit';
export const SUBSCRIPTION_REMOVE = 'subscription-remove';
export const SUBSCRIPTION_REPLAY = 'subscription-replay';

const BASE = '/api/vehicle/subscription';
const LABELS = 'subscription.fields';
const LIST_LIMIT = 500;

const secretSchema = {
  type: 'string',
  minLength: 16,
  maxLength: 200,
  'x-messages': { minLength: 'notify.secretTooShort', maxLength: 'notify.secretTooLong' },
} as const;
const fields = {
  name: { type: 'string', minLength: 1, maxLength: 64 },
  url: { type: 'string', minLength: 1, maxLength: 2000 },
  orgId: idParam,
  eventTypes: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: [...EVENT_TYPES] } },
  vehicleIds: { type: ['array', 'null'], minItems: 1, maxItems: 1000, uniqueItems: true, items: idParam },
  secret: secretSchema,
  contactEmail: { type: ['string', 'null'], format: 'email', maxLength: 254 },
} as const;

const view = {
  type: 'object',
  properties: {
    id: int,
    orgId: int,
    orgName: str,
    name: str,
    url: str,
    eventTypes: { type: 'array', items: str },
    vehicleIds: { type: ['array', 'null'], items: int },
    state: str,
    pausedReason: nullable('string'),
    failingSince: nullable('string'),
    contactEmail: nullable('string'),
    pending: int,
    createdAt: str,
    updatedAt: str,
  },
} as const;

const deliveryRow = {
  type: 'object',
  properties: {
    id: int,
    deliveryKey: str,
    eventType: str,
    vehicleId: int,
    eventTime: str,
    status: str,
    attempts: int,
    httpStatus: nullable('integer'),
    latencyMs: nullable('integer'),
    error: nullable('string'),
    nextAt: str,
    updatedAt: str,
  },
} as const;

interface Row {
  id: number;
  orgId: number;
  orgName: string;
  name: string;
  url: string;
  eventTypes: string[];
  vehicleIds: number[] | null;
  state: string;
  pausedReason: string | null;
  failingSince: Date | null;
  contactEmail: string | null;
  pending: number;
  createdAt: Date;
  updatedAt: Date;
}

const iso = (d: Date | string) => new Date(d).toISOString();
const present = (r: Row) => ({
  ...r,
  failingSince: r.failingSince === null ? null : iso(r.failingSince),
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});

export function registerSubscriptionRoutes(fastify: FastifyInstance, db: Kysely<DB>, allow: TargetAllow): void {
  const app = typed(fastify);
  const rows = async (caller: Caller, id: number | null): Promise<Row[]> =>
    (
      await sql<Row>`
        SELECT s.id, s.org_id AS "orgId", o.name AS "orgName", s.name, s.url, s.event_types AS "eventTypes", s.vehicle_ids AS "vehicleIds",
               s.state, s.paused_reason AS "pausedReason", s.failing_since AS "failingSince", s.contact_email AS "contactEmail", s.created_at AS "createdAt", s.updated_at AS "updatedAt",
               (SELECT count(*)::int FROM subscription_delivery d WHERE d.subscription_id = s.id AND d.status = 'pending') AS pending
        FROM subscription s JOIN organisation o ON o.id = s.org_id
        WHERE ${pathUnder('o.path', caller.orgPath)} ${id === null ? sql`` : sql`AND s.id = ${id}`}
        ORDER BY s.id LIMIT ${LIST_LIMIT}`.execute(db)
    ).rows;
  const inScope = async (caller: Caller, id: number): Promise<Row> => {
    const [row] = await rows(caller, id);
    if (!row) throw notFound();
    return row;
  };

  /** What the schemas cannot say: the URL's target, the organisation's and the vehicles' place. */
  const check = async (
    caller: Caller,
    body: { url?: string; orgId?: number; vehicleIds?: number[] | null },
    orgId: number,
  ): Promise<void> => {
    const errors: FieldError[] = [];
    const target = body.url !== undefined ? targetFieldError(body.url, allow, `${LABELS}.url`) : null;
    if (target) errors.push(target);
    if (body.orgId !== undefined) {
      const r = await sql`SELECT 1 FROM organisation o WHERE o.id = ${orgId} AND ${pathUnder('o.path', caller.orgPath)}`.execute(db);
      if (!r.rows.length) errors.push({ field: 'orgId', key: 'subscription.orgOutside', params: {}, labelKey: `${LABELS}.orgId` });
    }
    if (body.vehicleIds) {
      const r = await sql<{ id: number }>`
        SELECT v.id FROM vehicle v JOIN organisation o ON o.id = v.org_id
        WHERE v.id = ANY (${body.vehicleIds}::int[]) AND ${pathUnder('o.path', pathOfOrg(orgId))} AND ${pathUnder('o.path', caller.orgPath)}`.execute(
        db,
      );
      const found = new Set(r.rows.map((x) => x.id));
      const outside = body.vehicleIds.filter((v) => !found.has(v));
      if (outside.length)
        errors.push({
          field: 'vehicleIds',
          key: 'subscription.vehicleOutside',
          params: { ids: outside.join(', ') },
          labelKey: `${LABELS}.vehicleIds`,
        });
    }
    if (errors.length) throw invalid(errors);
  };

  app.get(
    BASE,
    {
      config: { permission: NONE, labels: LABELS },
      schema: {
        tags: ['subscription'],
        summary: 'the event subscriptions in the caller’s subtree',
        response: { 200: { type: 'array', items: view } },
      },
    },
    async (req) => (await rows(callerOf(req), null)).map(present),
  );

  app.get(
    `${BASE}/:id`,
    {
      config: { permission: NONE, labels: LABELS },
      schema: { tags: ['subscription'], summary: 'one event subscription', params: idParams, response: { 200: view } },
    },
    async (req) => present(await inScope(callerOf(req), req.params.id)),
  );

  app.post(
    BASE,
    {
      config: { permission: SUBSCRIPTION_ADD, labels: LABELS },
      schema: {
        tags: ['subscription'],
        summary: 'create an event subscription; the answer carries its signing secret, never shown again',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['name', 'url', 'eventTypes'],
          properties: fields,
        },
        response: { 200: { type: 'object', properties: { ...view.properties, secret: str } } },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const { body } = req;
      const orgId = body.orgId ?? caller.orgId;
      await check(caller, body, orgId);
      const secret = body.secret ?? randomBytes(32).toString('base64url');
      const r = await sql<{ id: number }>`
        INSERT INTO subscription (org_id, name, url, secret, event_types, vehicle_ids, contact_email, created_by)
        VALUES (${orgId}, ${body.name}, ${body.url}, ${secret}, ${body.eventTypes}::text[], ${body.vehicleIds ?? null}::int[], ${body.contactEmail ?? null},
                ${caller.memberId})
        RETURNING id`.execute(db);
      const id = r.rows[0].id;
      await auditRequest(db, req, caller, 'subscriptionCreate', body.name, { id, url: body.url });
      return { ...present(await inScope(caller, id)), secret };
    },
  );

  app.put(
    `${BASE}/:id`,
    {
      config: { permission: SUBSCRIPTION_EDIT, labels: LABELS },
      schema: {
        tags: ['subscription'],
        summary: 'change an event subscription; state "paused" pauses it, "active" resumes it (its kept events are sent again)',
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          properties: {
            name: fields.name,
            url: fields.url,
            eventTypes: fields.eventTypes,
            vehicleIds: fields.vehicleIds,
            secret: secretSchema,
            contactEmail: fields.contactEmail,
            state: { enum: ['active', 'paused'] },
          },
        },
        response: { 200: view },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const { id } = req.params;
      const { body } = req;
      const before = await inScope(caller, id);
      await check(caller, body, before.orgId);
      await sql`
        UPDATE subscription SET
          name = ${body.name ?? before.name}, url = ${body.url ?? before.url},
          event_types = ${body.eventTypes ?? before.eventTypes}::text[],
          vehicle_ids = ${body.vehicleIds === undefined ? before.vehicleIds : body.vehicleIds}::int[],
          contact_email = ${body.contactEmail === undefined ? before.contactEmail : body.contactEmail},
          ${body.secret ? sql`secret = ${body.secret},` : sql``}
          updated_at = now()
        WHERE id = ${id}`.execute(db);
      if (body.state === 'active' && before.state !== 'active') await resume(db, id);
      if (body.state === 'paused' && before.state !== 'paused')
        await sql`UPDATE subscription SET state = 'paused', paused_reason = 'manual', updated_at = now() WHERE id = ${id}`.execute(db);
      const { secret: _secret, ...changed } = body;
      await auditRequest(db, req, caller, 'subscriptionUpdate', before.name, { id, ...changed, secretChanged: body.secret !== undefined });
      return present(await inScope(caller, id));
    },
  );

  app.delete(
    `${BASE}/:id`,
    {
      config: { permission: SUBSCRIPTION_REMOVE, labels: LABELS },
      schema: { tags: ['subscription'], summary: 'delete an event subscription and its outbox', params: idParams, response: noContent },
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const { id } = req.params;
      const before = await inScope(caller, id);
      await sql`DELETE FROM subscription WHERE id = ${id}`.execute(db);
      await auditRequest(db, req, caller, 'subscriptionDelete', before.name, { id });
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${BASE}/:id/replay`,
    {
      config: { permission: SUBSCRIPTION_REPLAY, labels: LABELS },
      schema: {
        tags: ['subscription'],
        summary: 'send again the subscription’s events from a time (with their delivery keys); answers how many were queued',
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['from'],
          properties: { from: { type: 'string', format: 'date-time' } },
        },
        response: { 200: { type: 'object', properties: { id: int, queued: int } } },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const { id } = req.params;
      const { from } = req.body;
      const before = await inScope(caller, id);
      const queued = await replay(db, id, new Date(from));
      await auditRequest(db, req, caller, 'subscriptionReplay', before.name, { id, from, queued });
      return { id, queued };
    },
  );

  app.post(
    `${BASE}/:id/delivery/query`,
    {
      config: { permission: NONE, labels: LABELS },
      schema: {
        tags: ['subscription'],
        summary: 'the subscription’s delivery log, newest event first',
        params: idParams,
        body: pagingBodySchema({ status: { enum: ['pending', 'delivered', 'failed', null] } }, [], { nullable: true }),
        response: { 200: pageResponseSchema(deliveryRow) },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const { id } = req.params;
      await inScope(caller, id);
      const p = pagingOf(req);
      const status = ((p.criteria ?? {}) as { status?: string | null }).status;
      const from = sql`FROM subscription_delivery d WHERE d.subscription_id = ${id} ${status ? sql`AND d.status = ${status}` : sql``}`;
      const r = await sql<
        { subscriptionId: number; eventKey: string; eventTime: Date; nextAt: Date; updatedAt: Date } & Record<string, unknown>
      >`
        SELECT d.id::int AS id, d.subscription_id AS "subscriptionId", d.event_key AS "eventKey", d.event_type AS "eventType", d.vehicle_id AS "vehicleId",
               d.event_time AS "eventTime", d.status, d.attempts, d.http_status AS "httpStatus", d.latency_ms AS "latencyMs", d.error,
               d.next_at AS "nextAt", d.updated_at AS "updatedAt"
        ${from} ORDER BY d.event_time DESC, d.id DESC LIMIT ${p.pageSize} OFFSET ${offsetOf(p)}`.execute(db);
      const data = r.rows.map(({ subscriptionId, eventKey, ...x }) => ({
        ...x,
        deliveryKey: deliveryKey({ subscriptionId, eventKey }),
        eventTime: iso(x.eventTime),
        nextAt: iso(x.nextAt),
        updatedAt: iso(x.updatedAt),
      }));
      return pageOf(
        p,
        data,
        async (limit) =>
          (await sql<{ n: number }>`SELECT count(*)::int AS n FROM (SELECT 1 ${from} LIMIT ${limit}) c`.execute(db)).rows[0].n,
      );
    },
  );
}
