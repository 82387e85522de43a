/**
 * GET /api/vehicle/forwarding: the forwarding links of the caller's subtree, each with its live
 * state, backlog and counters as this process runs it (`state` 'off' when it does not: disabled,
 * or a process that runs no forwarding). Account, password and keys are never shown.
 */

import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { NONE } from '../../schemas/kit/authority';
import { callerOf } from '../platform/auth/authenticate';
import { int, nullable, str } from '../platform/crud/routeSpec';
import type { DB } from '../platform/db/tables';
import { pathUnder } from '../platform/scope';
import type { LinkView } from './index';

export const FORWARDING_PATH = '/api/vehicle/forwarding';

/** A link's settings as both routes answer them (never the account, password or keys here). */
export const linkSettingsView = {
  id: int,
  orgId: int,
  orgName: str,
  name: str,
  protocol: str,
  host: str,
  port: int,
  enabled: { type: 'boolean' },
  vehicleIds: { type: ['array', 'null'], items: int },
  backlogLimit: int,
} as const;

const counts = { type: 'object', additionalProperties: int };
const view = {
  type: 'object',
  properties: {
    ...linkSettingsView,
    state: str,
    subLink: str,
    backlog: int,
    connections: nullable('integer'),
    sent: counts,
    dropped: int,
    connects: int,
    loginFailures: int,
    lastLoginResult: nullable('integer'),
    heartbeats: int,
    badFrames: int,
    upSince: nullable('string'),
    lastError: nullable('string'),
  },
};

export function registerForwardingRoutes(app: FastifyInstance, db: Kysely<DB>, links: () => LinkView[] | null): void {
  app.get(
    FORWARDING_PATH,
    {
      config: { permission: NONE },
      schema: {
        tags: ['forwarding'],
        summary: 'the forwarding links in the caller’s subtree with their state, backlog and counters',
        response: { 200: { type: 'array', items: view } },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const rows = await sql<{
        id: number;
        orgId: number;
        orgName: string;
        name: string;
        protocol: string;
        host: string;
        port: number;
        enabled: boolean;
        vehicleIds: number[] | null;
        backlogLimit: number;
      }>`
        SELECT f.id, f.org_id AS "orgId", o.name AS "orgName", f.name, f.protocol, f.host, f.port, f.enabled,
               f.vehicle_ids AS "vehicleIds", f.backlog_limit AS "backlogLimit"
        FROM forward_link f JOIN organisation o ON o.id = f.org_id
        WHERE ${pathUnder('o.path', caller.orgPath)} ORDER BY f.id`.execute(db);
      const live = new Map((links() ?? []).map((l) => [l.id, l]));
      return rows.rows.map((r) => {
        const l = live.get(r.id);
        const c = l?.counters;
        return {
          ...r,
          state: l?.state ?? 'off',
          subLink: l?.subLink ?? 'none',
          backlog: l?.backlog ?? 0,
          connections: l?.connections ?? null,
          sent: c?.sent ?? {},
          dropped: c?.dropped ?? 0,
          connects: c?.connects ?? 0,
          loginFailures: c?.loginFailures ?? 0,
          lastLoginResult: c?.lastLoginResult ?? null,
          heartbeats: c?.heartbeats ?? 0,
          badFrames: c?.badFrames ?? 0,
          upSince: l?.upSince ? new Date(l.upSince).toISOString() : null,
          lastError: l?.lastError ?? null,
        };
      });
    },
  );
}
