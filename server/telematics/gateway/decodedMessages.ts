/**
 * Terminal messages of the 2019 set that the gateway decodes and keeps in terminal_message (kind
 * 'decoded', the body as JSON beside its bytes) until a feature of its own uses them, and the
 * shaping of that JSON. A body of one of these ids that does not decode is kept raw as 'malformed'
 * with the reason, and answered "message error".
 */

import { encodeBody, MsgId, toJsonValue, type Jt808BodyInput, type JsonValue, type KnownMessage } from '../jt808/codec';

/** Uplink ids kept decoded (terminal answers, reports and events without a table of their own). */
export const KEPT_DECODED: ReadonlySet<number> = new Set<number>([
  MsgId.TerminalRetransmitRequest,
  MsgId.AttributesResponse,
  MsgId.UpgradeResult,
  MsgId.EventReport,
  MsgId.QuestionAnswer,
  MsgId.InfoDemand,
  MsgId.VehicleControlResponse,
  MsgId.AreasResponse,
  MsgId.RecorderData,
  MsgId.CanData,
  MsgId.MediaEvent,
  MsgId.MediaData,
  MsgId.MediaSearchResponse,
  MsgId.TakePhotoResponse,
  MsgId.Compressed,
  MsgId.TerminalRsaKey,
  MsgId.VideoAttributes,
  MsgId.PassengerCounts,
  MsgId.ResourceList,
  MsgId.FtpUploadDone,
]);

/** JSON of a body with its byte payloads (media, packages) given as their size, not repeated as hex. */
function withoutPayloads(v: unknown): JsonValue {
  if (Buffer.isBuffer(v)) return { bytes: v.length };
  if (Array.isArray(v)) return v.map(withoutPayloads);
  if (v !== null && typeof v === 'object') {
    const out: { [key: string]: JsonValue } = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = withoutPayloads(x);
    return out;
  }
  return toJsonValue(v);
}

export function describeBody(m: KnownMessage): string {
  return JSON.stringify(withoutPayloads(m.body));
}

/**
 * The body's bytes, written again from the decoded body (every decoder here re-encodes byte for
 * byte: tests/server/telematics/jt808/messageSet.test.ts); '' if an encoder refuses it.
 */
export function bodyBytesHex(m: KnownMessage, tzOffsetMinutes: number): string {
  try {
    // A decoded message is an encoder input of the same id (the registry's contract).
    return encodeBody(m as Jt808BodyInput, m.version, tzOffsetMinutes).toString('hex');
  } catch {
    return '';
  }
}
