import type { FastifyInstance } from 'fastify';
import type { FromSchema } from 'json-schema-to-ts';
import { sql } from 'kysely';
import { callerOf } from '../platform/auth/authenticate';
import type { EntityModel } from '../platform/crud/model';
import { getOne, scopeCondition } from '../platform/crud/query';
import { invalid, notFound } from '../platform/http/errors';
import { typed, type TypedApp } from '../platform/http/typed';
import { idParams, rowAnswer, type IdParams, type VehicleDeps } from './deps';

/** The service period body: the start optional (null clears it), the end required. */
const serviceShape = {
  type: 'object',
  additionalProperties: false,
  required: ['serviceEnd'],
  properties: { serviceStart: { type: ['string', 'null'] }, serviceEnd: { type: 'string' } },
} as const;

/** `serviceShape` over the entity's own service properties (their format and date-order rule), read at start. */
const serviceBody = (m: EntityModel) => ({
  ...serviceShape,
  properties: {
    serviceStart: { ...m.schema.properties.serviceStart, ...serviceShape.properties.serviceStart },
    serviceEnd: { ...m.schema.properties.serviceEnd, ...serviceShape.properties.serviceEnd },
  },
});

/**
 * SPEC §7 `editService`: the service period (start optional, end required) of a vehicle or a
 * terminal in the caller's subtree; an end before the start is refused on the field.
 */
function serviceRoute(app: TypedApp, deps: VehicleDeps, m: EntityModel, url: string, permission: string): void {
  app.put<{ Body: FromSchema<typeof serviceShape>; Params: IdParams }>(
    url,
    {
      config: { permission, labels: m.labelPrefix },
      schema: {
        tags: [m.name],
        summary: `edit the service period of a ${m.name}`,
        params: idParams,
        body: serviceBody(m),
        response: { 200: rowAnswer },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const { id } = req.params;
      const body = req.body;
      const cur = await sql<{
        start: string | null;
      }>`SELECT t.service_start AS start FROM ${sql.raw(m.table)} t WHERE t.id = ${id} AND ${scopeCondition(m, caller)}`.execute(deps.db);
      if (!cur.rows.length) throw notFound();
      const start = body.serviceStart === undefined ? cur.rows[0].start : body.serviceStart;
      // The schema's rule when the start is the stored one (ISO dates compare as text).
      if (start && body.serviceEnd < start)
        throw invalid([
          {
            field: 'serviceEnd',
            key: 'validation.notBefore',
            params: {},
            labelKey: `${m.labelPrefix}.serviceEnd`,
            labelParams: { other: `${m.labelPrefix}.serviceStart` },
          },
        ]);
      await sql`UPDATE ${sql.raw(m.table)} SET service_start = ${start}, service_end = ${body.serviceEnd}, updated_at = now() WHERE id = ${id}`.execute(
        deps.db,
      );
      return getOne(deps.db, m, caller, id);
    },
  );
}

export function registerServiceRoutes(fastify: FastifyInstance, deps: VehicleDeps): void {
  const app = typed(fastify);
  serviceRoute(app, deps, deps.model('vehicle'), '/api/vehicle/vehicle/editService/:id', 'vehicle-editService');
  serviceRoute(app, deps, deps.model('terminal'), '/api/vehicle/terminal/editService/:id', 'terminal-renew');
}
