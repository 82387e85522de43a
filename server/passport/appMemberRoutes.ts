import type { FastifyInstance } from 'fastify';
import { appMemberBodySchema } from '../../schemas/kit/passportSchemas';
import { callerOf } from '../platform/auth/authenticate';
import type { Caller } from '../platform/auth/caller';
import { notFound } from '../platform/http/errors';
import { auditRequest } from '../platform/audit';
import type { PassportDeps } from './deps';
import { badRoles, checkAdministratorOnly, checkMobileFree, checkRolesToAdd, membersInScope } from './memberChecks';
import { checkMemberChange } from './lockoutGuards';
import { afterMemberChange } from './sessionEnds';
import { MEMBER_COLUMNS, withRolesAndApps } from './memberRoutes';
import { checkRolesFitOrg } from './roleScope';
import { defined, idOf, changeOptions, type IdParams } from './routeKit';
import { typed } from '../platform/http/typed';

const APP = 'vehicle-app';

interface AppMemberBody {
  name?: string;
  mobile?: string | null;
  expireDate?: string | null;
  status?: string;
  roleIds?: number[];
}

/** What the app-account page may change (schemas/appMember.schema.json): the person, the validity and the App roles — never the login, type, organisation or web roles. */
export { appMemberBodySchema };

/**
 * App accounts (SPEC §1 "app accounts"): members of the vehicle-app application, edited by holders
 * of `appMember-edit` inside their subtree. Their web roles and applications stay as they are.
 */
export function registerAppMemberRoutes(fastify: FastifyInstance, deps: PassportDeps): void {
  const app = typed(fastify);
  const { db } = deps;
  const labels = 'passport.fields';

  /** The member when it is in the caller's subtree and uses the App; 404 otherwise. */
  async function appMember(caller: Caller, id: number) {
    const row = await membersInScope(db, caller)
      .select(MEMBER_COLUMNS)
      .where('m.id', '=', id)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('member_application as a')
            .select('a.member_id')
            .whereRef('a.member_id', '=', 'm.id')
            .where('a.application', '=', APP),
        ),
      )
      .executeTakeFirst();
    if (!row) throw notFound();
    return (await withRolesAndApps(db, [row]))[0];
  }

  /** Every role must be an App role; added ones must lie in the caller's subtree and grant nothing the caller lacks. */
  async function checkRoles(caller: Caller, orgId: number, ids: number[], held: number[]) {
    if (!ids.length) return;
    const appRoles = await db.selectFrom('role').select('id').where('id', 'in', ids).where('application', '=', APP).execute();
    if (appRoles.length !== ids.length) throw badRoles();
    await checkRolesToAdd(
      db,
      caller,
      ids.filter((id) => !held.includes(id)),
    );
    await checkRolesFitOrg(db, orgId, ids);
  }

  app.put<{ Body: AppMemberBody; Params: IdParams }>('/api/passport/app-member/:id', {
    ...changeOptions(
      'appMember-edit',
      labels,
      'member',
      'Change an App account: name, mobile, expiry, status and its vehicle-app roles',
      appMemberBodySchema,
    ),
    handler: async (req) => {
      const caller = callerOf(req);
      const body = req.body;
      const before = await appMember(caller, idOf(req));
      // As for password resets: only administrators touch administrators' accounts.
      checkAdministratorOnly(caller, before.memberType);
      if (body.roleIds) await checkRoles(caller, before.orgId, body.roleIds, before.roleIds);
      await checkMemberChange(db, caller, before.id, { status: body.status, expireDate: body.expireDate });
      await checkMobileFree(db, body.mobile, before.id);
      const set = defined({ name: body.name, mobile: body.mobile, expire_date: body.expireDate, status: body.status });
      const nextRoles = body.roleIds;
      // Only the transaction's own connection inside: the embedded database has just one.
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('member')
          .set({ ...set, updated_at: new Date() })
          .where('id', '=', before.id)
          .execute();
        if (!nextRoles) return;
        await trx
          .deleteFrom('member_role')
          .where('member_id', '=', before.id)
          .where('role_id', 'in', trx.selectFrom('role').select('id').where('application', '=', APP))
          .execute();
        if (nextRoles.length)
          await trx
            .insertInto('member_role')
            .values(nextRoles.map((role_id) => ({ member_id: before.id, role_id })))
            .execute();
      });
      await afterMemberChange(deps, before.id, { status: body.status, expireDate: body.expireDate });
      await auditRequest(db, req, caller, 'memberUpdate', String(before.id), { ...body, application: APP });
      return appMember(caller, before.id);
    },
  });
}
