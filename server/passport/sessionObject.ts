import type { Kysely } from 'kysely';
import type { SessionObject } from '../../schemas/kit/loginSchema';
import type { DB } from '../platform/db/tables';

/**
 * The `object` of a login (SPEC §3) plus what the console keeps of the session (§3, §4): member
 * summary and the organisation's branding, taken from the nearest organisation up the tree that sets it.
 */
export async function sessionObject(db: Kysely<DB>, memberId: number, token: string): Promise<SessionObject> {
  const m = await db
    .selectFrom('member as m')
    .innerJoin('organisation as o', 'o.id', 'm.org_id')
    .select(['m.id', 'm.uid', 'm.name', 'm.member_type', 'm.first_sign', 'o.code as branch', 'o.type as org_type', 'o.path'])
    .where('m.id', '=', memberId)
    .executeTakeFirstOrThrow();
  const ids = m.path.split('/').filter(Boolean).map(Number);
  const brands = await db.selectFrom('organisation').select(['path', 'title', 'logo', 'theme_color']).where('id', 'in', ids).execute();
  brands.sort((a, b) => b.path.length - a.path.length);
  const pick = (k: 'title' | 'logo' | 'theme_color') => brands.find((b) => b[k])?.[k] ?? null;
  return {
    token,
    uid: m.uid,
    name: m.name,
    memberType: m.member_type,
    id: m.id,
    branch: m.branch,
    firstSign: m.first_sign,
    memberId: m.id,
    memberName: m.name,
    orgType: m.org_type,
    title: pick('title'),
    logo: pick('logo'),
    themeColor: pick('theme_color'),
  };
}
