import { hashPassword } from '../platform/auth/password';
import type { PassportDeps } from './deps';
import { endMemberSessions } from './sessionEnds';

/**
 * Stores a member's new password (hashed) and ends all its sessions. `mustChange`: the member must
 * change it at next sign-in (a reset by someone else), not when the member chose it.
 */
export async function setPassword(
  deps: Pick<PassportDeps, 'db' | 'sessionsChanged'>,
  memberId: number,
  password: string,
  mustChange: boolean,
): Promise<void> {
  await deps.db
    .updateTable('member')
    .set({ password_hash: await hashPassword(password), first_sign: mustChange, password_changed_at: new Date(), updated_at: new Date() })
    .where('id', '=', memberId)
    .execute();
  await endMemberSessions(deps, memberId);
}
