/**
 * API keys of integrators (API users). A key acts as the member who created it, narrowed to the
 * key's organisation subtree and action codes, so every route's scope and permission checks apply
 * to it unchanged. The database is the one judge of a key, read on every request as sessions are:
 * a revoked or disabled key, or API user, fails on the next request on every process sharing it.
 *
 * A key reads `fsk_<16 hex>_<43 base64url>`: the first part (its prefix) finds the row and names
 * the key in lists, the whole key is kept only as a SHA-256 hash.
 */

import crypto from 'node:crypto';
import net from 'node:net';
import type { FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/tables';
import { pathInSubtree } from '../scope';
import { accountRefusal, orgStatusInTree } from './accountState';
import type { Caller, MemberType } from './caller';
import { grantedCodes } from './grants';

const KEY_PATTERN = /^(fsk_[0-9a-f]{16})_[A-Za-z0-9_-]{43}$/;

/** The rate limit of a key when neither it nor its API user sets one: requests per minute. */
export const DEFAULT_RATE_LIMIT = 60;

export const hashApiKey = (key: string): string => crypto.createHash('sha256').update(key).digest('hex');

/** A fresh key: shown once to its creator; only its prefix and hash are stored. */
export function newApiKey(): { key: string; prefix: string; hash: string } {
  const prefix = `fsk_${crypto.randomBytes(8).toString('hex')}`;
  const key = `${prefix}_${crypto.randomBytes(32).toString('base64url')}`;
  return { key, prefix, hash: hashApiKey(key) };
}

/**
 * The key a request presents: `X-Api-Key`, or a bearer credential in the key's form (a session
 * token never starts with `fsk_`). Null when it presents none; a malformed one is still returned,
 * to be refused as such.
 */
export function presentedApiKey(req: FastifyRequest, bearer: string | null): string | null {
  const header = req.headers['x-api-key'];
  if (header !== undefined) return Array.isArray(header) ? header.join(',') : header;
  return bearer?.startsWith('fsk_') ? bearer : null;
}

/** Why a key may not act now; each is audited and answered 401 with its own message. */
export type KeyRefusal =
  | 'malformed'
  | 'unknown'
  | 'revoked'
  | 'disabled'
  | 'expired'
  | 'apiUserDisabled'
  | 'apiUserExpired'
  | 'ipNotAllowed'
  | 'orgDisabled'
  | 'creatorInvalid';

export interface KeyCheck {
  caller?: Caller;
  refusal?: KeyRefusal;
  /** The key's id and organisation when the row was found (for the audit). */
  keyId?: number;
  orgId?: number;
  prefix?: string;
  /** Requests per minute the key may make. */
  rateLimit?: number;
}

/** Whether an address is in an API user's whitelist (addresses and CIDR ranges, separated by commas, spaces or semicolons); an empty list allows all. */
export function ipAllowed(whitelist: string | null, address: string): boolean {
  const entries = (whitelist ?? '').split(/[\s,;]+/).filter(Boolean);
  if (!entries.length) return true;
  const list = new net.BlockList();
  for (const entry of entries) {
    const [ip, bitsText] = entry.split('/');
    const family = net.isIPv4(ip) ? 'ipv4' : net.isIPv6(ip) ? 'ipv6' : null;
    if (!family) continue; // an unreadable entry allows nobody
    const max = family === 'ipv4' ? 32 : 128;
    const bits = bitsText === undefined ? max : Number(bitsText);
    if (Number.isInteger(bits) && bits >= 0 && bits <= max) list.addSubnet(ip, bits, family);
  }
  return net.isIP(address) > 0 && list.check(address, net.isIPv6(address) ? 'ipv6' : 'ipv4');
}

const sameHash = (a: string, b: string) => a.length === b.length && crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));

interface KeyState {
  revoked_at: Date | string | null;
  enabled: boolean;
  expires_at: Date | string;
  api_user_enabled: boolean | null;
  api_user_expire_date: string | null;
  ip_whitelist: string | null;
  key_org_status: string;
  /** The creator's account state (accountRefusal's fields) and organisation path. */
  status: string;
  org_status: string;
  expire_date: string | null;
  member_path: string;
  path: string;
}

/** Why a found key may not act now from this address, or null when it may. */
function keyRefusal(k: KeyState, address: string, now = new Date()): KeyRefusal | null {
  const today = now.toISOString().slice(0, 10);
  if (k.revoked_at) return 'revoked';
  if (!k.enabled) return 'disabled';
  if (new Date(k.expires_at).getTime() <= now.getTime()) return 'expired';
  if (k.api_user_enabled === false) return 'apiUserDisabled';
  if (k.api_user_expire_date && k.api_user_expire_date < today) return 'apiUserExpired';
  if (!ipAllowed(k.ip_whitelist, address)) return 'ipNotAllowed';
  if (k.key_org_status !== 'enabled') return 'orgDisabled';
  // The creator must still be able to act and to see the key's organisation: a key never outlives its grant.
  if (accountRefusal(k, today) || !pathInSubtree(k.member_path, k.path)) return 'creatorInvalid';
  return null;
}

/** The caller a key acts as now, or why it may not act. */
export async function checkApiKey(db: Kysely<DB>, key: string, address: string): Promise<KeyCheck> {
  const prefix = KEY_PATTERN.exec(key)?.[1];
  if (!prefix) return { refusal: 'malformed' };
  const row = await db
    .selectFrom('api_key as k')
    .innerJoin('api_user as u', 'u.id', 'k.api_user_id')
    .innerJoin('organisation as o', 'o.id', 'k.org_id')
    .innerJoin('member as m', 'm.id', 'k.created_by')
    .innerJoin('organisation as mo', 'mo.id', 'm.org_id')
    .select([
      'k.id',
      'k.secret_hash',
      'k.org_id',
      'k.application',
      'k.codes',
      'k.expires_at',
      'k.rate_limit',
      'k.enabled',
      'k.revoked_at',
      'u.id as api_user_id',
      'u.name as api_user_name',
      'u.enabled as api_user_enabled',
      'u.expire_date as api_user_expire_date',
      'u.ip_whitelist',
      'u.rate_limit as api_user_rate_limit',
      'o.path',
      'o.name as org_name',
      'o.type as org_type',
      'o.is_system',
      'm.id as member_id',
      'm.uid',
      'm.login_name',
      'm.member_type',
      'm.status',
      'm.expire_date',
      'mo.path as member_path',
      'mo.is_system as member_org_is_system',
    ])
    .select(orgStatusInTree('o').as('key_org_status'))
    .select(orgStatusInTree('mo').as('org_status'))
    .where('k.prefix', '=', prefix)
    .executeTakeFirst();
  if (!row) return { refusal: 'unknown', prefix };
  const found = { keyId: row.id, orgId: row.org_id, prefix };
  // A wrong secret behind a real prefix is audited in the key's organisation, where its owners see it.
  if (!sameHash(row.secret_hash, hashApiKey(key))) return { ...found, refusal: 'unknown' };
  const refusal = keyRefusal(row, address);
  if (refusal) return { ...found, refusal };
  // The column holds only MemberType values (checked where members are written), as sessions.ts reads it.
  const memberType = row.member_type as MemberType;
  // The key's codes that its creator still holds: creating it never widened a grant, nor does time.
  const held = await grantedCodes(db, { id: row.member_id, memberType, orgIsSystem: row.member_org_is_system }, row.application);
  const codes = new Set((JSON.parse(row.codes) as string[]).filter((c) => held.allCodes || held.codes.has(c)));
  const caller: Caller = {
    memberId: row.member_id,
    uid: row.uid,
    name: row.api_user_name,
    loginName: row.login_name,
    memberType,
    orgId: row.org_id,
    orgName: row.org_name,
    orgType: row.org_type,
    orgPath: row.path,
    sessionId: `apiKey:${row.id}`,
    scope: 'full',
    originSessionId: null,
    application: row.application,
    allCodes: false,
    orgIsSystem: row.is_system,
    codes,
    apiKey: { id: row.id, apiUserId: row.api_user_id },
  };
  return { ...found, caller, rateLimit: row.rate_limit ?? row.api_user_rate_limit ?? DEFAULT_RATE_LIMIT };
}

/**
 * Counts one request of a key (its use count, last use, and the requests of its current window)
 * in one statement, so every process shares the count. A window is the minute from its first
 * request. Returns the seconds until the window ends when the key has gone past its limit.
 */
export async function countKeyUse(db: Kysely<DB>, keyId: number, address: string, limit: number): Promise<number | null> {
  const fresh = sql<boolean>`(window_start IS NULL OR window_start <= now() - interval '1 minute')`;
  const r = await sql<{ count: number; retry: number }>`
    UPDATE api_key SET
      window_count = CASE WHEN ${fresh} THEN 1 ELSE window_count + 1 END,
      window_start = CASE WHEN ${fresh} THEN now() ELSE window_start END,
      use_count = use_count + 1, last_used_at = now(), last_used_ip = ${address}
    WHERE id = ${keyId}
    RETURNING window_count AS count,
      CEIL(EXTRACT(EPOCH FROM (window_start + interval '1 minute' - now())))::int AS retry`.execute(db);
  const row = r.rows[0];
  return row && row.count > limit ? Math.max(1, row.retry) : null;
}
