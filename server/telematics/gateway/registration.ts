/**
 * Terminal registration bound to hardware (issue 18, finding 1): a terminal registers (0x0100)
 * once and gets its auth code; from then on a registration is refused as "terminal already
 * registered" and reveals nothing, until an operator resets the registration. The code is bound
 * to the hardware that registered (maker id, model, terminal id, and with 2019 the IMEI of the
 * first authentication): an authentication from other hardware is refused.
 */

import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { RefusalMessage, RefusalReason } from '../../../schemas/kit/terminalRefusal';
import type { DB } from '../../platform/db/tables';
import type { AuthRecord } from './terminals';

/** What a terminal says about its hardware in 0x0100 (and, 2019, the IMEI of 0x0102). */
export interface Hardware {
  makerId: string;
  model: string;
  deviceId: string;
  /** Body layout of the registration: 2011, 2013 or 2019. */
  layout: number;
}

export type RegisterOutcome =
  { ok: true; authCode: string } | { ok: false; reason: Extract<RefusalReason, 'alreadyRegistered' | 'hardwareMismatch'> };
export type AuthRefusal = Extract<RefusalReason, 'notRegistered' | 'badCode' | 'imeiMismatch' | 'imeiMissing'>;
export type AuthOutcome = { ok: true; imeiBound: boolean } | { ok: false; reason: AuthRefusal };

/** 20 characters from an alphabet without look-alikes: ASCII, so it survives GBK on the wire. */
export function newAuthCode(): string {
  const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
  const bytes = crypto.randomBytes(20);
  let s = '';
  for (const b of bytes) s += alphabet[b % alphabet.length];
  return s;
}

const sameHardware = (a: Hardware, b: { maker_id: string | null; model: string | null; device_id: string | null }) =>
  a.makerId === b.maker_id && a.model === b.model && a.deviceId === b.device_id;

/**
 * Registers a terminal that is not registered (never, or reset): issues a new code and binds the
 * hardware, in one statement so two racing registrations cannot both win. A registered terminal
 * is refused, whatever hardware asks (the reason tells the operator whether it was the same).
 */
export async function registerTerminal(db: Kysely<DB>, terminalId: number, hw: Hardware): Promise<RegisterOutcome> {
  const code = newAuthCode();
  const values = { auth_code: code, maker_id: hw.makerId, model: hw.model, device_id: hw.deviceId, layout: hw.layout, imei: null };
  const won = await db
    .insertInto('terminal_link')
    .values({ terminal_id: terminalId, ...values })
    .onConflict((oc) =>
      oc
        .column('terminal_id')
        .doUpdateSet({ ...values, registered_at: sql`now()` })
        .where('terminal_link.auth_code', 'is', null),
    )
    .returning('auth_code')
    .executeTakeFirst();
  if (won?.auth_code) return { ok: true, authCode: won.auth_code };
  const bound = await db
    .selectFrom('terminal_link')
    .select(['maker_id', 'model', 'device_id'])
    .where('terminal_id', '=', terminalId)
    .executeTakeFirstOrThrow();
  // Registered before hardware was bound (no maker id kept): nothing to compare with.
  const unknown = bound.maker_id === null && bound.model === null && bound.device_id === null;
  return { ok: false, reason: unknown || sameHardware(hw, bound) ? 'alreadyRegistered' : 'hardwareMismatch' };
}

const digest = (s: string) => crypto.createHash('sha256').update(s, 'utf8').digest();

/**
 * Checks an authentication (0x0102): the code issued to this terminal (constant-time compare)
 * and, once an IMEI is bound, the same IMEI. A terminal registered with the 2019 layout must
 * authenticate with its IMEI (no downgrade to the code alone); the first 2019 authentication
 * after a registration binds the IMEI it carries.
 */
export async function authenticateTerminal(
  db: Kysely<DB>,
  terminalId: number,
  code: string,
  imei: string | undefined,
): Promise<AuthOutcome> {
  const row = await db
    .selectFrom('terminal_link')
    .select(['auth_code', 'imei', 'layout'])
    .where('terminal_id', '=', terminalId)
    .executeTakeFirst();
  return checkAuthentication(
    db,
    terminalId,
    { authCode: row?.auth_code ?? null, imei: row?.imei ?? null, layout: row?.layout ?? null },
    code,
    imei,
  );
}

/**
 * authenticateTerminal on a registration already read (findTerminalForAuth reads it with the
 * terminal): no query at all, except the one write that binds a first IMEI.
 */
export async function checkAuthentication(
  db: Kysely<DB>,
  terminalId: number,
  row: AuthRecord,
  code: string,
  imei: string | undefined,
): Promise<AuthOutcome> {
  if (!row.authCode) return { ok: false, reason: 'notRegistered' };
  if (!crypto.timingSafeEqual(digest(row.authCode), digest(code))) return { ok: false, reason: 'badCode' };
  if (row.imei !== null)
    return imei === row.imei ? { ok: true, imeiBound: false } : { ok: false, reason: imei ? 'imeiMismatch' : 'imeiMissing' };
  if (!imei) return row.layout === 2019 ? { ok: false, reason: 'imeiMissing' } : { ok: true, imeiBound: false };
  // First IMEI for this registration: bind it, unless another authentication bound one meanwhile.
  const bound = await db
    .updateTable('terminal_link')
    .set({ imei })
    .where('terminal_id', '=', terminalId)
    .where('auth_code', '=', row.authCode)
    .where('imei', 'is', null)
    .returning('imei')
    .executeTakeFirst();
  if (bound) return { ok: true, imeiBound: true };
  return authenticateTerminal(db, terminalId, code, imei);
}

/**
 * Forgets the registration: the code stops working and the next 0x0100 registers afresh. The
 * identities the registration kept (a number or SIM the terminal's row no longer names) are freed.
 */
export async function resetRegistration(db: Kysely<DB>, terminalId: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('terminal_link')
      .set({ auth_code: null, maker_id: null, model: null, device_id: null, layout: null, imei: null, reset_at: sql`now()` })
      .where('terminal_id', '=', terminalId)
      .where('auth_code', 'is not', null)
      .executeTakeFirst();
    await sql`SELECT terminal_identity_release(${terminalId}::int)`.execute(trx);
    return Number(r.numUpdatedRows) > 0;
  });
}

export interface RefusalView {
  id: string;
  at: Date;
  message: RefusalMessage;
  reason: RefusalReason;
  remoteAddress: string | null;
  suppressed: number;
}

export interface RegistrationView {
  registered: boolean;
  registeredAt: Date | null;
  resetAt: Date | null;
  online: boolean;
  remoteAddress: string | null;
  protocol: number | null;
  hardware: { makerId: string | null; model: string | null; deviceId: string | null; layout: number | null; imei: string | null } | null;
  refusals: RefusalView[];
}

/** Refused attempts kept per terminal. */
export const REFUSALS_KEPT = 20;

/** What the console shows on a terminal: registration state, bound hardware, recent refusals (never the code). */
export async function registrationView(db: Kysely<DB>, terminalId: number): Promise<RegistrationView> {
  const link = await db.selectFrom('terminal_link').selectAll().where('terminal_id', '=', terminalId).executeTakeFirst();
  const refusals = await db
    .selectFrom('terminal_refusal')
    .select(['id', 'at', 'message', 'reason', 'remote_address', 'suppressed'])
    .where('terminal_id', '=', terminalId)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(REFUSALS_KEPT)
    .execute();
  const registered = !!link?.auth_code;
  return {
    registered,
    registeredAt: registered ? new Date(link.registered_at) : null,
    resetAt: link?.reset_at ? new Date(link.reset_at) : null,
    online: link?.online ?? false,
    remoteAddress: link?.remote_address ?? null,
    protocol: link?.protocol ?? null,
    hardware: registered
      ? { makerId: link.maker_id, model: link.model, deviceId: link.device_id, layout: link.layout, imei: link.imei }
      : null,
    refusals: refusals.map((r) => ({
      id: String(r.id),
      at: new Date(r.at),
      message: r.message as RefusalMessage,
      reason: r.reason as RefusalReason,
      remoteAddress: r.remote_address,
      suppressed: r.suppressed,
    })),
  };
}
