/** 0x0002 heartbeat, 0x0003 logout, 0x8201 location query: bodies that are (normally) empty. */

import { ByteWriter, hex } from '../bytes';

/** Traccar: some devices append 3 bytes to the heartbeat: battery %, RSSI, status. */
export interface HeartbeatExtra {
  batteryPct: number;
  rssi: number;
  status: number;
}

export interface HeartbeatBody {
  extra?: HeartbeatExtra;
  /** Any other unexpected trailing bytes. */
  extraHex?: string;
}

export interface EmptyBody {
  /** Unexpected bytes in a body that should be empty (tolerated, kept). */
  extraHex?: string;
}

export function decodeHeartbeat(p: Buffer, start: number, end: number): HeartbeatBody {
  const n = end - start;
  if (n === 0) return {};
  if (n === 3) return { extra: { batteryPct: p[start], rssi: p[start + 1], status: p[start + 2] } };
  return { extraHex: hex(p, start, end) };
}

export function encodeHeartbeat(body: HeartbeatBody = {}): Buffer {
  if (body.extra) return new ByteWriter(3).u8(body.extra.batteryPct).u8(body.extra.rssi).u8(body.extra.status).finish();
  if (body.extraHex) return Buffer.from(body.extraHex, 'hex');
  return Buffer.alloc(0);
}

export function decodeEmpty(p: Buffer, start: number, end: number): EmptyBody {
  return end > start ? { extraHex: hex(p, start, end) } : {};
}

export function encodeEmpty(body: EmptyBody = {}): Buffer {
  return body.extraHex ? Buffer.from(body.extraHex, 'hex') : Buffer.alloc(0);
}
