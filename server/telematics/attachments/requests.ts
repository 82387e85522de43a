/**
 * The platform's side of 0x9208: after a report whose active safety item announces attachments,
 * one request per alarm identification, named by a fresh 32-character alarm number (128 random
 * bits: the terminal proves it was asked by quoting it on the attachment link), recorded before the
 * 0x9208 goes down.
 */

import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import { identificationKey, SAFETY_ITEM, type SafetyKind, type SafetyStandard } from '../jt808/messages/activeSafety';
import { ATTACHMENT_MSG, encodeUploadRequest } from '../jt808/messages/attachmentUpload';
import type { LocationExtras } from '../jt808/codec';
import type { TerminalIdentity } from '../store/records';

export interface RequestRow {
  id: string;
  alarmNumber: string;
  terminalId: number;
  vehicleId: number | null;
  alarmKey: string;
  standard: SafetyStandard;
  attachments: number;
}

/** What the requester needs of a gateway session. */
export interface RequestSender {
  readonly safetyStandard: SafetyStandard;
  /** The address the terminal reached this server on (the default address told to it). */
  readonly localAddress: string | null;
  sendRaw(msgId: number, body: Buffer): number | null;
}

export interface AttachmentRequesterOptions {
  db: Kysely<DB>;
  /** The address terminals connect to for uploads; null: the one they reached the gateway on. */
  host: string | null;
  port: number;
  log: { warn(o: object, msg: string): void; debug(o: object, msg: string): void };
}

const newAlarmNumber = (): string => randomBytes(16).toString('hex');

/** IPv4 addresses reached over a dual-stack socket read "::ffff:a.b.c.d". */
const plainAddress = (a: string | null): string | null => (a?.startsWith('::ffff:') ? a.slice(7) : a);

export class AttachmentRequester {
  constructor(private readonly opts: AttachmentRequesterOptions) {}

  /**
   * Asks for the attachments each safety item of these extras announces (a start or a whole alarm,
   * at least one attachment). Never throws: a failure is logged and the terminal keeps its files.
   */
  async request(sender: RequestSender, identity: TerminalIdentity, extras: LocationExtras): Promise<void> {
    for (const kind of Object.keys(SAFETY_ITEM) as SafetyKind[]) {
      const item = extras[kind];
      if (!item || item.flag === 2 || item.identification.attachments === 0) continue;
      try {
        await this.requestOne(sender, identity, item.identification, sender.safetyStandard);
      } catch (err) {
        this.opts.log.warn({ err, terminalId: identity.terminalId }, 'attachment request not sent');
      }
    }
  }

  private async requestOne(
    sender: RequestSender,
    identity: TerminalIdentity,
    identification: NonNullable<LocationExtras['adas']>['identification'],
    standard: SafetyStandard,
  ): Promise<void> {
    const host = this.opts.host ?? plainAddress(sender.localAddress);
    if (!host) return;
    const alarmKey = identificationKey(identification);
    // A report sent again (its acknowledgement lost) asks again under the same number, and not at all once complete.
    const asked = await this.opts.db
      .selectFrom('attachment_request')
      .select(['alarm_number', 'completed_at'])
      .where('terminal_id', '=', identity.terminalId)
      .where('alarm_key', '=', alarmKey)
      .executeTakeFirst();
    if (asked?.completed_at) return;
    const alarmNumber = asked?.alarm_number ?? newAlarmNumber();
    if (!asked)
      await this.opts.db
        .insertInto('attachment_request')
        .values({
          alarm_number: alarmNumber,
          terminal_id: identity.terminalId,
          vehicle_id: identity.vehicleId,
          alarm_key: alarmKey,
          standard,
          attachments: identification.attachments,
        })
        .onConflict((oc) => oc.columns(['terminal_id', 'alarm_key']).doNothing())
        .execute();
    const body = encodeUploadRequest({ host, tcpPort: this.opts.port, udpPort: 0, identification, alarmNumber }, standard);
    sender.sendRaw(ATTACHMENT_MSG.uploadRequest, body);
    this.opts.log.debug({ terminalId: identity.terminalId, alarmKey, alarmNumber }, 'attachment upload requested (0x9208)');
  }
}

export async function findRequest(db: Kysely<DB>, alarmNumber: string): Promise<RequestRow | undefined> {
  const row = await db
    .selectFrom('attachment_request')
    .select(['id', 'alarm_number', 'terminal_id', 'vehicle_id', 'alarm_key', 'standard', 'attachments'])
    .where('alarm_number', '=', alarmNumber)
    .executeTakeFirst();
  return row
    ? {
        id: String(row.id),
        alarmNumber: row.alarm_number,
        terminalId: row.terminal_id,
        vehicleId: row.vehicle_id,
        alarmKey: row.alarm_key,
        standard: row.standard as SafetyStandard, // the table's CHECK holds it to the two standards
        attachments: row.attachments,
      }
    : undefined;
}
