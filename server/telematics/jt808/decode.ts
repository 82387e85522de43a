/** Packet / frame decoding into typed messages. */

import { DEFAULT_TZ_OFFSET_MINUTES, MAX_FRAME_BYTES, MIN_PACKET_BYTES, MsgId, type Jt808Version } from './constants';
import { Jt808DecodeError } from './errors';
import { unframe, xorChecksum } from './framing';
import { parseHeader, type PacketInfo } from './header';
import { decodeBody, type Jt808Body } from './messages';

export interface DecodeOptions {
  /** Verify the XOR checksum (default true; Traccar skips it, SmallChi checks it). */
  verifyChecksum?: boolean;
  /** Device timezone, minutes east of UTC (default 480 = GMT+8). */
  tzOffsetMinutes?: number;
  /** The session is known to speak 2011 (its header looks like 2013). */
  assume2011?: boolean;
  /** Frame size limit, unescaped (default MAX_FRAME_BYTES). */
  maxFrameBytes?: number;
}

/** Header fields every decoded message carries. */
export interface MessageMeta {
  version: Jt808Version;
  /** Terminal phone/id, leading zeros trimmed. */
  phone: string;
  serial: number;
  packet?: PacketInfo;
  /** Raw body-properties word. */
  properties: number;
  /** Encryption bits 10-12 (0 = none). */
  encryption: number;
  /** 2019 protocol-version byte. */
  protocolVersion?: number;
}

/** A message this codec understands; narrow on msgId for the precise body type. */
export type KnownMessage = Jt808Body & MessageMeta & { opaque?: undefined };

/** A message whose body stays bytes: unknown id, one fragment of a subpackaged message, or encrypted. */
export interface OpaqueMessage extends MessageMeta {
  msgId: number;
  opaque: 'unknown' | 'fragment' | 'encrypted';
  body: Buffer;
}

export type DecodedMessage = KnownMessage | OpaqueMessage;

export function isKnown(m: DecodedMessage): m is KnownMessage {
  return m.opaque === undefined;
}

/** Build the message for a complete body [start, end) of `p`. Also used after reassembly. */
export function buildMessage(
  msgId: number,
  meta: MessageMeta,
  p: Buffer,
  start: number,
  end: number,
  tzOffsetMinutes: number,
): DecodedMessage {
  if (meta.encryption !== 0) {
    return { ...meta, msgId, opaque: 'encrypted', body: Buffer.from(p.subarray(start, end)) };
  }
  const known = decodeBody(msgId, p, start, end, { version: meta.version, tzOffsetMinutes });
  if (known === undefined) return { ...meta, msgId, opaque: 'unknown', body: Buffer.from(p.subarray(start, end)) };
  if (known.msgId === MsgId.Register && known.body.layout === 2011) meta.version = 2011;
  return { ...meta, ...known };
}

/**
 * Decode one unescaped packet (header..checksum, no flags), as FrameSplitter emits them.
 * Throws only Jt808DecodeError.
 */
export function decodePacket(packet: Buffer, opts: DecodeOptions = {}): DecodedMessage {
  const max = opts.maxFrameBytes ?? MAX_FRAME_BYTES;
  if (packet.length > max) throw new Jt808DecodeError('TOO_LONG', `${packet.length} bytes > ${max}`);
  if (packet.length < MIN_PACKET_BYTES) throw new Jt808DecodeError('TRUNCATED', `${packet.length} bytes, need at least ${MIN_PACKET_BYTES}`);
  const last = packet.length - 1;
  if (opts.verifyChecksum !== false) {
    const sum = xorChecksum(packet, 0, last);
    if (sum !== packet[last]) {
      throw new Jt808DecodeError('BAD_CHECKSUM', `computed 0x${sum.toString(16).padStart(2, '0')}, frame has 0x${packet[last].toString(16).padStart(2, '0')}`);
    }
  }
  const h = parseHeader(packet, opts.assume2011 ? 2011 : undefined);
  const meta: MessageMeta = {
    version: h.version,
    phone: h.phone,
    serial: h.serial,
    properties: h.properties,
    encryption: h.encryption,
  };
  if (h.packet) meta.packet = h.packet;
  if (h.protocolVersion !== undefined) meta.protocolVersion = h.protocolVersion;
  const start = h.bodyOffset;
  const end = start + h.bodyLength;
  if (h.packet && h.packet.count > 1) {
    return { ...meta, msgId: h.msgId, opaque: 'fragment', body: Buffer.from(packet.subarray(start, end)) };
  }
  return buildMessage(h.msgId, meta, packet, start, end, opts.tzOffsetMinutes ?? DEFAULT_TZ_OFFSET_MINUTES);
}

/**
 * Decode one wire frame: escaped, normally with both 0x7e flags. Throws only Jt808DecodeError.
 */
export function decodeFrame(bytes: Buffer, opts: DecodeOptions = {}): DecodedMessage {
  return decodePacket(unframe(bytes, opts.maxFrameBytes ?? MAX_FRAME_BYTES), opts);
}
