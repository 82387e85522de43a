import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/tables';
import { pathOfOrg, pathUnder } from '../scope';
import { accountRefusal, orgStatusInTree } from './accountState';
import type { Caller, MemberType, SessionScope } from './caller';
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
  info: { application: string; ip: string | null; userAgent: string | null; scope?: SessionScope; originSessionId?: string },
): Promise<string> {
  const id = crypto.randomBytes(18).toString('base64url');
  const exp = Math.floor(Date.now() / 1000) + deps.ttlHours * 3600;
  await deps.db
    .insertInto('session')
    .values({
      id,
      member_id: memberId,
      application: info.application,
      ip: info.ip,
      user_agent: info.userAgent,
      expires_at: new Date(exp * 1000),
      scope: info.scope ?? 'full',
      origin_session_id: info.originSessionId ?? null,
    })
    .execute();
  return signToken({ sid: id, sub: memberId, exp }, deps.secret);
}

/** The caller behind a bearer token, or null when the token or its session is not valid now. */
export async function callerFromToken(deps: SessionDeps, token: string): Promise<Caller | null> {
  const claims = verifyToken(token, deps.secret);
  if (!claims) return null;
  return callerOfSession(deps, claims.sid, claims.sub);
}

/** The unrevoked, unexpired session rows named, joined to their member and organisation. */
function sessionRows(db: Kysely<DB>, sids: readonly string[]) {
  return db
    .selectFrom('session as s')
    .innerJoin('member as m', 'm.id', 's.member_id')
    .innerJoin('organisation as o', 'o.id', 'm.org_id')
    .select([
      's.id as sid',
      's.application',
      's.scope',
      's.origin_session_id',
      'm.id',
      'm.uid',
      'm.name',
      'm.login_name',
      'm.member_type',
      'm.status',
      'm.expire_date',
      'm.org_id',
      'o.path',
      'o.name as org_name',
      'o.type as org_type',
      'o.is_system',
    ])
    .select(orgStatusInTree('o').as('org_status'))
    .where('s.id', 'in', sids.length ? [...sids] : [''])
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', new Date());
}

type SessionRow = Awaited<ReturnType<ReturnType<typeof sessionRows>['execute']>>[number];

/** A session row of `sessionRows` is valid now (its origin aside) when its account may act. */
const valid = (row: SessionRow) => !accountRefusal(row);

/**
 * The caller of a live session. An impersonation session lives only while its origin session does,
 * and holds only the codes both members hold: acting as someone never widens what one may do.
 */
async function callerOfSession(deps: SessionDeps, sid: string, memberId?: number): Promise<Caller | null> {
  const row = await sessionRows(deps.db, [sid]).executeTakeFirst();
  if (!row || !valid(row) || (memberId !== undefined && row.id !== memberId)) return null;
  const memberType = row.member_type as MemberType;
  let grant = await grantedCodes(deps.db, { id: row.id, memberType, orgIsSystem: row.is_system }, row.application);
  if (row.origin_session_id) {
    const origin = await callerOfSession(deps, row.origin_session_id);
    if (!origin) return null;
    grant = intersect(grant, origin);
  }
  return {
    memberId: row.id,
    uid: row.uid,
    name: row.name,
    loginName: row.login_name,
    memberType,
    orgId: row.org_id,
    orgName: row.org_name,
    orgType: row.org_type,
    orgPath: row.path,
    sessionId: row.sid,
    scope: row.scope,
    originSessionId: row.origin_session_id,
    application: row.application,
    orgIsSystem: row.is_system,
    ...grant,
  };
}

/** Who a live session acts as now: its member and that member's organisation path. */
export interface SessionHolder {
  memberId: number;
  orgPath: string;
}

/**
 * Which of these sessions are valid now (by the rule `callerFromToken` applies), each with its
 * holder: one query for many sessions (the live sockets of a process), plus one for their origins.
 */
export async function liveSessions(db: Kysely<DB>, sids: readonly string[]): Promise<Map<string, SessionHolder>> {
  const live = new Map<string, SessionHolder>();
  if (!sids.length) return live;
  const rows = (await sessionRows(db, sids).execute()).filter(valid);
  const origins = [...new Set(rows.map((r) => r.origin_session_id).filter((o): o is string => o !== null))];
  const liveOrigins = origins.length ? await liveSessions(db, origins) : new Map<string, SessionHolder>();
  for (const r of rows)
    if (!r.origin_session_id || liveOrigins.has(r.origin_session_id)) live.set(r.sid, { memberId: r.id, orgPath: r.path });
  return live;
}

type Grant = { allCodes: boolean; codes: ReadonlySet<string> };
function intersect(a: Grant, b: Grant): { allCodes: boolean; codes: Set<string> } {
  if (a.allCodes) return { allCodes: b.allCodes, codes: new Set(b.codes) };
  if (b.allCodes) return { allCodes: false, codes: new Set(a.codes) };
  return { allCodes: false, codes: new Set([...a.codes].filter((c) => b.codes.has(c))) };
}

export async function revokeSession(db: Kysely<DB>, sessionId: string): Promise<void> {
  await db.updateTable('session').set({ revoked_at: new Date() }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
}

/** Revokes every live session of the members of an organisation and its subtree (the organisation disabled). */
export async function revokeSubtreeSessions(db: Kysely<DB>, orgId: number): Promise<void> {
  await db
    .updateTable('session')
    .set({ revoked_at: new Date() })
    .where('revoked_at', 'is', null)
    .where(
      'member_id',
      'in',
      db
        .selectFrom('member as m')
        .innerJoin('organisation as o', 'o.id', 'm.org_id')
        .select('m.id')
        .where(pathUnder('o.path', pathOfOrg(orgId))),
    )
    .execute();
}

/** Revokes every live session of a member (password changed or reset, account disabled), except `keep` if given. */
export async function revokeMemberSessions(db: Kysely<DB>, memberId: number, keep?: string): Promise<void> {
  let q = db.updateTable('session').set({ revoked_at: new Date() }).where('member_id', '=', memberId).where('revoked_at', 'is', null);
  if (keep) q = q.where('id', '!=', keep);
  await q.execute();
}
