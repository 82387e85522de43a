/**
 * 0x0702 driver identity reports (the IC card reader) kept as card events of the vehicle the
 * terminal is bound to (driver_card_event). What a report must hold to be one is decided here:
 * a report that fails is refused with the reason and nothing is stored.
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import type { TerminalIdentity } from '../../platform/telemetry';
import { CARD_STATUS, type DriverIdentityBody } from '../jt808/codec';

export interface CardEvent {
  terminalId: number;
  vehicleId: number;
  /** Epoch ms, the device's time. */
  at: number;
  action: 'in' | 'out';
  cardNo: string | null;
  readResult: number | null;
  holderName: string | null;
  issuer: string | null;
  idNumber: string | null;
}

/** What the card reader names a card by: its certificate number, compacted and upper-cased as the driver's field is. */
export const cardNumberOf = (certificate: string | undefined): string => (certificate ?? '').replace(/[\s\0]+/g, '').toUpperCase();

const CARD_NO = /^[0-9A-Z-]{4,20}$/;

/**
 * The card event a report stands for, or why it is refused. A 2011 report (no status, no time) is a
 * card read at `receivedAt`; from 2013 on a report needs its status and a valid device time, and a
 * read card (result 0) its certificate number. An insert whose card could not be read is kept with
 * no number (it ends the session before it: a reader holds one card).
 */
export function cardEventOf(
  identity: TerminalIdentity,
  body: DriverIdentityBody,
  receivedAt: number,
): { event: CardEvent } | { reason: string } {
  if (identity.vehicleId === null) return { reason: 'terminal not bound to a vehicle' };
  const base = { terminalId: identity.terminalId, vehicleId: identity.vehicleId };
  const text = (s: string | undefined) => (s ? s.replace(/\0+/g, '').trim() || null : null);
  const read = (at: number): { event: CardEvent } | { reason: string } => {
    const cardNo = cardNumberOf(body.certificate);
    if (!CARD_NO.test(cardNo)) return { reason: `certificate number ${JSON.stringify(cardNo)} is not 4 to 20 letters, digits or dashes` };
    return {
      event: {
        ...base,
        at,
        action: 'in',
        cardNo,
        readResult: 0,
        holderName: text(body.name),
        issuer: text(body.issuer),
        idNumber: text(body.idNumber),
      },
    };
  };
  if (body.status === undefined) return read(receivedAt);
  if (!body.time) return { reason: 'no valid time' };
  const at = Date.parse(body.time);
  if (body.status === CARD_STATUS.removed) {
    return { event: { ...base, at, action: 'out', cardNo: null, readResult: null, holderName: null, issuer: null, idNumber: null } };
  }
  if (body.status !== CARD_STATUS.inserted) return { reason: `status ${body.status} is neither 1 (inserted) nor 2 (removed)` };
  if (body.readResult === 0) return read(at);
  return {
    event: { ...base, at, action: 'in', cardNo: null, readResult: body.readResult ?? null, holderName: null, issuer: null, idNumber: null },
  };
}

/** Writes a card event; the same event sent again is absorbed. */
export async function keepCardEvent(db: Kysely<DB>, e: CardEvent): Promise<void> {
  await sql`INSERT INTO driver_card_event (terminal_id, vehicle_id, at, action, card_no, read_result, holder_name, issuer, id_number)
    VALUES (${e.terminalId}, ${e.vehicleId}, ${new Date(e.at)}, ${e.action}, ${e.cardNo}, ${e.readResult}, ${e.holderName}, ${e.issuer}, ${e.idNumber})
    ON CONFLICT (vehicle_id, at, action, (coalesce(card_no, ''))) DO NOTHING`.execute(db);
}
