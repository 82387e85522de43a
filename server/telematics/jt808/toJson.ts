/**
 * JSON shaping of decoded messages, shared by the CLI and (later) the server's console page:
 * msgId as "0x0200", buffers as hex, location time as ISO 8601 UTC.
 */

import { MsgId } from './constants';
import type { DecodedMessage } from './decode';
import { Jt808DecodeError } from './errors';
import type { LocationBody } from './messages';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface JsonMessage {
  msgId: string;
  version: number;
  phone: string;
  serial: number;
  packet?: { count: number; index: number };
  /** Present for bodies kept as bytes: 'unknown' | 'fragment' | 'encrypted'. */
  opaque?: string;
  body: JsonValue;
  [key: string]: JsonValue | undefined;
}

export function formatMsgId(id: number): string {
  return `0x${id.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Plain JSON of any decoded value: Buffers become hex, undefined fields are dropped. */
export function toJsonValue(v: unknown): JsonValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (Buffer.isBuffer(v)) return v.toString('hex');
  if (Array.isArray(v)) return v.map(toJsonValue);
  if (typeof v === 'object') {
    const out: { [key: string]: JsonValue } = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = toJsonValue(x);
    return out;
  }
  return String(v);
}

/** Location in the console's shape: speed km/h, time ISO UTC, extras by name (epoch ms dropped). */
export function locationToJson(b: LocationBody): JsonValue {
  return {
    alarm: toJsonValue(b.alarm),
    status: toJsonValue(b.status),
    latitude: b.latitude,
    longitude: b.longitude,
    altitude: b.altitude,
    speed: b.speed,
    direction: b.direction,
    time: b.time,
    extras: toJsonValue(b.extras),
  };
}

function bodyToJson(m: DecodedMessage): JsonValue {
  if (m.opaque !== undefined) return { hex: m.body.toString('hex') };
  switch (m.msgId) {
    case MsgId.Location:
      return locationToJson(m.body);
    case MsgId.LocationQueryResponse:
      return { replySerial: m.body.replySerial, location: locationToJson(m.body.location) };
    case MsgId.BatchLocation: {
      const { items, ...rest } = m.body;
      return { ...(toJsonValue(rest) as { [key: string]: JsonValue }), items: items.map(locationToJson) };
    }
    default:
      return toJsonValue(m.body);
  }
}

export function messageToJson(m: DecodedMessage): JsonMessage {
  const out: JsonMessage = { msgId: formatMsgId(m.msgId), version: m.version, phone: m.phone, serial: m.serial, body: null };
  if (m.packet) out.packet = { count: m.packet.count, index: m.packet.index };
  if (m.protocolVersion !== undefined) out.protocolVersion = m.protocolVersion;
  if (m.encryption !== 0) out.encryption = m.encryption;
  if (m.opaque !== undefined) out.opaque = m.opaque;
  out.body = bodyToJson(m);
  return out;
}

export function errorToJson(e: unknown): { error: string; code?: string } {
  if (e instanceof Jt808DecodeError) return { error: e.message, code: e.code };
  return { error: e instanceof Error ? e.message : String(e) };
}
