import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { callerOf } from '../platform/auth/authenticate';
import { NONE, type Caller } from '../platform/auth/caller';
import { getOne, scopeCondition } from '../platform/crud/query';
import { AppError, notFound } from '../platform/http/errors';
import { pathUnder } from '../platform/scope';
import { typed } from '../platform/http/typed';
import { idParam, rowAnswer, type VehicleDeps } from './deps';

/** An id, or 0 for "none" (clears the link). */
const idOrNone = { type: 'integer', minimum: 0, maximum: 2147483647 } as const;
/** `:vehicleId/:<other>`: the vehicle and the row its link points at (0: none). */
const linkParams = (other: string) => ({
  type: 'object',
  required: ['vehicleId', other],
  properties: { vehicleId: idParam, [other]: idOrNone },
});
/** Applications whose members may own a vehicle in the app (SPEC §1 app accounts). */
const APP = 'vehicle-app';

const vehicleIdParams = { type: 'object', required: ['vehicleId'], properties: { vehicleId: idParam } } as const;

/** A vehicle's app-account owner; all null when it has none. */
const ownerAnswer = {
  type: 'object',
  required: ['memberId', 'loginName', 'name'],
  properties: { memberId: { type: ['integer', 'null'] }, loginName: { type: ['string', 'null'] }, name: { type: ['string', 'null'] } },
} as const;

/** A vehicle found by text: its id and licence (the select's value and label), VIN, organisation and terminal. */
const foundVehicle = {
  type: 'object',
  required: ['value', 'label', 'vin', 'orgId', 'terminalId'],
  properties: {
    value: { type: 'integer' },
    label: { type: 'string' },
    vin: { type: ['string', 'null'] },
    orgId: { type: 'integer' },
    terminalId: { type: ['integer', 'null'] },
  },
} as const;

/**
 * SPEC §7's remaining vehicle-service calls (README "Vehicle service calls"): a vehicle's app-account
 * owner, a terminal replaced in one step, a vehicle search by text, a driver assigned to a
 * vehicle and a feedback's state. Everything named must lie in the caller's subtree (404 otherwise).
 */
export function registerAssignRoutes(fastify: FastifyInstance, { db, model, has }: VehicleDeps): void {
  const app = typed(fastify);
  const vehicles = model('vehicle');
  const labels = vehicles.labelPrefix;

  /** The vehicle row locked inside the caller's scope (404 when not there). */
  const scopedVehicle = async (trx: typeof db, caller: ReturnType<typeof callerOf>, id: number) => {
    const v = await sql<{
      terminalId: number | null;
      orgPath: string;
    }>`SELECT t.terminal_id AS "terminalId", o.path AS "orgPath" FROM vehicle t JOIN organisation o ON o.id = t.org_id WHERE t.id = ${id} AND ${scopeCondition(vehicles, caller)} FOR UPDATE OF t`.execute(
      trx,
    );
    if (!v.rows.length) throw notFound();
    return v.rows[0];
  };

  /**
   * `PUT …/:vehicleId/:otherId`: points one of a vehicle's links at another row of the caller's
   * subtree (0 clears it) once `check` has found that row usable; answers the vehicle.
   */
  const linkRoute = (
    path: string,
    other: 'memberId' | 'driverId',
    column: 'owner_member_id' | 'driver_id',
    summary: string,
    check: (trx: typeof db, caller: Caller, id: number) => Promise<void>,
    answer: (caller: Caller, vehicleId: number, id: number) => Promise<unknown> = (caller, vehicleId) =>
      getOne(db, vehicles, caller, vehicleId),
  ) =>
    // The params name the link's column, so their schema is built per route and their type said here.
    app.put<{ Params: Record<string, number> }>(
      path,
      {
        config: { permission: 'vehicle-edit', labels },
        schema: { tags: ['vehicle'], summary, params: linkParams(other), response: { 200: rowAnswer } },
      },
      async (req) => {
        const caller = callerOf(req);
        const { vehicleId, [other]: id } = req.params;
        await db.transaction().execute(async (trx) => {
          await scopedVehicle(trx, caller, vehicleId);
          if (id) await check(trx, caller, id);
          await sql`UPDATE vehicle SET ${sql.ref(column)} = ${id || null}, updated_at = now() WHERE id = ${vehicleId}`.execute(trx);
        });
        return answer(caller, vehicleId, id);
      },
    );

  linkRoute(
    '/api/vehicle/vehicle/:vehicleId/:memberId',
    'memberId',
    'owner_member_id',
    "set a vehicle's app-account owner (0: none)",
    async (trx, caller, memberId) => {
      // An app account of the caller's subtree, and only one.
      const m = await sql`SELECT 1 FROM member m JOIN organisation o ON o.id = m.org_id
        WHERE m.id = ${memberId} AND ${pathUnder('o.path', caller.orgPath)}
          AND EXISTS (SELECT 1 FROM member_application a WHERE a.member_id = m.id AND a.application = ${APP})`.execute(trx);
      if (!m.rows.length) throw new AppError(406, 'vehicle.ownerNotAppAccount');
    },
    async (caller, vehicleId, memberId) => ({ ...(await getOne(db, vehicles, caller, vehicleId)), ownerMemberId: memberId || null }),
  );

  app.get(
    '/api/vehicle/vehicle/:vehicleId/owner',
    {
      config: { permission: NONE, labels },
      schema: {
        tags: ['vehicle'],
        summary: "a vehicle's app-account owner: its id, sign-in name and name (null when it has none)",
        params: vehicleIdParams,
        response: { 200: ownerAnswer },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const { vehicleId } = req.params;
      const r = await sql<{ memberId: number | null; loginName: string | null; name: string | null }>`
        SELECT m.id AS "memberId", m.login_name AS "loginName", m.name FROM vehicle t LEFT JOIN member m ON m.id = t.owner_member_id
        WHERE t.id = ${vehicleId} AND ${scopeCondition(vehicles, caller)}`.execute(db);
      if (!r.rows.length) throw notFound();
      return r.rows[0];
    },
  );

  app.put(
    '/api/vehicle/vehicle/reset/:vehicleId/:terminalId',
    {
      config: { permission: 'vehicle-bind', labels },
      schema: {
        tags: ['vehicle'],
        summary: "replace a vehicle's terminal by a free one in one step (the old one is released)",
        params: { type: 'object', required: ['vehicleId', 'terminalId'], properties: { vehicleId: idParam, terminalId: idParam } } as const,
        response: { 200: rowAnswer },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const { vehicleId, terminalId } = req.params;
      const released = await db.transaction().execute(async (trx) => {
        const v = await scopedVehicle(trx, caller, vehicleId);
        const term =
          await sql`SELECT 1 FROM terminal t WHERE t.id = ${terminalId} AND ${scopeCondition(model('terminal'), caller)}`.execute(trx);
        if (!term.rows.length) throw notFound();
        if (v.terminalId === terminalId) return undefined;
        const other = await sql`SELECT 1 FROM vehicle WHERE terminal_id = ${terminalId} AND id <> ${vehicleId}`.execute(trx);
        if (other.rows.length) throw new AppError(406, 'vehicle.terminalBound');
        await sql`UPDATE vehicle SET terminal_id = ${terminalId}, updated_at = now() WHERE id = ${vehicleId}`.execute(trx);
        return [v.terminalId, terminalId];
      });
      if (released) await app.terminalSessions.rebind(released);
      return getOne(db, vehicles, caller, vehicleId);
    },
  );

  app.get(
    '/api/vehicle/vehicle/query/:q',
    {
      config: { permission: NONE, labels },
      schema: {
        tags: ['vehicle'],
        summary: 'vehicles of the caller subtree whose licence or VIN contains the text, those starting with it first (at most `limit`)',
        params: { type: 'object', required: ['q'], properties: { q: { type: 'string', minLength: 1, maxLength: 20 } } } as const,
        querystring: { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: 50, default: 20 } } } as const,
        response: { 200: { type: 'array', items: foundVehicle } },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const q = req.params.q.trim().toUpperCase();
      const { limit } = req.query;
      const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const rows = await sql<{ value: number; label: string; vin: string | null; orgId: number; terminalId: number | null }>`
        SELECT t.id AS value, t.licence AS label, t.vin, t.org_id AS "orgId", t.terminal_id AS "terminalId" FROM vehicle t
        WHERE ${scopeCondition(vehicles, caller)} AND (upper(t.licence) LIKE ${like} OR upper(coalesce(t.vin, '')) LIKE ${like})
        ORDER BY (upper(t.licence) LIKE ${`${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}) DESC, t.licence LIMIT ${limit}`.execute(db);
      return rows.rows;
    },
  );

  if (has('driver'))
    linkRoute(
      '/api/vehicle/driver/:vehicleId/:driverId',
      'driverId',
      'driver_id',
      'assign a driver to a vehicle (0: none)',
      async (trx, caller, driverId) => {
        const d = await sql`SELECT 1 FROM driver t WHERE t.id = ${driverId} AND ${scopeCondition(model('driver'), caller)}`.execute(trx);
        if (!d.rows.length) throw notFound();
      },
    );

  if (has('feedback')) {
    const feedback = model('feedback');
    app.put(
      '/api/vehicle/feedback/:id/:status',
      {
        config: { permission: 'feedback-handle', labels: feedback.labelPrefix },
        schema: {
          tags: ['feedback'],
          summary: "change a feedback's state",
          params: {
            type: 'object',
            required: ['id', 'status'],
            properties: { id: idParam, status: { type: 'string', enum: ['pending', 'processing', 'resolved'] } },
          } as const,
          response: { 200: rowAnswer },
        },
      },
      async (req) => {
        const caller = callerOf(req);
        const { id, status } = req.params;
        const r =
          await sql`UPDATE feedback t SET status = ${status}, updated_at = now() WHERE t.id = ${id} AND ${scopeCondition(feedback, caller)} RETURNING t.id`.execute(
            db,
          );
        if (!r.rows.length) throw notFound();
        return getOne(db, feedback, caller, id);
      },
    );
  }
}
