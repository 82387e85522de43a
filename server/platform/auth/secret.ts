import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/tables';

/**
 * The token secret: JWT_SECRET when given, else one generated on first start and kept in the
 * database, so restarts and every instance on the same database accept the same tokens.
 */
export async function tokenSecret(db: Kysely<DB>, configured?: string): Promise<string> {
  if (configured) return configured;
  const fresh = crypto.randomBytes(32).toString('base64url');
  await db
    .insertInto('app_setting')
    .values({ key: 'jwt_secret', value: fresh })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('app_setting').select('value').where('key', '=', 'jwt_secret').executeTakeFirstOrThrow();
  return row.value;
}
