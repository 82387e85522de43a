import { sql, type Kysely } from 'kysely';
import type { Caller } from '../platform/auth/caller';
import type { DB } from '../platform/db/tables';
import { AppError } from '../platform/http/errors';

const today = () => new Date().toISOString().slice(0, 10);

/** What makes a member a platform administrator able to sign in: every code, and nothing refusing them. */
interface AdminState {
  memberType: string;
  status: string;
  expireDate: string | null;
  orgIsSystem: boolean;
  orgStatus: string;
}

const isEnabledAdministrator = (m: AdminState) =>
  m.memberType === 'administrator' &&
  m.orgIsSystem &&
  m.status === 'enabled' &&
  m.orgStatus === 'enabled' &&
  !(m.expireDate && m.expireDate < today());

/** Refuses (406) when no enabled platform administrator would remain besides the member or organisation given. */
async function assertAnotherAdministrator(db: Kysely<DB>, except: { memberId?: number; orgId?: number }): Promise<void> {
  const others = await db
    .selectFrom('member as m')
    .innerJoin('organisation as o', 'o.id', 'm.org_id')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('m.member_type', '=', 'administrator')
    .where('o.is_system', '=', true)
    .where('m.status', '=', 'enabled')
    .where('o.status', '=', 'enabled')
    .where((eb) => eb.or([eb('m.expire_date', 'is', null), eb('m.expire_date', '>=', today())]))
    .$if(except.memberId !== undefined, (q) => q.where('m.id', '!=', except.memberId!))
    .$if(except.orgId !== undefined, (q) => q.where('m.org_id', '!=', except.orgId!))
    .executeTakeFirstOrThrow();
  if (others.n === 0) throw new AppError(406, 'security.lastAdministrator');
}

export interface MemberChange {
  memberType?: string;
  status?: string;
  expireDate?: string | null;
  orgId?: number;
}

/**
 * Nobody disables, expires or demotes their own account, and the last enabled platform administrator
 * stays one: the platform can never be locked out from the inside.
 */
export async function checkMemberChange(db: Kysely<DB>, caller: Caller, memberId: number, change: MemberChange): Promise<void> {
  const before = await db
    .selectFrom('member as m')
    .innerJoin('organisation as o', 'o.id', 'm.org_id')
    .select(['m.member_type', 'm.status', 'm.expire_date', 'm.org_id', 'o.is_system', 'o.status as org_status'])
    .where('m.id', '=', memberId)
    .executeTakeFirstOrThrow();
  const org =
    change.orgId !== undefined && change.orgId !== before.org_id
      ? await db.selectFrom('organisation').select(['is_system', 'status']).where('id', '=', change.orgId).executeTakeFirstOrThrow()
      : { is_system: before.is_system, status: before.org_status };
  const was: AdminState = {
    memberType: before.member_type,
    status: before.status,
    expireDate: before.expire_date,
    orgIsSystem: before.is_system,
    orgStatus: before.org_status,
  };
  const next: AdminState = {
    memberType: change.memberType ?? was.memberType,
    status: change.status ?? was.status,
    expireDate: change.expireDate === undefined ? was.expireDate : change.expireDate,
    orgIsSystem: org.is_system,
    orgStatus: org.status,
  };
  if (memberId === caller.memberId) {
    const disabled = next.status !== 'enabled' || (!!next.expireDate && next.expireDate < today());
    if (disabled || next.memberType !== was.memberType) throw new AppError(406, 'security.selfDisable');
  }
  if (isEnabledAdministrator(was) && !isEnabledAdministrator(next)) await assertAnotherAdministrator(db, { memberId });
}

/** Nobody disables their own organisation, and no organisation change leaves the platform without an administrator. */
export async function checkOrgChange(
  db: Kysely<DB>,
  caller: Caller,
  org: { id: number; status: string; isSystem: boolean },
  change: { status?: string; isSystem?: boolean },
): Promise<void> {
  const disabling = change.status !== undefined && change.status !== 'enabled' && org.status === 'enabled';
  if (disabling && org.id === caller.orgId) throw new AppError(406, 'security.ownOrgDisable');
  const losesSystem = change.isSystem === false && org.isSystem;
  if ((disabling && org.isSystem) || losesSystem) await assertAnotherAdministrator(db, { orgId: org.id });
}
