import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { orgBodySchema, orgLinkBodySchema, orgUpdateBodySchema } from '../../schemas/kit/passportSchemas';
import { callerOf } from '../platform/auth/authenticate';
import { NONE, type Caller } from '../platform/auth/caller';
import { AppError, notFound } from '../platform/http/errors';
import { auditRequest } from '../platform/audit';
import type { PassportDeps } from './deps';
import { checkOrgChange } from './lockoutGuards';
import { afterOrgChange } from './sessionEnds';
import { orgInScope } from './orgScope';
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
  sortBy,
  changeOptions,
} from './routeKit';
import { buildTree } from './tree';
import { typed } from '../platform/http/typed';
import { pathInSubtree, pathUnder } from '../platform/scope';

/** The organisation's create and change bodies (built from schemas/organisation.schema.json, so typed here by hand). */
interface OrgBody {
  code?: string;
  name?: string;
  parentId?: number;
  type?: string;
  status?: string;
  contact?: string | null;
  phone?: string | null;
  address?: string | null;
  isSystem?: boolean;
  title?: string | null;
  logo?: string | null;
  themeColor?: string | null;
}

const ORG_COLUMNS = [
  'o.id',
  'o.code',
  'o.name',
  'o.parent_id as parentId',
  'p.name as parentName',
  'o.type',
  'o.status',
  'o.contact',
  'o.phone',
  'o.address',
  'o.is_system as isSystem',
  'o.link',
  'o.title',
  'o.logo',
  'o.theme_color as themeColor',
  'o.created_at as createdAt',
  'o.updated_at as updatedAt',
] as const;

const SORTS = {
  code: 'o.code',
  name: 'o.name',
  type: 'o.type',
  status: 'o.status',
  createdAt: 'o.created_at',
  updatedAt: 'o.updated_at',
} as const;

/** The organisation tree (SPEC §3, §7): every read and write inside the caller's subtree. */
export function registerOrgRoutes(fastify: FastifyInstance, deps: PassportDeps): void {
  const app = typed(fastify);
  const { db } = deps;
  const labels = 'org.fields';
  const visible = (caller: Caller) =>
    db.selectFrom('organisation as o').leftJoin('organisation as p', 'p.id', 'o.parent_id').where(pathUnder('o.path', caller.orgPath));
  const one = async (caller: Caller, id: number) => {
    const row = await visible(caller)
      .select([...ORG_COLUMNS, 'o.path'])
      .where('o.id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound();
    return row;
  };
  const strip = <T extends { path: string }>({ path: _path, ...rest }: T) => rest;

  const columns = (b: OrgBody) =>
    defined({
      code: b.code,
      name: b.name,
      type: b.type,
      status: b.status,
      contact: b.contact,
      phone: b.phone,
      address: b.address,
      is_system: b.isSystem,
      title: b.title,
      logo: b.logo,
      theme_color: b.themeColor,
    });

  function checkSystemFlag(caller: Caller, body: OrgBody): void {
    if (body.isSystem !== undefined && !caller.allCodes) throw new AppError(403, 'passport.systemOrgOnly');
  }

  app.post<{ Body: OrgBody }>('/api/vehicle/org', {
    config: { permission: 'org-add', labels },
    schema: { tags: ['organisation'], summary: 'Add an organisation under one in the caller subtree', body: orgBodySchema },
    handler: async (req, reply) => {
      const caller = callerOf(req);
      const body = req.body;
      checkSystemFlag(caller, body);
      const parent = await orgInScope(db, caller, body.parentId!, 'parentId', `${labels}.parentId`);
      const id = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('organisation')
          .values({ ...columns(body), code: body.code!, name: body.name!, parent_id: parent.id, path: 'pending' })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .updateTable('organisation')
          .set({ path: `${parent.path}${row.id}/` })
          .where('id', '=', row.id)
          .execute();
        return row.id;
      });
      await auditRequest(db, req, caller, 'orgCreate', body.code);
      return reply.status(201).send(strip(await one(caller, id)));
    },
  });

  app.put<{ Body: OrgBody; Params: IdParams }>('/api/vehicle/org/:id', {
    ...changeOptions('org-edit', labels, 'organisation', 'Change an organisation (moving it moves its subtree)', orgUpdateBodySchema),
    handler: async (req) => {
      const caller = callerOf(req);
      const body = req.body;
      checkSystemFlag(caller, body);
      const org = await one(caller, idOf(req));
      await checkOrgChange(db, caller, org, body);
      const moving = body.parentId !== undefined && body.parentId !== org.parentId;
      const parent = moving ? await orgInScope(db, caller, body.parentId!, 'parentId', `${labels}.parentId`) : null;
      if (parent) {
        if (org.id === caller.orgId) throw new AppError(406, 'passport.orgOwn');
        // An organisation cannot move below itself.
        if (pathInSubtree(org.path, parent.path))
          throw new AppError(400, 'validation.refNotFound', {}, [
            { field: 'parentId', key: 'validation.refNotFound', params: {}, labelKey: `${labels}.parentId` },
          ]);
      }
      // Only the transaction's own connection inside: the embedded database has just one.
      await db.transaction().execute(async (trx) => {
        if (parent) {
          const newPath = `${parent.path}${org.id}/`;
          await trx
            .updateTable('organisation')
            .set({ path: sql`${newPath} || substr(path, ${org.path.length + 1})` })
            .where(pathUnder('path', org.path))
            .execute();
          await trx.updateTable('organisation').set({ parent_id: parent.id }).where('id', '=', org.id).execute();
        }
        await trx
          .updateTable('organisation')
          .set({ ...columns(body), updated_at: new Date() })
          .where('id', '=', org.id)
          .execute();
      });
      await afterOrgChange(deps, org.id, { status: body.status, moved: !!parent });
      if (parent) {
        // The live sessions of the subtree's terminals (or of its vehicles') carry the old paths.
        const moved = await sql<{ id: number }>`
          SELECT t.id FROM terminal t JOIN organisation o ON o.id = t.org_id WHERE ${pathUnder('o.path', `${parent.path}${org.id}/`)}
          UNION SELECT v.terminal_id FROM vehicle v JOIN organisation o ON o.id = v.org_id WHERE v.terminal_id IS NOT NULL AND ${pathUnder('o.path', `${parent.path}${org.id}/`)}`.execute(
          db,
        );
        await app.terminalSessions.rebind(moved.rows.map((r) => r.id));
      }
      await auditRequest(db, req, caller, 'orgUpdate', org.code, body);
      return strip(await one(caller, org.id));
    },
  });

  app.put('/api/vehicle/org/editLink/:id', {
    ...changeOptions('org-editLink', labels, 'organisation', "Set an organisation's external link", orgLinkBodySchema),
    handler: async (req) => {
      const caller = callerOf(req);
      const org = await one(caller, idOf(req));
      await db.updateTable('organisation').set({ link: req.body.link, updated_at: new Date() }).where('id', '=', org.id).execute();
      await auditRequest(db, req, caller, 'orgUpdate', org.code, req.body);
      return strip(await one(caller, org.id));
    },
  });

  app.delete('/api/vehicle/org/:id', {
    config: { permission: 'org-remove' },
    schema: {
      tags: ['organisation'],
      summary: 'Delete an organisation without children, accounts or vehicles',
      params: idParams,
      response: noContent,
    },
    handler: async (req, reply) => {
      const caller = callerOf(req);
      const org = await one(caller, idOf(req));
      if (org.id === caller.orgId) throw new AppError(406, 'passport.orgOwn');
      const has = async (table: 'organisation' | 'member' | 'vehicle', col: 'parent_id' | 'org_id') =>
        !!(await sql`SELECT 1 FROM ${sql.table(table)} WHERE ${sql.ref(col)} = ${org.id} LIMIT 1`.execute(db)).rows.length;
      if (await has('organisation', 'parent_id')) throw new AppError(406, 'passport.orgHasChildren');
      if (await has('member', 'org_id')) throw new AppError(406, 'passport.orgHasMembers');
      if (await has('vehicle', 'org_id')) throw new AppError(406, 'passport.orgHasVehicles');
      try {
        await db.deleteFrom('organisation').where('id', '=', org.id).execute();
      } catch (e) {
        if ((e as { code?: string }).code === '23503') throw new AppError(406, 'passport.orgHasData');
        throw e;
      }
      await auditRequest(db, req, caller, 'orgDelete', org.code);
      return reply.status(204).send(null);
    },
  });

  app.post('/api/vehicle/org/query', {
    config: { permission: NONE, labels },
    schema: {
      tags: ['organisation'],
      summary: 'Organisations of the caller subtree, paged',
      body: pagingBody(
        {
          type: { type: ['string', 'null'], maxLength: 20 },
          status: { type: ['string', 'null'], maxLength: 20 },
          parentId: { type: ['integer', 'null'] },
        },
        Object.keys(SORTS),
      ),
    },
    handler: async (req) => {
      const p = pagingOf(req);
      const c = p.criteria ?? {};
      let q = visible(callerOf(req));
      if (typeof c.keyword === 'string' && c.keyword)
        q = q.where((eb) =>
          eb.or([eb('o.name', 'ilike', likePattern(c.keyword as string)), eb('o.code', 'ilike', likePattern(c.keyword as string))]),
        );
      if (typeof c.type === 'string' && c.type) q = q.where('o.type', '=', c.type);
      if (typeof c.status === 'string' && c.status) q = q.where('o.status', '=', c.status);
      if (typeof c.parentId === 'number') q = q.where('o.parent_id', '=', c.parentId);
      const { col, dir } = sortBy(p, SORTS, 'o.path');
      return listPage(
        db,
        p,
        (limit, offset) => q.select(ORG_COLUMNS).orderBy(col, dir).orderBy('o.id', dir).limit(limit).offset(offset).execute(),
        q.select(ONE),
      );
    },
  });

  const treeOptions = async (req: FastifyRequest) => {
    const rows = await visible(callerOf(req))
      .select(['o.id', 'o.name', 'o.type', 'o.status', 'o.parent_id as parentId'])
      .orderBy('o.path')
      .execute();
    type Node = { value: number; label: string; type: string; disabled: boolean; children: Node[] };
    const shape = (n: (typeof rows)[number] & { children: Array<(typeof rows)[number] & { children: unknown[] }> }): Node => ({
      value: n.id,
      label: n.name,
      type: n.type,
      disabled: n.status !== 'enabled',
      children: (n.children as (typeof n)[]).map(shape),
    });
    return buildTree(rows).map(shape);
  };
  for (const url of ['/api/vehicle/org/tree/options', '/api/vehicle/org/tree/options/']) {
    app.get(url, {
      config: { permission: NONE },
      schema: { tags: ['organisation'], summary: 'The caller subtree as {value, label, children} options' },
      handler: treeOptions,
    });
  }

  app.get('/api/passport/org/tree/:id/orgType', {
    config: { permission: NONE },
    schema: {
      tags: ['organisation'],
      summary: "An organisation's type",
      params: idParams,
      response: {
        200: {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'orgType'],
          properties: { id: { type: 'integer' }, orgType: { type: 'string' } },
        },
      },
    },
    handler: async (req) => {
      const org = await one(callerOf(req), idOf(req));
      return { id: org.id, orgType: org.type };
    },
  });
}
