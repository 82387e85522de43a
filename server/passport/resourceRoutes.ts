import type { FastifyInstance } from 'fastify';
import { resourceBodySchema, resourceUpdateBodySchema } from '../../schemas/kit/passportSchemas';
import { requestApplication } from '../platform/auth/application';
import { callerOf } from '../platform/auth/authenticate';
import { NONE } from '../platform/auth/caller';
import { AppError, notFound } from '../platform/http/errors';
import { auditRequest } from '../platform/audit';
import type { PassportDeps } from './deps';
import { authorizedResources, isDescendantOrSelf, resourcesOf } from './resources';
import { defined, idOf, idParams, noContent, perApp, type IdParams } from './routeKit';
import { APPLICATIONS } from '../../schemas/kit/loginSchema';
import { buildTree } from './tree';
import { pathUnder } from '../platform/scope';
import { typed } from '../platform/http/typed';

interface ResourceBody {
  name?: string;
  code?: string;
  kind?: 'Menu' | 'Action';
  path?: string | null;
  url?: string | null;
  icon?: string | null;
  sort?: number;
  parentId?: number | null;
  hidden?: boolean;
  affix?: boolean;
  noCache?: boolean;
  activeMenu?: string | null;
}

const columns = (b: ResourceBody) =>
  defined({
    name: b.name,
    code: b.code,
    kind: b.kind,
    path: b.path,
    url: b.url,
    icon: b.icon,
    sort: b.sort,
    parent_id: b.parentId,
    hidden: b.hidden,
    affix: b.affix,
    no_cache: b.noCache,
    active_menu: b.activeMenu,
  });

const appParams = { type: 'object', required: ['app'], properties: { app: { type: 'string', enum: APPLICATIONS } } } as const;

/** Resources (menus and actions) per application, and the caller's authorised tree (SPEC §2, §7). */
export function registerResourceRoutes(fastify: FastifyInstance, deps: PassportDeps): void {
  const app = typed(fastify);
  const { db } = deps;
  const labels = 'passport.resourceFields';

  app.get('/api/passport/resource/authorized/:app', {
    config: { permission: NONE },
    schema: { tags: ['passport'], summary: "The caller's menu and action tree of an application", params: appParams },
    handler: async (req) => buildTree(await authorizedResources(db, callerOf(req), req.params.app)),
  });

  app.get('/api/passport/resource/all', {
    config: { permission: NONE },
    schema: { tags: ['passport'], summary: 'Every resource of the application in x-application-code, as a tree' },
    handler: async (req) => buildTree(await resourcesOf(db, requestApplication(req))),
  });

  app.get('/api/passport/resource/assignable/:id', {
    config: { permission: NONE },
    schema: { tags: ['passport'], summary: 'What the caller may grant the role, and what it holds now', params: idParams },
    handler: async (req) => {
      const caller = callerOf(req);
      const role = await db
        .selectFrom('role')
        .innerJoin('organisation as o', 'o.id', 'role.org_id')
        .select(['role.id', 'role.application'])
        .where('role.id', '=', idOf(req))
        .where(pathUnder('o.path', caller.orgPath))
        .executeTakeFirst();
      if (!role) throw notFound();
      const granted = await db.selectFrom('role_resource').select('resource_id').where('role_id', '=', role.id).execute();
      return {
        application: role.application,
        resources: buildTree(await authorizedResources(db, caller, role.application)),
        granted: granted.map((g) => g.resource_id),
      };
    },
  });

  /** A parent must exist in the same application and must not be the resource itself or below it. */
  async function checkParent(application: string, parentId: number | null | undefined, self?: number): Promise<void> {
    if (parentId === null || parentId === undefined) return;
    const p = await db
      .selectFrom('resource')
      .select('id')
      .where('id', '=', parentId)
      .where('application', '=', application)
      .executeTakeFirst();
    const cyclic = self !== undefined && (await isDescendantOrSelf(db, self, parentId));
    if (!p || cyclic)
      throw new AppError(400, 'passport.resourceParentInvalid', {}, [
        { field: 'parentId', key: 'passport.resourceParentInvalid', params: {} },
      ]);
  }

  app.post<{ Body: ResourceBody }>('/api/passport/resource', {
    config: { permission: perApp('resource-add'), sharedWrite: true, labels },
    schema: { tags: ['passport'], summary: 'Add a resource to the application in x-application-code', body: resourceBodySchema },
    handler: async (req, reply) => {
      const application = requestApplication(req);
      const body = req.body;
      await checkParent(application, body.parentId);
      const row = await db
        .insertInto('resource')
        .values({
          ...(columns(body) as Required<ReturnType<typeof columns>>),
          application,
          name: body.name!,
          code: body.code!,
          kind: body.kind!,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await auditRequest(db, req, callerOf(req), 'resourceCreate', `${application}:${body.code}`);
      return reply.status(201).send((await resourcesOf(db, application)).find((r) => r.id === row.id));
    },
  });

  app.put<{ Body: ResourceBody; Params: IdParams }>('/api/passport/resource/:id', {
    config: { permission: perApp('resource-edit'), sharedWrite: true, labels },
    schema: { tags: ['passport'], summary: 'Change a resource', params: idParams, body: resourceUpdateBodySchema },
    handler: async (req) => {
      const application = requestApplication(req);
      const body = req.body;
      const id = idOf(req);
      await checkParent(application, body.parentId, id);
      const r = await db
        .updateTable('resource')
        .set({ ...columns(body), updated_at: new Date() })
        .where('id', '=', id)
        .where('application', '=', application)
        .returning('code')
        .executeTakeFirst();
      if (!r) throw notFound();
      await auditRequest(db, req, callerOf(req), 'resourceUpdate', `${application}:${r.code}`, body);
      return (await resourcesOf(db, application)).find((x) => x.id === id);
    },
  });

  app.delete('/api/passport/resource/:id', {
    config: { permission: perApp('resource-remove'), sharedWrite: true },
    schema: {
      tags: ['passport'],
      summary: 'Delete a resource without children (its grants go with it)',
      params: idParams,
      response: noContent,
    },
    handler: async (req, reply) => {
      const application = requestApplication(req);
      const id = idOf(req);
      const child = await db.selectFrom('resource').select('id').where('parent_id', '=', id).limit(1).executeTakeFirst();
      if (child) throw new AppError(406, 'passport.resourceHasChildren');
      const r = await db
        .deleteFrom('resource')
        .where('id', '=', id)
        .where('application', '=', application)
        .returning('code')
        .executeTakeFirst();
      if (!r) throw notFound();
      await auditRequest(db, req, callerOf(req), 'resourceDelete', `${application}:${r.code}`);
      return reply.status(204).send(null);
    },
  });
}
