import type { Kysely } from 'kysely';
import type { Caller } from '../platform/auth/caller';
import type { DB } from '../platform/db/tables';
import { invalid } from '../platform/http/errors';
import { pathUnder } from '../platform/scope';

/** The organisation when it lies in the caller's subtree; a 400 on the field otherwise. */
export async function orgInScope(db: Kysely<DB>, caller: Caller, orgId: number, field: string, labelKey: string) {
  const org = await db
    .selectFrom('organisation')
    .select(['id', 'path', 'type', 'is_system'])
    .where('id', '=', orgId)
    .where(pathUnder('path', caller.orgPath))
    .executeTakeFirst();
  if (!org) throw invalid([{ field, key: 'validation.refNotFound', params: {}, labelKey }]);
  return org;
}
