/**
 * Every policy write is checked against the per-type parameter schema (schemas/kit/policyParams.ts,
 * the same one the console's form uses): the body's `params` must fit its `alarmType` (for an
 * update without one, the stored type). Errors name `params.<field>`, in the caller's language.
 */

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { createAjv } from '../../schemas/kit/ajv';
import { toFieldErrors } from '../../schemas/kit/errors';
import { POLICY_PARAMS, POLICY_PARAMS_SCHEMA } from '../../schemas/kit/policyParams';
import type { DB } from '../platform/db/tables';
import { invalid } from '../platform/http/errors';

// Defaults are the form's, not the server's: a stored policy keeps what was sent.
const ajv = createAjv({ useDefaults: false });
// Compiled as a plain schema: its literal type would make the guard narrow bodies to never.
const whole = ajv.compile(POLICY_PARAMS_SCHEMA as object);
const branch = new Map(
  Object.entries(POLICY_PARAMS).map(([type, schema]) => [type, ajv.compile({ type: 'object', properties: { params: schema } })]),
);
const none = ajv.compile({
  type: 'object',
  properties: { params: { type: 'object', maxProperties: 0, 'x-messages': { maxProperties: 'alarm.paramsNone' } } },
});

/** Field errors of `{alarmType, params}`; empty when they fit. */
export function policyParamsErrors(body: { alarmType: string; params?: unknown }) {
  const fits: boolean = whole(body);
  if (fits) return [];
  // The branch of the type alone, for errors that name the field (null params always fit).
  const check = branch.get(body.alarmType) ?? none;
  if (body.params !== null && body.params !== undefined) check(body);
  else check.errors = null;
  const errors = toFieldErrors(check.errors, 'alarm.params');
  return errors.length ? errors : toFieldErrors(whole.errors, 'alarm.params');
}

/** The route's `:id` (already an integer by its params schema), if it has one. */
const idOf = (params: unknown): number | undefined =>
  params && typeof params === 'object' && 'id' in params && typeof params.id === 'number' ? params.id : undefined;

const WRITES = new Set(['PUT /api/vehicle/policy', 'PUT /api/vehicle/policy/:id']);

export function installPolicyParamsCheck(app: FastifyInstance, db: Kysely<DB>): void {
  app.addHook('preHandler', async (req: FastifyRequest) => {
    if (!WRITES.has(`${req.method} ${req.routeOptions.url}`)) return;
    // A hook over the entity's own routes: their bodies were validated by the entity schema, read here as they come.
    const body: unknown = req.body;
    if (!body || typeof body !== 'object') return;
    let alarmType = 'alarmType' in body && typeof body.alarmType === 'string' ? body.alarmType : undefined;
    let params = 'params' in body ? body.params : undefined;
    if (params === undefined && alarmType === undefined) return;
    const id = idOf(req.params);
    if (id !== undefined && (alarmType === undefined || params === undefined)) {
      const stored = (
        await sql<{ alarm_type: string; params: unknown }>`SELECT alarm_type, params FROM policy WHERE id = ${id}`.execute(db)
      ).rows[0];
      if (!stored) return; // the route answers 404
      alarmType ??= stored.alarm_type;
      if (params === undefined) params = stored.params;
    }
    if (alarmType === undefined) return; // the entity validation answers "required"
    const errors = policyParamsErrors({ alarmType, params: params ?? null });
    if (errors.length) throw invalid(errors);
  });
}
