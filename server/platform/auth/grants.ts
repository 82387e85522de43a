import type { Kysely } from 'kysely';
import type { DB } from '../db/tables';
import type { MemberType } from './caller';

/** Administrators of a system organisation (the platform operator) hold every code and resource. */
export const holdsEverything = (memberType: string, orgIsSystem: boolean) => memberType === 'administrator' && orgIsSystem;

/**
 * The action codes a member holds in an application: the Action resources granted to their roles
 * (every code for those who hold everything).
 */
export async function grantedCodes(
  db: Kysely<DB>,
  member: { id: number; memberType: MemberType; orgIsSystem: boolean },
  application: string,
): Promise<{ allCodes: boolean; codes: Set<string> }> {
  if (holdsEverything(member.memberType, member.orgIsSystem)) return { allCodes: true, codes: new Set() };
  const rows = await db
    .selectFrom('member_role as mr')
    .innerJoin('role_resource as rr', 'rr.role_id', 'mr.role_id')
    .innerJoin('resource as r', 'r.id', 'rr.resource_id')
    .select('r.code')
    .distinct()
    .where('mr.member_id', '=', member.id)
    .where('r.application', '=', application)
    .where('r.kind', '=', 'Action')
    .execute();
  return { allCodes: false, codes: new Set(rows.map((r) => r.code)) };
}
