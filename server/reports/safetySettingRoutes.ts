/**
 * Safety settings per organisation: the score's weights (0–10) and the event thresholds. An
 * organisation without its own row uses its nearest ancestor's; keys never set keep the defaults.
 * Weights apply at once (scores are computed when read); thresholds apply to what is derived from
 * then on (`npm run derive` rebuilds the past with them).
 */

import type { FastifyInstance } from 'fastify';
import { typed } from '../platform/http/typed';
import { sql } from 'kysely';
import { callerOf } from '../platform/auth/authenticate';
import { NONE } from '../platform/auth/caller';
import { idParams, num } from '../platform/crud/routeSpec';
import { auditRequest } from '../platform/audit';
import { invalid } from '../platform/http/errors';
import { orgInScope } from '../passport/orgScope';
import { safetySettingsFor, THRESHOLD_LIMITS, WEIGHT_KEYS, type BehaviourThresholds } from '../intelligence/behaviour/settings';
import { weightsSchema } from './behaviourRoutes';
import type { ReportDeps } from './tripRoutes';

export const SAFETY_SETTING_PERMISSION = 'safetyWeights-edit';

const limits = <const K extends keyof BehaviourThresholds, const T extends 'integer' | 'number'>(key: K, type: T) =>
  ({ type, minimum: THRESHOLD_LIMITS[key][0], maximum: THRESHOLD_LIMITS[key][1] }) as const;
/** Each threshold of THRESHOLD_LIMITS within its limits, all optional (hours and seconds whole). */
const thresholdsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    harshAccelerationKmh: limits('harshAccelerationKmh', 'number'),
    harshBrakingKmh: limits('harshBrakingKmh', 'number'),
    withinS: limits('withinS', 'integer'),
    sharpTurnMs2: limits('sharpTurnMs2', 'number'),
    sharpTurnMinKmh: limits('sharpTurnMinKmh', 'number'),
    nightFromHour: limits('nightFromHour', 'integer'),
    nightToHour: limits('nightToHour', 'integer'),
  },
} as const satisfies {
  readonly type: 'object';
  readonly additionalProperties: false;
  readonly properties: Record<keyof BehaviourThresholds, unknown>;
};

const answer = {
  type: 'object',
  properties: {
    orgId: { type: 'integer' },
    weights: { type: 'object', properties: Object.fromEntries(WEIGHT_KEYS.map((k) => [k, num])) },
    thresholds: { type: 'object', properties: Object.fromEntries(Object.keys(THRESHOLD_LIMITS).map((k) => [k, num])) },
    inheritedFrom: {
      type: ['integer', 'null'],
      description: 'the organisation whose row applies, when not this one; null for its own row or the defaults',
    },
  },
};

export function registerSafetySettingRoutes(fastify: FastifyInstance, { db }: ReportDeps): void {
  const app = typed(fastify);
  const effective = async (orgId: number, path: string) => {
    const s = await safetySettingsFor(db, path);
    return { orgId, weights: s.weights, thresholds: s.thresholds, inheritedFrom: s.from === orgId ? null : s.from };
  };

  app.get(
    '/api/vehicle/safetySetting/:id',
    {
      config: { permission: NONE, labels: 'behaviour.fields' },
      schema: {
        tags: ['behaviour'],
        summary: "an organisation's safety weights and thresholds in force (its own or the nearest ancestor's)",
        params: idParams,
        response: { 200: answer },
      },
    },
    async (req) => {
      const { id } = req.params;
      const org = await orgInScope(db, callerOf(req), id, 'id', 'behaviour.fields.orgId');
      return effective(id, org.path);
    },
  );

  app.put(
    '/api/vehicle/safetySetting/:id',
    {
      config: { permission: SAFETY_SETTING_PERMISSION, labels: 'behaviour.fields' },
      schema: {
        tags: ['behaviour'],
        summary:
          "set an organisation's safety weights (0–10) and thresholds; its subtree inherits them. Keys left out keep what is in force",
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          properties: { weights: weightsSchema, thresholds: thresholdsSchema },
        } as const,
        response: { 200: answer },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const { id } = req.params;
      const body = req.body;
      const org = await orgInScope(db, caller, id, 'id', 'behaviour.fields.orgId');
      const current = await safetySettingsFor(db, org.path);
      const weights = { ...current.weights, ...(body.weights ?? {}) };
      const thresholds = { ...current.thresholds, ...(body.thresholds ?? {}) };
      if (thresholds.nightFromHour === thresholds.nightToHour)
        throw invalid([
          { field: 'thresholds.nightToHour', key: 'behaviour.nightEmpty', params: {}, labelKey: 'behaviour.fields.nightToHour' },
        ]);
      await sql`INSERT INTO safety_setting (org_id, weights, thresholds) VALUES (${id}, ${JSON.stringify(weights)}::jsonb, ${JSON.stringify(thresholds)}::jsonb)
        ON CONFLICT (org_id) DO UPDATE SET weights = excluded.weights, thresholds = excluded.thresholds, updated_at = now()`.execute(db);
      await auditRequest(db, req, caller, 'safetySettingEdit', `organisation:${id}`, { weights, thresholds });
      return effective(id, org.path);
    },
  );
}
