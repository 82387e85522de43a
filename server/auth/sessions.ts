import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/tables';
import type { Caller, MemberType } from './caller';
import { grantedCodes } from './grants';
import { signToken, verifyToken } from './token';

export interface SessionDeps {
  db: Kysely<DB>;
  secret: string;
  ttlHours: number;
}

/** Opens a session row and returns its signed token. */
export async function openSession(
  deps: SessionDeps,
  memberId: number,
  info: { application: string; ip: string | null; userAgent: string | null },
): Promise<string> {
  const id = crypto.randomBytes(18).toString('base64url');
  const exp = Math.floor(Date.now() / 1000) + deps.ttlHours * 3600;
  await deps.db
    .insertInto('session')
    .values({ id, member_id: memberId, application: info.application, ip: info.ip, user_agent: info.userAgent, expires_at: new Date(exp * 1000) })
    .execute();
  return signToken({ sid: id, sub: memberId, exp }, deps.secret);
}

/** The caller behind a bearer token, or null when the token or its session is not valid now. */
export async function callerFromToken(deps: SessionDeps, token: string): Promise<Caller | null> {
  const claims = verifyToken(token, deps.secret);
  if (!claims) return null;
  const row = await deps.db
    .selectFrom('session as s')
    .innerJoin('member as m', 'm.id', 's.member_id')
    .innerJoin('organisation as o', 'o.id', 'm.org_id')
    .select([
      's.id as sid',
      's.application',
      'm.id',
      'm.uid',
      'm.name',
      'm.login_name',
      'm.member_type',
      'm.status',
      'm.expire_date',
      'm.org_id',
      'o.path',
      'o.status as org_status',
    ])
    .where('s.id', '=', claims.sid)
    .where('s.member_id', '=', claims.sub)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', new Date())
    .executeTakeFirst();
  if (!row || row.status !== 'enabled' || row.org_status !== 'enabled') return null;
  if (row.expire_date && row.expire_date < new Date().toISOString().slice(0, 10)) return null;
  const memberType = row.member_type as MemberType;
  return {
    memberId: row.id,
    uid: row.uid,
    name: row.name,
    loginName: row.login_name,
    memberType,
    orgId: row.org_id,
    orgPath: row.path,
    sessionId: row.sid,
    application: row.application,
    ...grantedCodes(memberType),
  };
}

export async function revokeSession(db: Kysely<DB>, sessionId: string): Promise<void> {
  await db.updateTable('session').set({ revoked_at: new Date() }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
}
