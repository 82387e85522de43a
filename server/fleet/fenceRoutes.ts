import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { callerOf } from '../platform/auth/authenticate';
import { getOne, scopeCondition } from '../platform/crud/query';
import { AppError, notFound } from '../platform/http/errors';
import { fenceGeometryProblem, type FenceGeometry, type FenceType } from '../../schemas/kit/fenceGeometry';
import type { FieldError } from '../../schemas/kit/errors';
import { typed } from '../platform/http/typed';
import { idParams, rowAnswer, type VehicleDeps } from './deps';

/** A fence body's geometry must fit its type (schemas/kit/fenceGeometry.ts): refused on `geometry`, saying why. */
export function checkFenceBody(body: Record<string, unknown>): FieldError[] {
  if (body.fenceType === undefined && body.geometry === undefined) return [];
  const p = fenceGeometryProblem(body.fenceType as FenceType, body.geometry as FenceGeometry | null);
  return p ? [{ field: 'geometry', key: p.key, params: p.params, labelKey: 'entity.fence.fields.geometry' }] : [];
}

/** SPEC §4: a geofence is opened and stopped by separate calls (its status is read-only elsewhere). */
export function registerFenceRoutes(fastify: FastifyInstance, { db, model }: VehicleDeps): void {
  const app = typed(fastify);
  const fences = model('fence');
  for (const [action, status] of [
    ['open', 'open'],
    ['stop', 'stopped'],
  ] as const) {
    app.post(
      `/api/vehicle/fence/${action}/:id`,
      {
        config: { permission: `fence-${action}`, labels: fences.labelPrefix },
        schema: { tags: ['fence'], summary: `${action} a geofence`, params: idParams, response: { 200: rowAnswer } },
      },
      async (req) => {
        const caller = callerOf(req);
        const { id } = req.params;
        // A district fence is evaluated only where its boundary is known: opening one without is refused.
        if (action === 'open') {
          const d = await sql<{
            missing: boolean;
          }>`SELECT t.fence_type = 'district' AND COALESCE(jsonb_typeof(t.geometry -> 'boundary'), 'null') <> 'object' AS missing FROM fence t WHERE t.id = ${id} AND ${scopeCondition(fences, caller)}`.execute(
            db,
          );
          if (d.rows[0]?.missing) throw new AppError(406, 'alarm.districtNoBoundary');
        }
        const r =
          await sql`UPDATE fence t SET status = ${status}, updated_at = now() WHERE t.id = ${id} AND ${scopeCondition(fences, caller)} RETURNING t.id`.execute(
            db,
          );
        if (!r.rows.length) throw notFound();
        return getOne(db, fences, caller, id);
      },
    );
  }
}
