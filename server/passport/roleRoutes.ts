import { sql } from 'kysely';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authorizeBodySchema, roleBodySchema, roleUpdateBodySchema } from '../../schemas/kit/passportSchemas';
import { requestApplication } from '../platform/auth/application';
import { callerOf } from '../platform/auth/authenticate';
import { NONE, type Caller } from '../platform/auth/caller';
import { AppError, invalid, notFound } from '../platform/http/errors';
import { auditRequest } from '../platform/audit';
import type { PassportDeps } from './deps';
import { orgInScope } from './orgScope';
import { checkRoleHeld } from './roleScope';
import { resourcesOf, ungrantable, withAncestors } from './resources';
import {
  defined,
  idOf,
  idParams,
  noContent,
  type IdParams,
  likePattern,
  ONE,
  listPage,
  pagingBody,
  pagingOf,
  perApp,
  sortBy,
  changeOptions,
} from './routeKit';
import { buildTree } from './tree';
import { pathUnder } from '../platform/scope';
import { typed } from '../platform/http/typed';

interface RoleBody {
  name?: string;
  description?: string | null;
  orgId?: number;
  resourceIds?: number[];
}

const ROLE_COLUMNS = [
  'r.id',
  'r.name',
  'r.description',
  'r.application',
  'r.org_id as orgId',
  'o.name as orgName',
  'r.created_at as createdAt',
  'r.updated_at as updatedAt',
] as const;

/** The resource ids a role grants, in its application. */
const grantsAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['application', 'resourceIds'],
  properties: { application: { type: 'string' }, resourceIds: { type: 'array', items: { type: 'integer' } } },
} as const;

/** Roles per application, their grants, and the rule that nobody grants what they do not hold (SPEC §6). */
export function registerRoleRoutes(fastify: FastifyInstance, deps: PassportDeps): void {
  const app = typed(fastify);
  const { db } = deps;
  const labels = 'passport.roleFields';

  const visibleRoles = (caller: Caller, application: string) =>
    db
      .selectFrom('role as r')
      .innerJoin('organisation as o', 'o.id', 'r.org_id')
      .where(pathUnder('o.path', caller.orgPath))
      .where('r.application', '=', application);

  /** The role, when the caller may see it and it belongs to the application of the call. */
  async function roleOf(req: FastifyRequest & { params: IdParams }) {
    const row = await visibleRoles(callerOf(req), requestApplication(req))
      .select(ROLE_COLUMNS)
      .where('r.id', '=', idOf(req))
      .executeTakeFirst();
    if (!row) throw notFound();
    return row;
  }

  /** Refuses grants the caller may not make: unknown ids, other applications' resources, codes not held. */
  async function checkGrant(caller: Caller, application: string, ids: number[]): Promise<void> {
    const { missing, notHeld } = await ungrantable(db, caller, ids);
    const foreign = ids.length
      ? await db.selectFrom('resource').select('id').where('id', 'in', ids).where('application', '!=', application).execute()
      : [];
    if (missing.length || foreign.length)
      throw invalid([{ field: 'resourceIds', key: 'validation.refNotFound', params: {}, labelKey: 'passport.roleFields.resourceIds' }]);
    if (notHeld.length) throw new AppError(406, 'passport.codesNotHeld', { codes: notHeld.slice(0, 10).join(', ') });
  }

  /** A role moved to another organisation keeps only holders inside that organisation's subtree. */
  async function checkHoldersInside(roleId: number, name: string, orgPath: string): Promise<void> {
    const outside = await db
      .selectFrom('member_role as mr')
      .innerJoin('member as m', 'm.id', 'mr.member_id')
      .innerJoin('organisation as o', 'o.id', 'm.org_id')
      .select('m.id')
      .where('mr.role_id', '=', roleId)
      .where(sql<boolean>`NOT ${pathUnder('o.path', orgPath)}`)
      .limit(1)
      .executeTakeFirst();
    if (outside) throw new AppError(406, 'security.roleOutsideOrg', { roles: name });
  }

  async function setGrants(roleId: number, ids: number[]): Promise<void> {
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('role_resource').where('role_id', '=', roleId).execute();
      if (ids.length)
        await trx
          .insertInto('role_resource')
          .values(ids.map((resource_id) => ({ role_id: roleId, resource_id })))
          .execute();
    });
  }

  async function grantsOf(roleId: number): Promise<number[]> {
    return (await db.selectFrom('role_resource').select('resource_id').where('role_id', '=', roleId).orderBy('resource_id').execute()).map(
      (r) => r.resource_id,
    );
  }

  /** Only additions are checked: removing a code the caller lacks narrows the role, never widens it. */
  async function authorize(req: FastifyRequest, roleId: number, ids: number[]): Promise<void> {
    const caller = callerOf(req);
    const before = new Set(await grantsOf(roleId));
    await checkGrant(
      caller,
      requestApplication(req),
      ids.filter((id) => !before.has(id)),
    );
    await setGrants(roleId, ids);
    await auditRequest(db, req, caller, 'roleAuthorize', String(roleId), {
      added: ids.filter((id) => !before.has(id)),
      removed: [...before].filter((id) => !ids.includes(id)),
    });
  }

  app.post<{ Body: RoleBody }>('/api/passport/role', {
    config: { permission: perApp('role-add'), labels },
    schema: { tags: ['passport'], summary: 'Add a role to the application in x-application-code', body: roleBodySchema },
    handler: async (req, reply) => {
      const caller = callerOf(req);
      const application = requestApplication(req);
      const body = req.body;
      const orgId = body.orgId ?? caller.orgId;
      await orgInScope(db, caller, orgId, 'orgId', `${labels}.orgId`);
      await checkGrant(caller, application, body.resourceIds ?? []);
      const row = await db
        .insertInto('role')
        .values({ name: body.name!, description: body.description ?? null, org_id: orgId, application })
        .returning('id')
        .executeTakeFirstOrThrow();
      await setGrants(row.id, body.resourceIds ?? []);
      await auditRequest(db, req, caller, 'roleCreate', String(row.id), { name: body.name, resourceIds: body.resourceIds ?? [] });
      const role = await visibleRoles(caller, application).select(ROLE_COLUMNS).where('r.id', '=', row.id).executeTakeFirstOrThrow();
      return reply.status(201).send({ ...role, resourceIds: await grantsOf(row.id) });
    },
  });

  app.put<{ Body: RoleBody; Params: IdParams }>('/api/passport/role/:id', {
    ...changeOptions(perApp('role-edit'), labels, 'passport', 'Change a role', roleUpdateBodySchema),
    handler: async (req) => {
      const caller = callerOf(req);
      const role = await roleOf(req);
      await checkRoleHeld(db, caller, role.id);
      const body = req.body;
      if (body.orgId !== undefined && body.orgId !== role.orgId) {
        const org = await orgInScope(db, caller, body.orgId, 'orgId', `${labels}.orgId`);
        await checkHoldersInside(role.id, role.name, org.path);
      }
      const set = defined({ name: body.name, description: body.description, org_id: body.orgId });
      await db
        .updateTable('role')
        .set({ ...set, updated_at: new Date() })
        .where('id', '=', role.id)
        .execute();
      if (body.resourceIds) await authorize(req, role.id, body.resourceIds);
      await auditRequest(db, req, caller, 'roleUpdate', String(role.id), set);
      return { ...(await roleOf(req)), resourceIds: await grantsOf(role.id) };
    },
  });

  app.delete('/api/passport/role/:id', {
    config: { permission: perApp('role-remove') },
    schema: { tags: ['passport'], summary: 'Delete a role no account holds', params: idParams, response: noContent },
    handler: async (req, reply) => {
      const role = await roleOf(req);
      await checkRoleHeld(db, callerOf(req), role.id);
      const used = await db.selectFrom('member_role').select('member_id').where('role_id', '=', role.id).limit(1).executeTakeFirst();
      if (used) throw new AppError(406, 'passport.roleInUse');
      await db.deleteFrom('role').where('id', '=', role.id).execute();
      await auditRequest(db, req, callerOf(req), 'roleDelete', String(role.id), { name: role.name });
      return reply.status(204).send(null);
    },
  });

  app.get('/api/passport/role/all', {
    config: { permission: NONE },
    schema: { tags: ['passport'], summary: 'Roles the caller can see in the application of x-application-code' },
    handler: async (req) =>
      visibleRoles(callerOf(req), requestApplication(req)).select(ROLE_COLUMNS).orderBy('r.name').orderBy('r.id').execute(),
  });

  app.post('/api/passport/role/query', {
    config: { permission: NONE, labels },
    schema: {
      tags: ['passport'],
      summary: 'Roles, paged',
      body: pagingBody({ orgId: { type: ['integer', 'null'] } }, ['name', 'createdAt', 'updatedAt']),
    },
    handler: async (req) => {
      const p = pagingOf(req);
      let q = visibleRoles(callerOf(req), requestApplication(req));
      const kw = p.criteria?.keyword;
      if (typeof kw === 'string' && kw)
        q = q.where((eb) => eb.or([eb('r.name', 'ilike', likePattern(kw)), eb('r.description', 'ilike', likePattern(kw))]));
      if (typeof p.criteria?.orgId === 'number') q = q.where('r.org_id', '=', p.criteria.orgId);
      const { col, dir } = sortBy(p, { name: 'r.name', createdAt: 'r.created_at', updatedAt: 'r.updated_at' } as const, 'r.name');
      return listPage(
        db,
        p,
        (limit, offset) => q.select(ROLE_COLUMNS).orderBy(col, dir).orderBy('r.id', dir).limit(limit).offset(offset).execute(),
        q.select(ONE),
      );
    },
  });

  for (const suffix of ['authorize', 'resources'] as const) {
    app.get(`/api/passport/role/:id/${suffix}`, {
      config: { permission: NONE },
      schema: {
        tags: ['passport'],
        summary: suffix === 'authorize' ? "The role's granted resource ids" : "The role's granted resources as a tree",
        params: idParams,
      },
      handler: async (req) => {
        const role = await roleOf(req);
        const ids = await grantsOf(role.id);
        if (suffix === 'authorize') return { application: role.application, resourceIds: ids };
        return buildTree(withAncestors(await resourcesOf(db, role.application), new Set(ids)));
      },
    });
    app.put(`/api/passport/role/:id/${suffix}`, {
      config: { permission: perApp('role-authorize'), labels },
      schema: {
        tags: ['passport'],
        summary: "Replace the role's granted resources (only codes the caller holds may be added)",
        params: idParams,
        body: authorizeBodySchema,
        response: { 200: grantsAnswer },
      },
      handler: async (req) => {
        const role = await roleOf(req);
        await checkRoleHeld(db, callerOf(req), role.id);
        await authorize(req, role.id, req.body.resourceIds);
        return { application: role.application, resourceIds: await grantsOf(role.id) };
      },
    });
  }
}
