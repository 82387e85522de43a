/**
 * Keys of API users: listed, created (the key shown once), enabled or disabled, and revoked by a
 * person holding `apiUser-key` whose subtree holds the API user. A key's organisation lies in both
 * the creator's and the API user's subtree, and its codes are codes the creator holds: nobody
 * grants beyond what they may do. Keys themselves may not manage keys (`personOnly`).
 */

import type { FastifyInstance } from 'fastify';
import type { FromSchema } from 'json-schema-to-ts';
import { sql } from 'kysely';
import { newApiKey } from '../platform/auth/apiKeys';
import { callerOf } from '../platform/auth/authenticate';
import type { Caller } from '../platform/auth/caller';
import { idParam, idParams } from '../platform/crud/routeSpec';
import { AppError, invalid, notFound } from '../platform/http/errors';
import { auditRequest } from '../platform/audit';
import { orgUnder, pathInSubtree } from '../platform/scope';
import type { PassportDeps } from './deps';
import { idOf, noContent } from './routeKit';
import { typed } from '../platform/http/typed';

/** The code guarding key management: granted through roles like any other. */
export const KEY_PERMISSION = 'apiUser-key';
/** Keys listed per API user (newest first). */
const LIST_LIMIT = 200;
export const MAX_KEY_DAYS = 730;

const ROUTE = { permission: KEY_PERMISSION, personOnly: true };

/** A key as listed (never its secret). */
const keyView = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'apiUserId',
    'name',
    'prefix',
    'orgId',
    'orgName',
    'codes',
    'expiresAt',
    'rateLimit',
    'enabled',
    'status',
    'createdAt',
    'createdBy',
    'revokedAt',
    'revokedBy',
    'useCount',
    'lastUsedAt',
    'lastUsedIp',
  ],
  properties: {
    id: { type: 'integer' },
    apiUserId: { type: 'integer' },
    name: { type: 'string' },
    prefix: { type: 'string' },
    orgId: { type: 'integer' },
    orgName: { type: 'string' },
    codes: { type: 'array', items: { type: 'string' } },
    expiresAt: { type: 'string', format: 'date-time' },
    rateLimit: { type: ['integer', 'null'] },
    enabled: { type: 'boolean' },
    status: { type: 'string', enum: ['active', 'disabled', 'expired', 'revoked'] },
    createdAt: { type: 'string', format: 'date-time' },
    createdBy: { type: 'string' },
    revokedAt: { type: ['string', 'null'], format: 'date-time' },
    revokedBy: { type: ['string', 'null'] },
    useCount: { type: 'integer' },
    lastUsedAt: { type: ['string', 'null'], format: 'date-time' },
    lastUsedIp: { type: ['string', 'null'] },
  },
} as const;

export type ApiKeyView = FromSchema<typeof keyView>;

/** A key just created: the only answer holding its secret. */
const newKeyView = {
  ...keyView,
  required: [...keyView.required, 'key'],
  properties: { ...keyView.properties, key: { type: 'string' } },
} as const;

const iso = (d: Date | string) => new Date(d).toISOString();

const createBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'codes', 'days'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 64 },
    orgId: idParam,
    codes: { type: 'array', minItems: 1, maxItems: 500, uniqueItems: true, items: { type: 'string', minLength: 1, maxLength: 100 } },
    days: { type: 'integer', minimum: 1, maximum: MAX_KEY_DAYS },
    rateLimit: { type: ['integer', 'null'], minimum: 1, maximum: 100000 },
  },
} as const;

const updateBody = {
  type: 'object',
  additionalProperties: false,
  required: ['enabled'],
  properties: { enabled: { type: 'boolean' } },
} as const;

export function registerApiKeyRoutes(fastify: FastifyInstance, deps: PassportDeps): void {
  const app = typed(fastify);
  const { db } = deps;

  /** The API user, if it lies in the caller's subtree. */
  const apiUserInScope = (id: number, caller: Caller) =>
    db
      .selectFrom('api_user as u')
      .innerJoin('organisation as o', 'o.id', 'u.org_id')
      .select(['u.id', 'u.org_id', 'o.path'])
      .where('u.id', '=', id)
      .where(orgUnder('u.org_id', caller.orgPath))
      .executeTakeFirst();

  const keyRows = () =>
    db
      .selectFrom('api_key as k')
      .innerJoin('organisation as o', 'o.id', 'k.org_id')
      .innerJoin('api_user as u', 'u.id', 'k.api_user_id')
      .select([
        'k.id',
        'k.api_user_id',
        'k.name',
        'k.prefix',
        'k.org_id',
        'o.name as org_name',
        'k.codes',
        'k.expires_at',
        'k.rate_limit',
        'k.enabled',
        'k.created_at',
        'k.created_by_name',
        'k.revoked_at',
        'k.revoked_by_name',
        'k.use_count',
        'k.last_used_at',
        'k.last_used_ip',
      ]);
  type KeyRow = Awaited<ReturnType<ReturnType<typeof keyRows>['execute']>>[number];

  const view = (k: KeyRow, now = Date.now()): ApiKeyView => ({
    id: k.id,
    apiUserId: k.api_user_id,
    name: k.name,
    prefix: k.prefix,
    orgId: k.org_id,
    orgName: k.org_name,
    codes: JSON.parse(k.codes) as string[],
    expiresAt: iso(k.expires_at),
    rateLimit: k.rate_limit,
    enabled: k.enabled,
    status: k.revoked_at ? 'revoked' : !k.enabled ? 'disabled' : new Date(k.expires_at).getTime() <= now ? 'expired' : 'active',
    createdAt: iso(k.created_at),
    createdBy: k.created_by_name,
    revokedAt: k.revoked_at ? iso(k.revoked_at) : null,
    revokedBy: k.revoked_by_name,
    useCount: Number(k.use_count),
    lastUsedAt: k.last_used_at ? iso(k.last_used_at) : null,
    lastUsedIp: k.last_used_ip,
  });

  /** A key whose API user lies in the caller's subtree. */
  const keyInScope = (id: number, caller: Caller) =>
    keyRows().where('k.id', '=', id).where(orgUnder('u.org_id', caller.orgPath)).executeTakeFirst();

  /** Codes given that the application does not know (400), or that the caller does not hold (406). */
  async function checkCodes(caller: Caller, codes: readonly string[]): Promise<void> {
    const known = await db
      .selectFrom('resource')
      .select('code')
      .where('application', '=', caller.application)
      .where('kind', '=', 'Action')
      .where('code', 'in', [...codes])
      .execute();
    const knownCodes = new Set(known.map((r) => r.code));
    if (codes.some((c) => !knownCodes.has(c)))
      throw invalid([{ field: 'codes', key: 'validation.refNotFound', params: {}, labelKey: 'apiKey.fields.codes' }]);
    const notHeld = caller.allCodes ? [] : codes.filter((c) => !caller.codes.has(c));
    if (notHeld.length) throw new AppError(406, 'passport.codesNotHeld', { codes: notHeld.slice(0, 10).join(', ') });
  }

  app.get('/api/vehicle/apiUser/:id/keys', {
    config: ROUTE,
    schema: {
      tags: ['apiUser'],
      summary: 'the keys of an API user, newest first (never their secrets)',
      params: idParams,
      response: { 200: { type: 'array', items: keyView } },
    },
    handler: async (req) => {
      const caller = callerOf(req);
      if (!(await apiUserInScope(idOf(req), caller))) throw notFound();
      const rows = await keyRows().where('k.api_user_id', '=', idOf(req)).orderBy('k.id', 'desc').limit(LIST_LIMIT).execute();
      const now = Date.now();
      return rows.map((r) => view(r, now));
    },
  });

  app.post('/api/vehicle/apiUser/:id/keys', {
    config: { ...ROUTE, labels: 'apiKey.fields' },
    schema: {
      tags: ['apiUser'],
      summary: 'create a key for an API user; its secret is answered this once',
      params: idParams,
      body: createBody,
      response: { 201: newKeyView },
    },
    handler: async (req, reply) => {
      const caller = callerOf(req);
      const body = req.body;
      const user = await apiUserInScope(idOf(req), caller);
      if (!user) throw notFound();
      const orgId = body.orgId ?? user.org_id;
      const org = await db.selectFrom('organisation').select(['id', 'path']).where('id', '=', orgId).executeTakeFirst();
      // Inside both the creator's and the API user's subtree; anything else is as if it did not exist.
      if (!org || !pathInSubtree(caller.orgPath, org.path) || !pathInSubtree(user.path, org.path))
        throw invalid([{ field: 'orgId', key: 'validation.refNotFound', params: {}, labelKey: 'apiKey.fields.orgId' }]);
      await checkCodes(caller, body.codes);
      const { key, prefix, hash } = newApiKey();
      const { id } = await db
        .insertInto('api_key')
        .values({
          api_user_id: user.id,
          name: body.name,
          prefix,
          secret_hash: hash,
          org_id: org.id,
          application: caller.application,
          codes: JSON.stringify([...body.codes].sort()),
          expires_at: sql<Date>`now() + make_interval(days => ${body.days})`,
          rate_limit: body.rateLimit ?? null,
          created_by: caller.memberId,
          created_by_name: caller.name,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await auditRequest(db, req, caller, 'apiKeyCreate', `apiUser:${user.id}`, {
        keyId: id,
        prefix,
        orgId: org.id,
        codes: body.codes,
        days: body.days,
      });
      const row = await keyRows().where('k.id', '=', id).executeTakeFirstOrThrow();
      return reply.status(201).send({ ...view(row), key });
    },
  });

  app.put('/api/vehicle/apiKey/:id', {
    config: ROUTE,
    schema: { tags: ['apiUser'], summary: 'enable or disable a key', params: idParams, body: updateBody, response: { 200: keyView } },
    handler: async (req) => {
      const caller = callerOf(req);
      const { enabled } = req.body;
      const key = await keyInScope(idOf(req), caller);
      if (!key) throw notFound();
      if (key.revoked_at) throw new AppError(406, 'apiKey.revokedForGood');
      await db.updateTable('api_key').set({ enabled }).where('id', '=', key.id).execute();
      await auditRequest(db, req, caller, 'apiKeyUpdate', `apiUser:${key.api_user_id}`, { keyId: key.id, prefix: key.prefix, enabled });
      return view({ ...key, enabled });
    },
  });

  app.delete('/api/vehicle/apiKey/:id', {
    config: ROUTE,
    schema: { tags: ['apiUser'], summary: 'revoke a key for good (kept in the list as revoked)', params: idParams, response: noContent },
    handler: async (req, reply) => {
      const caller = callerOf(req);
      const key = await keyInScope(idOf(req), caller);
      if (!key) throw notFound();
      // Revoking twice changes nothing.
      await db
        .updateTable('api_key')
        .set({
          revoked_at: sql<Date>`COALESCE(revoked_at, now())`,
          revoked_by_name: sql<string>`COALESCE(revoked_by_name, ${caller.name})`,
        })
        .where('id', '=', key.id)
        .execute();
      await auditRequest(db, req, caller, 'apiKeyRevoke', `apiUser:${key.api_user_id}`, { keyId: key.id, prefix: key.prefix });
      return reply.status(204).send(null);
    },
  });
}
