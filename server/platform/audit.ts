import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Caller } from './auth/caller';
import type { DB } from './db/tables';

export type AuditAction =
  | 'login'
  | 'loginFailed'
  | 'logout'
  | 'passwordChange'
  | 'passwordReset'
  | 'memberUnlock'
  | 'simulateLogin'
  | 'simulateLogout'
  | 'roleCreate'
  | 'roleUpdate'
  | 'roleDelete'
  | 'roleAuthorize'
  | 'memberRegister'
  | 'memberUpdate'
  | 'orgCreate'
  | 'orgUpdate'
  | 'orgDelete'
  | 'resourceCreate'
  | 'resourceUpdate'
  | 'resourceDelete'
  | 'entityDelete'
  | 'locationShare'
  | 'locationRevoke'
  | 'terminalRefused'
  | 'terminalSessionReplaced'
  | 'terminalResetRegistration'
  | 'terminalIdentityClash'
  | 'terminalCommand'
  | 'upgradePackageUpload'
  | 'labelDraft'
  | 'labelPublish'
  | 'labelReset'
  | 'apiKeyCreate'
  | 'apiKeyUpdate'
  | 'apiKeyRevoke'
  | 'apiKeyRefused'
  | 'subscriptionCreate'
  | 'subscriptionUpdate'
  | 'subscriptionDelete'
  | 'subscriptionReplay'
  | 'subscriptionPaused'
  | 'forwardLinkCreate'
  | 'forwardLinkUpdate'
  | 'forwardLinkDelete'
  | 'videoOpen'
  | 'videoClose'
  | 'playbackOpen'
  | 'playbackClose';

export interface AuditEntry {
  action: AuditAction | string;
  member?: { id: number; name: string; orgId: number } | null;
  /** The organisation an event without a member belongs to (e.g. a terminal's), so its subtree sees it. */
  orgId?: number | null;
  /** The member really acting, when different (impersonation). */
  actorMemberId?: number | null;
  application?: string | null;
  target?: string | null;
  success?: boolean;
  ip?: string | null;
  detail?: unknown;
}

/** The audited identity of a caller: the member acted as, and who is behind an impersonation. */
export async function auditCaller(db: Kysely<DB>, caller: Caller): Promise<Pick<AuditEntry, 'member' | 'actorMemberId' | 'application'>> {
  let actor: number | null = null;
  if (caller.originSessionId) {
    const origin = await db.selectFrom('session').select('member_id').where('id', '=', caller.originSessionId).executeTakeFirst();
    actor = origin?.member_id ?? null;
  }
  return { member: { id: caller.memberId, name: caller.name, orgId: caller.orgId }, actorMemberId: actor, application: caller.application };
}

export async function writeAudit(db: Kysely<DB>, e: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      action: e.action,
      member_id: e.member?.id ?? null,
      member_name: e.member?.name ?? null,
      org_id: e.member?.orgId ?? e.orgId ?? null,
      actor_member_id: e.actorMemberId ?? null,
      application: e.application ?? null,
      target: e.target ?? null,
      success: e.success ?? true,
      ip: e.ip ?? null,
      detail: e.detail === undefined ? null : typeof e.detail === 'string' ? e.detail : JSON.stringify(e.detail),
    })
    .execute();
}

/** Audits what a caller did in this request; `success: false` for an attempt the server refused. */
export async function auditRequest(
  db: Kysely<DB>,
  req: FastifyRequest,
  caller: Caller,
  action: AuditAction | string,
  target?: string,
  detail?: unknown,
  success = true,
): Promise<void> {
  await writeAudit(db, { ...(await auditCaller(db, caller)), action, target, detail, ip: req.ip, success });
}
