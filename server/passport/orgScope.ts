import type { Kysely } from 'kysely';
import type { Caller } from '../auth/caller';
import type { DB } from '../db/tables';
import { invalid } from '../http/errors';

/** The organisation when it lies in the caller's subtree; a 400 on the field otherwise. */
export async function orgInScope(db: Kysely<DB>, caller: Caller, orgId: number, field: string, labelKey: string) {
  const org = await db.selectFrom('organisation').select(['id', 'path', 'type', 'is_system']).where('id', '=', orgId).where('path', 'like', caller.orgPath + '%').executeTakeFirst();
  if (!org) throw invalid([{ field, key: 'validation.refNotFound', params: {}, labelKey }]);
  return org;
}
