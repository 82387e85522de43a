import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { callerOf } from '../auth/authenticate';
import type { EntityModel } from '../crud/model';
import { getOne, scopeCondition } from '../crud/query';
import { invalid, notFound } from '../http/errors';
import { idParams, type VehicleDeps } from './deps';

const serviceBody = {
  type: 'object',
  additionalProperties: false,
  required: ['serviceEnd'],
  properties: {
    serviceStart: { type: ['string', 'null'], format: 'date' },
    serviceEnd: { type: 'string', format: 'date' },
  },
};

/**
 * SPEC §7 `editService`: the service period (start optional, end required) of a vehicle or a
 * terminal in the caller's subtree; an end before the start is refused on the field.
 */
function serviceRoute(app: FastifyInstance, deps: VehicleDeps, m: EntityModel, url: string, permission: string): void {
  app.put(url, { config: { permission, labels: m.labelPrefix }, schema: { tags: [m.name], summary: `edit the service period of a ${m.name}`, params: idParams, body: serviceBody } }, async (req) => {
    const caller = callerOf(req);
    const { id } = req.params as { id: number };
    const body = req.body as { serviceStart?: string | null; serviceEnd: string };
    const cur = await sql<{ start: string | null }>`SELECT t.service_start AS start FROM ${sql.raw(m.table)} t WHERE t.id = ${id} AND ${scopeCondition(m, caller)}`.execute(deps.db);
    if (!cur.rows.length) throw notFound();
    const start = body.serviceStart === undefined ? cur.rows[0].start : body.serviceStart;
    // ISO dates compare as text.
    if (start && body.serviceEnd < start) throw invalid([{ field: 'serviceEnd', key: 'vehicle.serviceEndBeforeStart', params: {}, labelKey: `${m.labelPrefix}.serviceEnd` }]);
    await sql`UPDATE ${sql.raw(m.table)} SET service_start = ${start}, service_end = ${body.serviceEnd}, updated_at = now() WHERE id = ${id}`.execute(deps.db);
    return getOne(deps.db, m, caller, id);
  });
}

export function registerServiceRoutes(app: FastifyInstance, deps: VehicleDeps): void {
  serviceRoute(app, deps, deps.model('vehicle'), '/api/vehicle/vehicle/editService/:id', 'vehicle-editService');
  serviceRoute(app, deps, deps.model('terminal'), '/api/vehicle/terminal/editService/:id', 'terminal-renew');
}
