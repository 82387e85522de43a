/**
 * Which vehicles a fence applies to (SPEC §7 vehicleFence): link vehicles, remove a link, list the
 * links. A fence with no links applies to every vehicle of its organisation's subtree. Fence and
 * vehicles must lie in the caller's subtree.
 */

import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { NONE } from '../../schemas/kit/authority';
import { MAX_PAGE_SIZE, pageResponseSchema } from '../../schemas/kit/entity';
import { callerOf } from '../platform/auth/authenticate';
import type { Caller } from '../platform/auth/caller';
import { idParam, idParams, noContent } from '../platform/crud/routeSpec';
import type { DB } from '../platform/db/tables';
import { AppError, notFound } from '../platform/http/errors';
import { typed } from '../platform/http/typed';
import { subtreeOrgIds } from '../platform/scope';

export const FENCE_LINK_PERMISSION = 'fence-edit';

const subtree = (caller: Caller) => subtreeOrgIds(caller.orgPath);

interface LinkRow {
  id: number;
  fenceId: number;
  fenceName: string;
  vehicleId: number;
  licence: string;
  createdAt: string;
}

const linkRow = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    fenceId: { type: 'integer' },
    fenceName: { type: 'string' },
    vehicleId: { type: 'integer' },
    licence: { type: 'string' },
    createdAt: { type: 'string' },
  },
} as const;

async function links(
  db: Kysely<DB>,
  caller: Caller,
  c: { fenceId?: number | null; vehicleId?: number | null },
  pageIndex: number,
  pageSize: number,
) {
  const where = sql.join(
    [
      sql`f.org_id = ANY (${subtree(caller)})`,
      sql`v.org_id = ANY (${subtree(caller)})`,
      ...(c.fenceId ? [sql`l.fence_id = ${c.fenceId}`] : []),
      ...(c.vehicleId ? [sql`l.vehicle_id = ${c.vehicleId}`] : []),
    ],
    sql` AND `,
  );
  const from = sql`FROM vehicle_fence l JOIN fence f ON f.id = l.fence_id JOIN vehicle v ON v.id = l.vehicle_id WHERE ${where}`;
  const rows = await sql<LinkRow & { createdAt: Date }>`
    SELECT l.id, l.fence_id AS "fenceId", f.name AS "fenceName", l.vehicle_id AS "vehicleId", v.licence, l.created_at AS "createdAt"
    ${from} ORDER BY f.name, v.licence, l.id LIMIT ${pageSize} OFFSET ${(pageIndex - 1) * pageSize}`.execute(db);
  const total = (await sql<{ n: number }>`SELECT count(*)::int AS n ${from}`.execute(db)).rows[0].n;
  return {
    data: rows.rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt).toISOString() })),
    total,
    totalExact: true,
    pageIndex,
    pageSize,
  };
}

export function registerFenceLinkRoutes(fastify: FastifyInstance, db: Kysely<DB>): void {
  const app = typed(fastify);
  const labels = 'alarm.fenceLink';
  app.put(
    '/api/vehicle/vehicleFence',
    {
      config: { permission: FENCE_LINK_PERMISSION, labels },
      schema: {
        tags: ['fence'],
        summary: 'link vehicles to a fence (links that exist are kept); answers the fence’s links',
        body: {
          type: 'object',
          required: ['fenceId', 'vehicleIds'],
          additionalProperties: false,
          properties: { fenceId: idParam, vehicleIds: { type: 'array', minItems: 1, maxItems: 1000, uniqueItems: true, items: idParam } },
        },
        response: { 200: pageResponseSchema(linkRow) },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const { fenceId, vehicleIds } = req.body;
      const fence = await sql`SELECT id FROM fence WHERE id = ${fenceId} AND org_id = ANY (${subtree(caller)})`.execute(db);
      if (!fence.rows.length) throw notFound();
      const seen = await sql<{
        id: number;
      }>`SELECT id FROM vehicle WHERE id = ANY (${vehicleIds}::int[]) AND org_id = ANY (${subtree(caller)})`.execute(db);
      if (seen.rows.length !== vehicleIds.length) {
        const known = new Set(seen.rows.map((r) => r.id));
        const i = vehicleIds.findIndex((v) => !known.has(v));
        throw new AppError(400, 'validation.refNotFound', {}, [
          { field: `vehicleIds.${i}`, key: 'validation.refNotFound', params: {}, labelKey: `${labels}.vehicleIds` },
        ]);
      }
      await sql`
        INSERT INTO vehicle_fence (fence_id, vehicle_id) SELECT ${fenceId}, v FROM unnest(${vehicleIds}::int[]) AS v
        ON CONFLICT (fence_id, vehicle_id) DO NOTHING`.execute(db);
      return links(db, caller, { fenceId }, 1, MAX_PAGE_SIZE);
    },
  );
  app.delete(
    '/api/vehicle/vehicleFence/deleteRel/:id',
    {
      config: { permission: FENCE_LINK_PERMISSION, labels },
      schema: { tags: ['fence'], summary: 'remove a vehicle’s link to a fence', params: idParams, response: noContent },
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const { id } = req.params;
      const r = await sql`
        DELETE FROM vehicle_fence l USING fence f, vehicle v
        WHERE l.id = ${id} AND f.id = l.fence_id AND v.id = l.vehicle_id AND f.org_id = ANY (${subtree(caller)}) AND v.org_id = ANY (${subtree(caller)})
        RETURNING l.id`.execute(db);
      if (!r.rows.length) throw notFound();
      return reply.status(204).send(null);
    },
  );
  app.post(
    '/api/vehicle/vehicleFence/query',
    {
      config: { permission: NONE, labels },
      schema: {
        tags: ['fence'],
        summary: 'links between fences and vehicles (criteria fenceId, vehicleId)',
        body: {
          type: ['object', 'null'],
          additionalProperties: false,
          properties: {
            criteria: {
              type: ['object', 'null'],
              additionalProperties: false,
              properties: { fenceId: { type: ['integer', 'null'], minimum: 1 }, vehicleId: { type: ['integer', 'null'], minimum: 1 } },
            },
            order: { type: ['object', 'null'] },
            pageIndex: { type: 'integer', minimum: 1, default: 1 },
            pageSize: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: 20 },
          },
        },
        response: { 200: pageResponseSchema(linkRow) },
      },
    },
    async (req) => {
      const b = req.body;
      return links(db, callerOf(req), b?.criteria ?? {}, b?.pageIndex ?? 1, b?.pageSize ?? 20);
    },
  );
}
