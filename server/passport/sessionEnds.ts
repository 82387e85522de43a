/**
 * Where passport ends sessions or changes what they may see, and tells every process's live
 * sockets (`sessionsChanged`): logout, a password set, an account or organisation disabled, moved
 * or expired. Disabling ends the sessions for good: re-enabling later does not revive old tokens.
 */
import { accountRefusal } from '../platform/auth/accountState';
import { revokeMemberSessions, revokeSession, revokeSubtreeSessions } from '../platform/auth/sessions';
import type { PassportDeps } from './deps';

type Deps = Pick<PassportDeps, 'db' | 'sessionsChanged'>;

/** One session ends (logout, the end of a simulated login). */
export async function endSession(deps: Deps, sessionId: string): Promise<void> {
  await revokeSession(deps.db, sessionId);
  deps.sessionsChanged('logout');
}

/** Every session of a member ends (its password was set). */
export async function endMemberSessions(deps: Deps, memberId: number): Promise<void> {
  await revokeMemberSessions(deps.db, memberId);
  deps.sessionsChanged('passwordChanged');
}

/** After an account's change: disabling or expiring it ends its sessions; any change of state or organisation is announced. */
export async function afterMemberChange(
  deps: Deps,
  memberId: number,
  change: { status?: string; expireDate?: string | null; orgId?: number },
): Promise<void> {
  // The sign-in rule, applied to what the change sets (what it leaves alone was dealt with when set).
  const disabled =
    accountRefusal({ status: change.status ?? 'enabled', org_status: 'enabled', expire_date: change.expireDate ?? null }) !== null;
  if (disabled) await revokeMemberSessions(deps.db, memberId);
  if (disabled || change.status !== undefined || change.expireDate !== undefined || change.orgId !== undefined)
    deps.sessionsChanged('accountChanged');
}

/**
 * After an organisation's change: disabling it ends the sessions of every account of its subtree;
 * a change of status or place is announced.
 */
export async function afterOrgChange(deps: Deps, orgId: number, change: { status?: string; moved: boolean }): Promise<void> {
  const disabled = change.status !== undefined && change.status !== 'enabled';
  if (disabled) await revokeSubtreeSessions(deps.db, orgId);
  if (change.status !== undefined || change.moved) deps.sessionsChanged('organisationChanged');
}
