import type { Kysely } from 'kysely';
import type { Caller } from '../platform/auth/caller';
import type { DB } from '../platform/db/tables';
import { AppError, invalid, refNotFound } from '../platform/http/errors';
import { ungrantable } from './resources';
import { pathUnder } from '../platform/scope';

/** The labels of member fields, for the field errors of the account and App account routes. */
const LABELS = 'passport.fields';

/** A role id that is not one the caller may give (unknown, outside the subtree, or of the wrong application). */
export const badRoles = () => invalid([refNotFound('roleIds', LABELS)]);

/** Only administrators change (or create) administrators' accounts. */
export function checkAdministratorOnly(caller: Caller, memberType: string | undefined): void {
  if (memberType === 'administrator' && caller.memberType !== 'administrator') throw new AppError(403, 'passport.memberTypeNotAllowed');
}

/**
 * Roles newly given to a member must lie in the caller's subtree and grant nothing the caller lacks,
 * so no one hands out more than they hold.
 */
export async function checkRolesToAdd(db: Kysely<DB>, caller: Caller, added: number[]): Promise<void> {
  if (!added.length) return;
  const mine = await db
    .selectFrom('role as r')
    .innerJoin('organisation as o', 'o.id', 'r.org_id')
    .select('r.id')
    .where('r.id', 'in', added)
    .where(pathUnder('o.path', caller.orgPath))
    .execute();
  if (mine.length !== added.length) throw badRoles();
  const grants = await db.selectFrom('role_resource').select('resource_id').where('role_id', 'in', added).execute();
  const { notHeld } = await ungrantable(db, caller, [...new Set(grants.map((g) => g.resource_id))]);
  if (notHeld.length) throw new AppError(406, 'passport.codesNotHeld', { codes: notHeld.slice(0, 10).join(', ') });
}

/** A mobile number belongs to one account: another member (not `self`) holding it is a 406 on the field. */
export async function checkMobileFree(db: Kysely<DB>, mobile: string | null | undefined, self: number): Promise<void> {
  if (!mobile) return;
  const hit = await db.selectFrom('member').select('id').where('mobile', '=', mobile).where('id', '!=', self).executeTakeFirst();
  if (hit) throw new AppError(406, 'passport.phoneExists', {}, [{ field: 'mobile', key: 'passport.phoneExists', params: {} }]);
}

/** Accounts (`m`, with their organisation `o`) inside a caller's subtree: every account route starts here. */
export const membersInScope = (db: Kysely<DB>, caller: Pick<Caller, 'orgPath'>) =>
  db.selectFrom('member as m').innerJoin('organisation as o', 'o.id', 'm.org_id').where(pathUnder('o.path', caller.orgPath));
