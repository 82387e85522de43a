/**
 * Location sharing (DESIGN.md Security): an operator creates a ticket for one vehicle with an
 * expiry, lists and revokes a vehicle's tickets; anyone holding a live ticket reads that vehicle's
 * licence and latest position at `GET /api/location/{ticket}`, without a session. Unknown,
 * expired and revoked tickets get the same 404, so the answer tells nothing about which it was.
 */

import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { callerOf } from '../platform/auth/authenticate';
import { PUBLIC, type Caller } from '../platform/auth/caller';
import type { EntityModel } from '../platform/crud/model';
import { scopeCondition } from '../platform/crud/query';
import { idParam, idParams, noContent } from '../platform/crud/routeSpec';
import { typed } from '../platform/http/typed';
import {
  mapConfigSchema,
  newShareTicketSchema,
  shareTicketSchema,
  sharedLocationSchema,
  type MapConfig,
  type SharedLocation,
} from '../../schemas/kit/location';
import type { DB } from '../platform/db/tables';
import { AppError, notFound } from '../platform/http/errors';
import { auditRequest } from '../platform/audit';
import { hashTicket, MAX_HOURS, MAX_LIVE_TICKETS, MIN_HOURS, newTicket, ticketStatus, TICKET_PATTERN } from './tickets';

export interface LocationDeps {
  db: Kysely<DB>;
  vehicles: EntityModel;
  /** Map tiles the console may load (MAP_TILE_URL, MAP_TILE_COORDS); a null URL → no map, coordinates only. */
  map: MapConfig;
}

export type { MapConfig } from '../../schemas/kit/location';

/** Creating, listing and revoking tickets: whoever may edit the vehicle. */
export const SHARE_PERMISSION = 'vehicle-edit';

/** The public read, per client address. */
const PUBLIC_RATE = { max: 30, timeWindow: '1 minute' };

interface TicketRow {
  id: number;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  createdBy: string;
  revokedBy: string | null;
}

const iso = (d: Date | string) => new Date(d).toISOString();

export function registerLocationRoutes(fastify: FastifyInstance, { db, vehicles, map }: LocationDeps): void {
  const app = typed(fastify);
  /** The vehicle, if it lies in the caller's subtree. */
  const vehicleInScope = async (id: number, caller: Caller) =>
    (
      await sql<{
        id: number;
        licence: string;
      }>`SELECT t.id, t.licence FROM vehicle t WHERE t.id = ${id} AND ${scopeCondition(vehicles, caller)}`.execute(db)
    ).rows[0];

  app.post(
    '/api/vehicle/share',
    {
      config: { permission: SHARE_PERMISSION, labels: 'location.fields' },
      schema: {
        tags: ['location'],
        summary: 'create a location share ticket for one vehicle',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['vehicleId', 'hours'],
          properties: { vehicleId: idParam, hours: { type: 'integer', minimum: MIN_HOURS, maximum: MAX_HOURS } },
        } as const,
        response: { 201: newShareTicketSchema },
      },
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const { vehicleId, hours } = req.body;
      if (!(await vehicleInScope(vehicleId, caller))) throw notFound();
      const live = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM location_ticket WHERE vehicle_id = ${vehicleId} AND revoked_at IS NULL AND expires_at > now()`.execute(
        db,
      );
      if ((live.rows[0]?.n ?? 0) >= MAX_LIVE_TICKETS) throw new AppError(406, 'location.tooManyTickets', { max: MAX_LIVE_TICKETS });
      const { ticket, hash } = newTicket();
      const r = await sql<{ id: number; createdAt: Date; expiresAt: Date }>`
        INSERT INTO location_ticket (token_hash, vehicle_id, created_by, created_by_name, expires_at)
        VALUES (${hash}, ${vehicleId}, ${caller.memberId}, ${caller.name}, now() + make_interval(hours => ${hours}))
        RETURNING id, created_at AS "createdAt", expires_at AS "expiresAt"`.execute(db);
      const row = r.rows[0];
      await auditRequest(db, req, caller, 'locationShare', `vehicle:${vehicleId}`, { ticketId: row.id, hours });
      return reply
        .status(201)
        .send({ id: row.id, vehicleId, ticket, path: `/location/${ticket}`, createdAt: iso(row.createdAt), expiresAt: iso(row.expiresAt) });
    },
  );

  // SPEC.md §7 names `GET vehicle/share/Index/{id}`: the tickets of a vehicle.
  app.get(
    '/api/vehicle/share/Index/:id',
    {
      config: { permission: SHARE_PERMISSION },
      schema: {
        tags: ['location'],
        summary: 'the share tickets of a vehicle, newest first',
        params: idParams,
        response: { 200: { type: 'array', items: shareTicketSchema } },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const { id } = req.params;
      if (!(await vehicleInScope(id, caller))) throw notFound();
      const r = await sql<TicketRow>`
        SELECT id, created_at AS "createdAt", expires_at AS "expiresAt", revoked_at AS "revokedAt",
               created_by_name AS "createdBy", revoked_by_name AS "revokedBy"
        FROM location_ticket WHERE vehicle_id = ${id} ORDER BY id DESC LIMIT 100`.execute(db);
      const now = new Date();
      return r.rows.map((t) => ({
        id: t.id,
        vehicleId: id,
        status: ticketStatus({ expiresAt: new Date(t.expiresAt), revokedAt: t.revokedAt && new Date(t.revokedAt) }, now),
        createdAt: iso(t.createdAt),
        expiresAt: iso(t.expiresAt),
        createdBy: t.createdBy,
        ...(t.revokedAt ? { revokedAt: iso(t.revokedAt), revokedBy: t.revokedBy } : {}),
      }));
    },
  );

  app.delete(
    '/api/vehicle/share/:id',
    {
      config: { permission: SHARE_PERMISSION },
      schema: { tags: ['location'], summary: 'revoke a share ticket', params: idParams, response: noContent },
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const { id } = req.params;
      // Scoped through the ticket's vehicle; revoking twice changes nothing.
      const r = await sql<{ vehicleId: number }>`
        UPDATE location_ticket k SET revoked_at = COALESCE(k.revoked_at, now()), revoked_by_name = COALESCE(k.revoked_by_name, ${caller.name})
        FROM vehicle t WHERE k.id = ${id} AND t.id = k.vehicle_id AND ${scopeCondition(vehicles, caller)}
        RETURNING k.vehicle_id AS "vehicleId"`.execute(db);
      if (!r.rows.length) throw notFound();
      await auditRequest(db, req, caller, 'locationRevoke', `vehicle:${r.rows[0].vehicleId}`, { ticketId: id });
      return reply.status(204).send(null);
    },
  );

  // Public: the shared location page needs it before anyone signs in.
  app.get(
    '/api/map/config',
    {
      config: { permission: PUBLIC },
      schema: {
        tags: ['location'],
        summary: 'map tiles the console may load (OpenStreetMap by default, none when MAP_TILE_URL=off)',
        security: [],
        response: { 200: mapConfigSchema },
      },
    },
    async () => map,
  );

  app.get(
    '/api/location/:ticket',
    {
      config: { permission: PUBLIC, rateLimit: PUBLIC_RATE },
      schema: {
        tags: ['location'],
        summary: 'the licence and latest position of a shared vehicle (no session)',
        security: [],
        // The ticket's form is checked below, so a malformed one answers the same 404 as an unknown one.
        params: { type: 'object', required: ['ticket'], properties: { ticket: { type: 'string' } } } as const,
        response: { 200: sharedLocationSchema },
      },
    },
    async (req): Promise<SharedLocation> => {
      const { ticket } = req.params;
      if (!TICKET_PATTERN.test(ticket)) throw notFound();
      const r = await sql<{
        licence: string;
        latitude: number | null;
        longitude: number | null;
        speed: number | null;
        direction: number | null;
        time: Date | null;
      }>`
        SELECT v.licence, s.latitude, s.longitude, s.speed, s.direction, s.device_time AS time
        FROM location_ticket k
        JOIN vehicle v ON v.id = k.vehicle_id
        LEFT JOIN vehicle_state s ON s.vehicle_id = v.id
        WHERE k.token_hash = ${hashTicket(ticket)} AND k.revoked_at IS NULL AND k.expires_at > now()`.execute(db);
      const row = r.rows[0];
      if (!row) throw notFound();
      return {
        licence: row.licence,
        position:
          row.time === null || row.latitude === null || row.longitude === null
            ? null
            : {
                latitude: row.latitude,
                longitude: row.longitude,
                speed: Number(row.speed ?? 0),
                direction: row.direction ?? 0,
                time: iso(row.time),
              },
      };
    },
  );
}
