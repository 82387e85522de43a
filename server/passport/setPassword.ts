import type { Kysely } from 'kysely';
import { hashPassword } from '../platform/auth/password';
import { revokeMemberSessions } from '../platform/auth/sessions';
import type { DB } from '../platform/db/tables';

/**
 * Stores a member's new password (hashed) and ends all its sessions. `mustChange`: the member must
 * change it at next sign-in (a reset by someone else), not when the member chose it.
 */
export async function setPassword(db: Kysely<DB>, memberId: number, password: string, mustChange: boolean): Promise<void> {
  await db
    .updateTable('member')
    .set({ password_hash: await hashPassword(password), first_sign: mustChange, password_changed_at: new Date(), updated_at: new Date() })
    .where('id', '=', memberId)
    .execute();
  await revokeMemberSessions(db, memberId);
}
