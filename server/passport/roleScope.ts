import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { RoleMisassignment } from '../../schemas/kit/roleMisassignment';
import type { Caller } from '../platform/auth/caller';
import type { DB } from '../platform/db/tables';
import { AppError } from '../platform/http/errors';
import { ungrantable } from './resources';
import { pathUnder } from '../platform/scope';

/**
 * A role belongs to an organisation and may be held only by members of that organisation's subtree:
 * otherwise one organisation's manager, editing their own role, would change another's rights.
 */
export async function checkRolesFitOrg(db: Kysely<DB>, memberOrgId: number, roleIds: number[]): Promise<void> {
  if (!roleIds.length) return;
  const outside = await db
    .selectFrom('role as r')
    .innerJoin('organisation as ro', 'ro.id', 'r.org_id')
    .innerJoin('organisation as mo', (j) => j.on('mo.id', '=', memberOrgId))
    .select(['r.name', 'ro.name as orgName'])
    .where('r.id', 'in', roleIds)
    .where(sql<boolean>`NOT ${pathUnder('mo.path', sql.ref('ro.path'))}`)
    .orderBy('r.name')
    .execute();
  if (!outside.length) return;
  const roles = outside.map((r) => `${r.name}（${r.orgName}）`).join('、');
  throw new AppError(406, 'security.roleOutsideOrg', { roles }, [{ field: 'roleIds', key: 'security.roleOutsideOrg', params: { roles } }]);
}

/** A role may be renamed, changed or deleted only by someone holding every code it grants. */
export async function checkRoleHeld(db: Kysely<DB>, caller: Caller, roleId: number): Promise<void> {
  const grants = await db.selectFrom('role_resource').select('resource_id').where('role_id', '=', roleId).execute();
  const { notHeld } = await ungrantable(
    db,
    caller,
    grants.map((g) => g.resource_id),
  );
  if (notHeld.length) throw new AppError(406, 'security.roleCodesNotHeld', { codes: notHeld.slice(0, 10).join(', ') });
}

/** Existing assignments breaking the rule (made before it was enforced), for members under `orgPath`. */
export async function misassignedRoles(db: Kysely<DB>, orgPath = '/'): Promise<RoleMisassignment[]> {
  return db
    .selectFrom('member_role as mr')
    .innerJoin('member as m', 'm.id', 'mr.member_id')
    .innerJoin('organisation as mo', 'mo.id', 'm.org_id')
    .innerJoin('role as r', 'r.id', 'mr.role_id')
    .innerJoin('organisation as ro', 'ro.id', 'r.org_id')
    .select([
      'm.id as memberId',
      'm.login_name as loginName',
      'm.name as memberName',
      'mo.name as orgName',
      'r.id as roleId',
      'r.name as roleName',
      'ro.name as roleOrgName',
    ])
    .where(pathUnder('mo.path', orgPath))
    .where(sql<boolean>`NOT ${pathUnder('mo.path', sql.ref('ro.path'))}`)
    .orderBy('m.login_name')
    .orderBy('r.name')
    .execute();
}

/** One warning at start-up when such assignments exist, with counts (the list is behind member-roleAudit). */
export async function reportMisassignedRoles(db: Kysely<DB>, log: Pick<FastifyBaseLogger, 'warn'>): Promise<number> {
  const rows = await misassignedRoles(db);
  if (rows.length) {
    log.warn(
      { assignments: rows.length, members: new Set(rows.map((r) => r.memberId)).size, roles: new Set(rows.map((r) => r.roleId)).size },
      'role assignments outside the role organisation subtree: an administrator can list them at GET /api/passport/member/role-misassignments (accounts page)',
    );
  }
  return rows.length;
}
