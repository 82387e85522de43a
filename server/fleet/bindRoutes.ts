import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { callerOf } from '../platform/auth/authenticate';
import { getOne, scopeCondition } from '../platform/crud/query';
import { AppError, notFound } from '../platform/http/errors';
import { typed } from '../platform/http/typed';
import { idParam, idParams, rowAnswer, type VehicleDeps } from './deps';

/**
 * SPEC §4/§7: a vehicle is bound to at most one terminal and a terminal to at most one vehicle.
 * Both must lie in the caller's subtree (404 otherwise); a terminal bound elsewhere is 406.
 */
export function registerBindRoutes(fastify: FastifyInstance, { db, model }: VehicleDeps): void {
  const app = typed(fastify);
  const vehicles = model('vehicle');
  const terminals = model('terminal');
  const labels = vehicles.labelPrefix;

  app.put(
    '/api/vehicle/vehicle/bind/:vehicleId/:terminalId',
    {
      config: { permission: 'vehicle-bind', labels },
      schema: {
        tags: ['vehicle'],
        summary: 'bind a terminal to a vehicle',
        params: { type: 'object', required: ['vehicleId', 'terminalId'], properties: { vehicleId: idParam, terminalId: idParam } } as const,
        response: { 200: rowAnswer },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const { vehicleId, terminalId } = req.params;
      const bound = await db.transaction().execute(async (trx) => {
        // Lock the vehicle row so two binds of one vehicle cannot both pass the checks.
        const v = await sql<{
          terminalId: number | null;
        }>`SELECT t.terminal_id AS "terminalId" FROM vehicle t WHERE t.id = ${vehicleId} AND ${scopeCondition(vehicles, caller)} FOR UPDATE`.execute(
          trx,
        );
        if (!v.rows.length) throw notFound();
        const term = await sql`SELECT 1 FROM terminal t WHERE t.id = ${terminalId} AND ${scopeCondition(terminals, caller)}`.execute(trx);
        if (!term.rows.length) throw notFound();
        const current = v.rows[0].terminalId;
        if (current === terminalId) return false; // already so: binding again changes nothing
        if (current !== null) throw new AppError(406, 'vehicle.hasTerminal');
        const other = await sql`SELECT 1 FROM vehicle WHERE terminal_id = ${terminalId}`.execute(trx);
        if (other.rows.length) throw new AppError(406, 'vehicle.terminalBound');
        await sql`UPDATE vehicle SET terminal_id = ${terminalId}, updated_at = now() WHERE id = ${vehicleId}`.execute(trx);
        return true;
      });
      // The terminal's live session reports for this vehicle from now on.
      if (bound) await app.terminalSessions.rebind([terminalId]);
      return getOne(db, vehicles, caller, vehicleId);
    },
  );

  app.put(
    '/api/vehicle/vehicle/unbind/:id',
    {
      config: { permission: 'vehicle-unbind', labels },
      schema: { tags: ['vehicle'], summary: 'unbind the terminal of a vehicle', params: idParams, response: { 200: rowAnswer } },
    },
    async (req) => {
      const caller = callerOf(req);
      const { id } = req.params;
      const r = await sql<{
        terminalId: number | null;
      }>`SELECT t.terminal_id AS "terminalId" FROM vehicle t WHERE t.id = ${id} AND ${scopeCondition(vehicles, caller)}`.execute(db);
      if (!r.rows.length) throw notFound();
      if (r.rows[0].terminalId === null) throw new AppError(406, 'vehicle.notBound');
      await sql`UPDATE vehicle SET terminal_id = NULL, updated_at = now() WHERE id = ${id}`.execute(db);
      await app.terminalSessions.rebind([r.rows[0].terminalId]);
      return getOne(db, vehicles, caller, id);
    },
  );
}
