import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { translator } from '../../schemas/kit/catalogue';
import { memberUpdateBodySchema, registerBodySchema, resetPasswordBodySchema } from '../../schemas/kit/passportSchemas';
import { requestApplication } from '../platform/auth/application';
import { callerOf } from '../platform/auth/authenticate';
import { NONE, type Caller } from '../platform/auth/caller';
import { hashPassword } from '../platform/auth/password';
import { setPassword } from './setPassword';
import { afterMemberChange } from './sessionEnds';
import type { DB } from '../platform/db/tables';
import { AppError, notFound } from '../platform/http/errors';
import { requestLanguage } from '../platform/http/language';
import { APPLICATIONS } from '../platform/auth/application';
import { auditRequest } from '../platform/audit';
import type { PassportDeps } from './deps';
import { checkAdministratorOnly, checkMobileFree, checkRolesToAdd, membersInScope } from './memberChecks';
import { checkMemberChange } from './lockoutGuards';
import { orgInScope } from './orgScope';
import { checkRolesFitOrg } from './roleScope';
import {
  defined,
  idOf,
  idParams,
  successAnswer,
  type IdParams,
  likePattern,
  ONE,
  listPage,
  pagingBody,
  pagingOf,
  sortBy,
  changeOptions,
} from './routeKit';
import { pathInSubtree, pathOfOrg, pathUnder } from '../platform/scope';
import { typed } from '../platform/http/typed';

interface MemberBody {
  loginName?: string;
  name?: string;
  mobile?: string | null;
  memberType?: string;
  orgId?: number;
  expireDate?: string | null;
  status?: string;
  roleIds?: number[];
  applications?: string[];
  password?: string;
  enableExisting?: boolean;
}

export const MEMBER_COLUMNS = [
  'm.id',
  'm.uid',
  'm.login_name as loginName',
  'm.name',
  'm.mobile',
  'm.member_type as memberType',
  'm.org_id as orgId',
  'o.name as orgName',
  'm.expire_date as expireDate',
  'm.status',
  'm.first_sign as firstSign',
  'm.sign_in_count as signInCount',
  'm.last_sign_in as lastSignIn',
  'm.created_at as createdAt',
  'm.updated_at as updatedAt',
] as const;

const SORTS = {
  loginName: 'm.login_name',
  name: 'm.name',
  memberType: 'm.member_type',
  expireDate: 'm.expire_date',
  signInCount: 'm.sign_in_count',
  lastSignIn: 'm.last_sign_in',
  createdAt: 'm.created_at',
} as const;

/** Roles and applications of members, for list and detail answers. */
export async function withRolesAndApps<T extends { id: number }>(db: Kysely<DB>, rows: T[]) {
  const ids = rows.map((r) => r.id);
  const [roles, apps] = ids.length
    ? await Promise.all([
        db
          .selectFrom('member_role as mr')
          .innerJoin('role as r', 'r.id', 'mr.role_id')
          .select(['mr.member_id', 'r.id', 'r.name', 'r.application'])
          .where('mr.member_id', 'in', ids)
          .orderBy('r.name')
          .execute(),
        db
          .selectFrom('member_application')
          .select(['member_id', 'application'])
          .where('member_id', 'in', ids)
          .orderBy('application')
          .execute(),
      ])
    : [[], []];
  return rows.map((r) => ({
    ...r,
    roleIds: roles.filter((x) => x.member_id === r.id).map((x) => x.id),
    roleNames: roles.filter((x) => x.member_id === r.id).map((x) => x.name),
    applications: apps.filter((x) => x.member_id === r.id).map((x) => x.application),
  }));
}

/** Accounts (SPEC §3, §7): register, edit, reset password, look up; all inside the caller's subtree. */
export function registerMemberRoutes(fastify: FastifyInstance, deps: PassportDeps): void {
  const app = typed(fastify);
  const { db } = deps;
  const labels = 'passport.fields';
  const visible = (caller: Caller) => membersInScope(db, caller);
  const one = async (caller: Caller, id: number) => {
    const row = await visible(caller).select(MEMBER_COLUMNS).where('m.id', '=', id).executeTakeFirst();
    if (!row) throw notFound();
    return (await withRolesAndApps(db, [row]))[0];
  };

  /** Applications the caller may open for others: their own (every one for platform administrators). */
  async function grantableApps(caller: Caller): Promise<string[]> {
    if (caller.allCodes) return [...APPLICATIONS];
    return (await db.selectFrom('member_application').select('application').where('member_id', '=', caller.memberId).execute()).map(
      (a) => a.application,
    );
  }

  /** Refuses what would let the caller hand out more than they hold. */
  async function checkGrants(
    caller: Caller,
    body: MemberBody,
    before: { roleIds: number[]; applications: string[]; orgId?: number } = { roleIds: [], applications: [] },
  ) {
    checkAdministratorOnly(caller, body.memberType);
    if (body.orgId !== undefined) await orgInScope(db, caller, body.orgId, 'orgId', `${labels}.orgId`);
    if (body.applications) {
      const allowed = await grantableApps(caller);
      if (body.applications.some((a) => !before.applications.includes(a) && !allowed.includes(a)))
        throw new AppError(406, 'passport.applicationNotAllowed');
    }
    await checkRolesToAdd(
      db,
      caller,
      (body.roleIds ?? []).filter((id) => !before.roleIds.includes(id)),
    );
    // Every role the account will hold must belong to its organisation or one above it.
    const orgId = body.orgId ?? before.orgId;
    const moving = body.orgId !== undefined && body.orgId !== before.orgId;
    if (orgId !== undefined) await checkRolesFitOrg(db, orgId, body.roleIds ?? (moving ? before.roleIds : []));
  }

  async function checkUnique(body: MemberBody, self?: number) {
    if (body.loginName) {
      const hit = await db
        .selectFrom('member')
        .select('id')
        .where(sql`lower(login_name)`, '=', body.loginName.toLowerCase())
        .executeTakeFirst();
      if (hit && hit.id !== self)
        throw new AppError(406, 'passport.loginNameExists', {}, [{ field: 'loginName', key: 'passport.loginNameExists', params: {} }]);
    }
  }

  async function setLinks(memberId: number, body: MemberBody) {
    await db.transaction().execute(async (trx) => {
      if (body.roleIds) {
        await trx.deleteFrom('member_role').where('member_id', '=', memberId).execute();
        if (body.roleIds.length)
          await trx
            .insertInto('member_role')
            .values(body.roleIds.map((role_id) => ({ member_id: memberId, role_id })))
            .execute();
      }
      if (body.applications) {
        await trx.deleteFrom('member_application').where('member_id', '=', memberId).execute();
        if (body.applications.length)
          await trx
            .insertInto('member_application')
            .values(body.applications.map((application) => ({ member_id: memberId, application })))
            .execute();
      }
    });
  }

  app.post<{ Body: MemberBody }>('/api/passport/passport/register', {
    config: { permission: 'member-register', labels },
    schema: {
      tags: ['member'],
      summary: 'Register an account (or enable here one registered on another platform)',
      body: registerBodySchema,
    },
    handler: async (req, reply) => {
      const caller = callerOf(req);
      const application = requestApplication(req);
      const body = { applications: [application], ...req.body };
      if (body.mobile) {
        const owner = await db
          .selectFrom('member as m')
          .innerJoin('organisation as o', 'o.id', 'm.org_id')
          .select(['m.id', 'o.path'])
          .select((eb) =>
            eb
              .exists(
                eb
                  .selectFrom('member_application as a')
                  .select('a.member_id')
                  .whereRef('a.member_id', '=', 'm.id')
                  .where('a.application', '=', application),
              )
              .as('here'),
          )
          .where('m.mobile', '=', body.mobile)
          .executeTakeFirst();
        // SPEC §5: a phone registered on another platform asks whether to enable that account here.
        const mine = owner && pathInSubtree(caller.orgPath, owner.path);
        if (owner && (owner.here || !mine))
          throw new AppError(406, 'passport.phoneExists', {}, [{ field: 'mobile', key: 'passport.phoneExists', params: {} }]);
        if (owner && !body.enableExisting)
          throw new AppError(406, 'passport.phoneOnOtherPlatform', {}, [
            { field: 'mobile', key: 'passport.phoneOnOtherPlatform', params: {} },
          ]);
        if (owner) {
          await db.insertInto('member_application').values({ member_id: owner.id, application }).execute();
          await auditRequest(db, req, caller, 'memberUpdate', String(owner.id), { enabledApplication: application });
          return {
            success: true,
            message: translator(requestLanguage(req))('passport.applicationEnabled'),
            object: await one(caller, owner.id),
          };
        }
      }
      body.orgId ??= caller.orgId;
      await checkGrants(caller, body);
      await checkUnique(body);
      const row = await db
        .insertInto('member')
        .values({
          uid: crypto.randomUUID(),
          login_name: body.loginName!,
          name: body.name!,
          mobile: body.mobile ?? null,
          member_type: body.memberType!,
          org_id: body.orgId,
          expire_date: body.expireDate ?? null,
          status: body.status ?? 'enabled',
          password_hash: await hashPassword(body.password!),
          // A password someone else chose is changed at the first sign-in.
          first_sign: true,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await setLinks(row.id, body);
      await auditRequest(db, req, caller, 'memberRegister', String(row.id), { loginName: body.loginName });
      return reply.status(201).send(await one(caller, row.id));
    },
  });

  app.put<{ Body: MemberBody; Params: IdParams }>('/api/passport/member/:id', {
    ...changeOptions('member-edit', labels, 'member', 'Change an account', memberUpdateBodySchema),
    handler: async (req) => {
      const caller = callerOf(req);
      const body = req.body;
      const before = await one(caller, idOf(req));
      await checkGrants(caller, body, before);
      await checkMemberChange(db, caller, before.id, body);
      await checkUnique(body, before.id);
      await checkMobileFree(db, body.mobile, before.id);
      const set = defined({
        login_name: body.loginName,
        name: body.name,
        mobile: body.mobile,
        member_type: body.memberType,
        org_id: body.orgId,
        expire_date: body.expireDate,
        status: body.status,
      });
      await db
        .updateTable('member')
        .set({ ...set, updated_at: new Date() })
        .where('id', '=', before.id)
        .execute();
      await setLinks(before.id, body);
      await afterMemberChange(deps, before.id, body);
      await auditRequest(db, req, caller, 'memberUpdate', String(before.id), body);
      return one(caller, before.id);
    },
  });

  app.put('/api/passport/member/reset-password', {
    config: { permission: 'member-resetpassword', labels },
    schema: {
      tags: ['member'],
      summary: "Reset an account's password: its sessions end and it must change it at next sign-in",
      body: resetPasswordBodySchema,
      response: { 200: successAnswer },
    },
    handler: async (req) => {
      const caller = callerOf(req);
      const body = req.body;
      const target = await one(caller, body.id);
      checkAdministratorOnly(caller, target.memberType);
      await setPassword(deps, target.id, body.password, true);
      await auditRequest(db, req, caller, 'passwordReset', String(target.id));
      return { success: true, message: translator(requestLanguage(req))('passport.passwordReset') };
    },
  });

  app.get('/api/passport/member/applications', {
    config: { permission: NONE },
    schema: {
      tags: ['member'],
      summary: 'Applications the caller may open for accounts',
      response: {
        200: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['code', 'name'],
            properties: { code: { type: 'string', description: 'an application code' }, name: { type: 'string' } },
          },
        },
      },
    },
    handler: async (req) => {
      const t = translator(requestLanguage(req));
      return (await grantableApps(callerOf(req))).map((code) => ({ code, name: t(`passport.applications.${code}`) }));
    },
  });

  app.post('/api/passport/member/query', {
    config: { permission: NONE, labels },
    schema: {
      tags: ['member'],
      summary: 'Accounts of the caller subtree, paged',
      body: pagingBody(
        {
          orgId: { type: ['integer', 'null'] },
          memberType: { type: ['string', 'null'], maxLength: 20 },
          status: { type: ['string', 'null'], maxLength: 20 },
          application: { type: ['string', 'null'], maxLength: 20 },
          loginName: { type: ['string', 'null'], maxLength: 64 },
          name: { type: ['string', 'null'], maxLength: 64 },
          mobile: { type: ['string', 'null'], maxLength: 20 },
        },
        Object.keys(SORTS),
      ),
    },
    handler: async (req) => {
      const caller = callerOf(req);
      const p = pagingOf(req);
      const c = p.criteria ?? {};
      let q = visible(caller);
      if (typeof c.keyword === 'string' && c.keyword) {
        const k = likePattern(c.keyword);
        q = q.where((eb) => eb.or([eb('m.login_name', 'ilike', k), eb('m.name', 'ilike', k), eb('m.mobile', 'ilike', k)]));
      }
      // The account page searches each of these on its own (contains, case-insensitive).
      for (const [field, col] of [
        ['loginName', 'm.login_name'],
        ['name', 'm.name'],
        ['mobile', 'm.mobile'],
      ] as const) {
        const v = c[field];
        if (typeof v === 'string' && v) q = q.where(col, 'ilike', likePattern(v));
      }
      if (typeof c.orgId === 'number') q = q.where(pathUnder('o.path', pathOfOrg(c.orgId)));
      if (typeof c.memberType === 'string' && c.memberType) q = q.where('m.member_type', '=', c.memberType);
      if (typeof c.status === 'string' && c.status) q = q.where('m.status', '=', c.status);
      if (typeof c.application === 'string' && c.application) {
        const appCode = c.application;
        q = q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('member_application as a')
              .select('a.member_id')
              .whereRef('a.member_id', '=', 'm.id')
              .where('a.application', '=', appCode),
          ),
        );
      }
      const { col, dir } = sortBy(p, SORTS, 'm.login_name');
      return listPage(
        db,
        p,
        async (limit, offset) =>
          withRolesAndApps(db, await q.select(MEMBER_COLUMNS).orderBy(col, dir).orderBy('m.id', dir).limit(limit).offset(offset).execute()),
        q.select(ONE),
      );
    },
  });

  app.get('/api/passport/member/:id', {
    config: { permission: NONE },
    schema: { tags: ['member'], summary: 'One account', params: idParams },
    handler: async (req) => one(callerOf(req), idOf(req)),
  });

  app.get('/api/passport/member/:id/signin/:app', {
    config: { permission: NONE },
    schema: {
      tags: ['member'],
      summary: "An account's recent sign-ins to an application",
      params: {
        type: 'object',
        required: ['id', 'app'],
        properties: { id: idParams.properties.id, app: { type: 'string', enum: APPLICATIONS } },
      } as const,
    },
    handler: async (req) => {
      const m = await one(callerOf(req), idOf(req));
      const appCode = req.params.app;
      const records = await db
        .selectFrom('audit_log')
        .select(['at', 'ip', 'application', 'success'])
        .where('member_id', '=', m.id)
        .where('action', '=', 'login')
        .where('application', '=', appCode)
        .orderBy('at', 'desc')
        .limit(50)
        .execute();
      return { memberId: m.id, signInCount: m.signInCount, lastSignIn: m.lastSignIn, records };
    },
  });
}
