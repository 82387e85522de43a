/**
 * Trip settings per organisation: the stop minutes that end a trip (default 5) and the oil price
 * region. An organisation without its own row uses its nearest ancestor's. Changing them applies
 * to what is derived from then on; `npm run derive` rebuilds the past with them.
 */

import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { callerOf } from '../platform/auth/authenticate';
import { NONE } from '../platform/auth/caller';
import { idParams } from '../platform/crud/routeSpec';
import { typed } from '../platform/http/typed';
import { auditRequest } from '../platform/audit';
import { orgInScope } from '../passport/orgScope';
import { DEFAULT_SETTINGS } from '../intelligence/windowLoad';
import type { ReportDeps } from './tripRoutes';
import { pathUnder } from '../platform/scope';

export const TRIP_SETTING_PERMISSION = 'tripSetting-edit';

const answer = {
  type: 'object',
  required: ['orgId', 'stopMinutes', 'region', 'inheritedFrom'],
  properties: {
    orgId: { type: 'integer' },
    stopMinutes: { type: 'integer' },
    region: { type: ['string', 'null'] },
    inheritedFrom: {
      type: ['integer', 'null'],
      description: 'the organisation whose row applies, when not this one; null for the defaults',
    },
  },
} as const;

export function registerSettingRoutes(fastify: FastifyInstance, { db }: ReportDeps): void {
  const app = typed(fastify);
  const effective = async (orgId: number) => {
    const r = await sql<{ org_id: number; stop_minutes: number; region: string | null }>`
      SELECT ts.org_id, ts.stop_minutes, ts.region FROM organisation o
      JOIN organisation a ON ${pathUnder('o.path', sql.ref('a.path'))} JOIN trip_setting ts ON ts.org_id = a.id
      WHERE o.id = ${orgId} ORDER BY length(a.path) DESC LIMIT 1`.execute(db);
    const row = r.rows[0];
    return row
      ? { orgId, stopMinutes: row.stop_minutes, region: row.region, inheritedFrom: row.org_id === orgId ? null : row.org_id }
      : { orgId, stopMinutes: DEFAULT_SETTINGS.stopMinutes, region: DEFAULT_SETTINGS.region, inheritedFrom: null };
  };

  app.get(
    '/api/vehicle/tripSetting/:id',
    {
      config: { permission: NONE, labels: 'reports.fields' },
      schema: {
        tags: ['trips'],
        summary: "an organisation's trip settings in force (its own or the nearest ancestor's)",
        params: idParams,
        response: { 200: answer },
      },
    },
    async (req) => {
      const { id } = req.params;
      await orgInScope(db, callerOf(req), id, 'id', 'reports.fields.orgId');
      return effective(id);
    },
  );

  app.put(
    '/api/vehicle/tripSetting/:id',
    {
      config: { permission: TRIP_SETTING_PERMISSION, labels: 'reports.fields' },
      schema: {
        tags: ['trips'],
        summary: "set an organisation's trip settings (its subtree inherits them)",
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['stopMinutes'],
          properties: { stopMinutes: { type: 'integer', minimum: 1, maximum: 1440 }, region: { type: ['string', 'null'], maxLength: 32 } },
        } as const,
        response: { 200: answer },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const { id } = req.params;
      const { stopMinutes, region } = req.body;
      await orgInScope(db, caller, id, 'id', 'reports.fields.orgId');
      const r = region?.trim() ? region.trim() : null;
      await sql`INSERT INTO trip_setting (org_id, stop_minutes, region) VALUES (${id}, ${stopMinutes}, ${r})
        ON CONFLICT (org_id) DO UPDATE SET stop_minutes = excluded.stop_minutes, region = excluded.region, updated_at = now()`.execute(db);
      await auditRequest(db, req, caller, 'tripSettingEdit', `organisation:${id}`, { stopMinutes, region: r });
      return effective(id);
    },
  );
}
