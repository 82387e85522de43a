import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { callerOf } from '../platform/auth/authenticate';
import type { EntityModel } from '../platform/crud/model';
import { getOne, scopeCondition } from '../platform/crud/query';
import { invalid, notFound } from '../platform/http/errors';
import { idParams, type VehicleDeps } from './deps';

/** The entity's own service properties (and so its date-order rule), the end required. */
const serviceBody = (m: EntityModel) => ({
  type: 'object',
  additionalProperties: false,
  required: ['serviceEnd'],
  properties: {
    serviceStart: m.schema.properties.serviceStart,
    serviceEnd: { ...m.schema.properties.serviceEnd, type: 'string' },
  },
});

/**
 * SPEC §7 `editService`: the service period (start optional, end required) of a vehicle or a
 * terminal in the caller's subtree; an end before the start is refused on the field.
 */
function serviceRoute(app: FastifyInstance, deps: VehicleDeps, m: EntityModel, url: string, permission: string): void {
  app.put(
    url,
    {
      config: { permission, labels: m.labelPrefix },
      schema: { tags: [m.name], summary: `edit the service period of a ${m.name}`, params: idParams, body: serviceBody(m) },
    },
    async (req) => {
      const caller = callerOf(req);
      const { id } = req.params as { id: number };
      const body = req.body as { serviceStart?: string | null; serviceEnd: string };
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

export function registerServiceRoutes(app: FastifyInstance, deps: VehicleDeps): void {
  serviceRoute(app, deps, deps.model('vehicle'), '/api/vehicle/vehicle/editService/:id', 'vehicle-editService');
  serviceRoute(app, deps, deps.model('terminal'), '/api/vehicle/terminal/editService/:id', 'terminal-renew');
}
