import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { callerOf } from '../auth/authenticate';
import { getOne, scopeCondition } from '../crud/query';
import { notFound } from '../http/errors';
import { idParams, type VehicleDeps } from './deps';

/** SPEC §4: a geofence is opened and stopped by separate calls (its status is read-only elsewhere). */
export function registerFenceRoutes(app: FastifyInstance, { db, model }: VehicleDeps): void {
  const fences = model('fence');
  for (const [action, status] of [['open', 'open'], ['stop', 'stopped']] as const) {
    app.post(
      `/api/vehicle/fence/${action}/:id`,
      { config: { permission: `fence-${action}`, labels: fences.labelPrefix }, schema: { tags: ['fence'], summary: `${action} a geofence`, params: idParams } },
      async (req) => {
        const caller = callerOf(req);
        const { id } = req.params as { id: number };
        const r = await sql`UPDATE fence t SET status = ${status}, updated_at = now() WHERE t.id = ${id} AND ${scopeCondition(fences, caller)} RETURNING t.id`.execute(db);
        if (!r.rows.length) throw notFound();
        return getOne(db, fences, caller, id);
      },
    );
  }
}
