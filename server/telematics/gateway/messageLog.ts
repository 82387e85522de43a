/**
 * Messages kept without a table of their own (terminal_message): 0x0701 waybills, vendor
 * message ids the codec does not decode (raw), the 2019 messages of decodedMessages.ts (decoded,
 * as JSON) and their bodies that did not decode (raw, with the reason). The session acknowledges
 * one once it is written.
 */

import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';

export interface KeptMessage {
  terminalId: number;
  msgId: number;
  kind: 'waybill' | 'vendor' | 'decoded' | 'malformed';
  text: string | null;
  bodyHex: string;
  /** Frame anomalies tolerated on the way in. */
  flags: Record<string, unknown> | null;
}

export function keepMessage(db: Kysely<DB>, m: KeptMessage): Promise<unknown> {
  return db
    .insertInto('terminal_message')
    .values({
      terminal_id: m.terminalId,
      msg_id: m.msgId,
      kind: m.kind,
      text: m.text,
      body_hex: m.bodyHex,
      flags: m.flags ? JSON.stringify(m.flags) : null,
    })
    .execute();
}
