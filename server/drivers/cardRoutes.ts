/**
 * IC cards: the cards read by the vehicles of the caller's subtree that no driver holds (the
 * unknown cards), and a card assigned to a driver, which names the driver of every session of that
 * card, past and future (sessions keep the card, not the driver). The sessions themselves are a
 * report (server/reports/driverStatsRoutes.ts).
 */

import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { callerOf } from '../platform/auth/authenticate';
import { NONE } from '../platform/auth/caller';
import { auditRequest } from '../platform/audit';
import { idParam, int, num, str } from '../platform/crud/routeSpec';
import type { DB } from '../platform/db/tables';
import { AppError, notFound } from '../platform/http/errors';
import { typed } from '../platform/http/typed';
import { orgUnder, pathAbove, pathOfOrg, pathUnder } from '../platform/scope';

export interface DriverCardDeps {
  db: Kysely<DB>;
}

const LABELS = 'driverCard.fields';
/** Assigning a card edits the driver. */
export const ASSIGN_CARD_PERMISSION = 'driver-edit';
const instant = { type: 'string', format: 'date-time' } as const;
const nullableStr = { type: ['string', 'null'] } as const;
const cardNo = { type: 'string', pattern: '^[0-9A-Z-]{4,20}$' } as const;

const unknownRow = {
  type: 'object',
  properties: {
    cardNo: str,
    holderName: nullableStr,
    vehicleId: int,
    licence: str,
    orgId: int,
    orgName: str,
    firstSeen: instant,
    lastSeen: instant,
    reads: int,
  },
} as const;

/** Condition on vehicle `v`: in the caller's subtree, narrowed to an organisation's subtree or one vehicle. */
function vehiclesOf(callerPath: string, c: { orgId?: number | null; vehicleId?: number | null }) {
  const parts = [orgUnder('v.org_id', callerPath)];
  if (c.orgId) parts.push(orgUnder('v.org_id', pathOfOrg(c.orgId)));
  if (c.vehicleId) parts.push(sql`v.id = ${c.vehicleId}`);
  return sql.join(parts, sql` AND `);
}

export function registerDriverCardRoutes(fastify: FastifyInstance, { db }: DriverCardDeps): void {
  const app = typed(fastify);
  app.post(
    '/api/vehicle/driverCard/unknown',
    {
      config: { permission: NONE, labels: LABELS },
      schema: {
        tags: ['driver'],
        summary:
          'cards read by the vehicles in scope that no driver of the vehicle’s organisation (or above it) holds, per card and vehicle',
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            criteria: {
              type: 'object',
              additionalProperties: false,
              properties: { orgId: { ...idParam, type: ['integer', 'null'] }, vehicleId: { ...idParam, type: ['integer', 'null'] } },
            },
          },
        },
        response: { 200: { type: 'array', items: unknownRow } },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      // The body is optional: a request without one sends none to check.
      const c = req.body?.criteria ?? {};
      const r = await sql<{
        cardNo: string;
        holderName: string | null;
        vehicleId: number;
        licence: string;
        orgId: number;
        orgName: string;
        firstSeen: Date;
        lastSeen: Date;
        reads: number;
      }>`
        SELECT e.card_no AS "cardNo", (array_agg(e.holder_name ORDER BY e.at DESC))[1] AS "holderName",
               v.id AS "vehicleId", v.licence, vo.id AS "orgId", vo.name AS "orgName",
               min(e.at) AS "firstSeen", max(e.at) AS "lastSeen", count(*)::int AS reads
        FROM driver_card_event e JOIN vehicle v ON v.id = e.vehicle_id JOIN organisation vo ON vo.id = v.org_id
        WHERE e.card_no IS NOT NULL AND ${vehiclesOf(caller.orgPath, c)}
          AND NOT EXISTS (SELECT 1 FROM driver d JOIN organisation o ON o.id = d.org_id
                          WHERE d.card_no = e.card_no AND ${pathAbove('o.path', sql.ref('vo.path'))})
        GROUP BY e.card_no, v.id, v.licence, vo.id, vo.name
        ORDER BY max(e.at) DESC, e.card_no, v.licence`.execute(db);
      return r.rows.map((row) => ({
        ...row,
        firstSeen: new Date(row.firstSeen).toISOString(),
        lastSeen: new Date(row.lastSeen).toISOString(),
      }));
    },
  );

  app.put(
    '/api/vehicle/driverCard/assign',
    {
      config: { permission: ASSIGN_CARD_PERMISSION, labels: LABELS },
      schema: {
        tags: ['driver'],
        summary:
          'give a card read by a vehicle in scope to a driver in scope: every session of that card, past and future, is that driver’s',
        body: { type: 'object', additionalProperties: false, required: ['cardNo', 'driverId'], properties: { cardNo, driverId: idParam } },
        response: { 200: { type: 'object', properties: { driverId: int, cardNo: str, sessions: num } } },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const { cardNo: card, driverId } = req.body;
      const sessions = await db.transaction().execute(async (trx) => {
        const driver = (
          await sql<{ id: number; path: string; cardNo: string | null }>`
            SELECT d.id, o.path, d.card_no AS "cardNo" FROM driver d JOIN organisation o ON o.id = d.org_id
            WHERE d.id = ${driverId} AND ${pathUnder('o.path', caller.orgPath)} FOR UPDATE OF d`.execute(trx)
        ).rows[0];
        if (!driver) throw notFound();
        // Only a card a vehicle of the caller's subtree has read: nothing is learnt of other cards.
        const seen = await sql<{ path: string }>`
          SELECT DISTINCT vo.path FROM driver_card_event e JOIN vehicle v ON v.id = e.vehicle_id JOIN organisation vo ON vo.id = v.org_id
          WHERE e.card_no = ${card} AND ${pathUnder('vo.path', caller.orgPath)}`.execute(trx);
        if (!seen.rows.length)
          throw new AppError(404, 'driverCard.notSeen', {}, [
            { field: 'cardNo', key: 'driverCard.notSeen', params: {}, labelKey: `${LABELS}.cardNo` },
          ]);
        // The driver must be one the card's vehicles look for: of their organisation or one above it.
        if (!seen.rows.some((r) => r.path.startsWith(driver.path)))
          throw new AppError(406, 'driverCard.outsideVehicles', {}, [
            { field: 'driverId', key: 'driverCard.outsideVehicles', params: {}, labelKey: `${LABELS}.driverId` },
          ]);
        const holder = await sql<{
          id: number;
        }>`SELECT id FROM driver WHERE card_no = ${card} AND org_id = (SELECT org_id FROM driver WHERE id = ${driverId}) AND id <> ${driverId}`.execute(
          trx,
        );
        if (holder.rows.length)
          throw new AppError(406, 'driverCard.taken', {}, [
            { field: 'cardNo', key: 'driverCard.taken', params: {}, labelKey: `${LABELS}.cardNo` },
          ]);
        await sql`UPDATE driver SET card_no = ${card}, updated_at = now() WHERE id = ${driverId}`.execute(trx);
        const n = await sql<{ n: number }>`SELECT count(*)::int AS n FROM driver_card_event e JOIN vehicle v ON v.id = e.vehicle_id
          JOIN organisation vo ON vo.id = v.org_id
          WHERE e.card_no = ${card} AND e.action = 'in' AND ${pathUnder('vo.path', driver.path)}`.execute(trx);
        return n.rows[0].n;
      });
      await auditRequest(db, req, caller, 'driverCardAssign', `driver:${driverId}`, { cardNo: card });
      return { driverId, cardNo: card, sessions };
    },
  );
}
