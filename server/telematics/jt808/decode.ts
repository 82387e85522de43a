/** Packet / frame decoding into typed messages. */

import * as bcd from './bcd';
import * as bytes from './bytes';
import * as constants from './constants';
import type { Jt808Version } from './constants';
import { Jt808DecodeError } from './errors';
import * as framing from './framing';
import * as header from './header';
import type { Jt808Header } from './header';
import * as messages from './messages';
import type { Jt808Body } from './messages';

// Under CommonJS transpilation (tsx, jest) every use of an imported name is a getter call;
// this hot path binds what it uses once, at load.
const { readBcdTrimmed } = bcd;
const { u16 } = bytes;
const { DEFAULT_TZ_OFFSET_MINUTES, ESCAPE, FLAG, MAX_FRAME_BYTES, MIN_PACKET_BYTES, MsgId, PROP_ENCRYPTION_MASK, PROP_SUBPACKAGE } =
  constants;
const { unframeRange, xorChecksum } = framing;
const { exactLayout, parseHeader } = header;
const { decodeBody } = messages;

export interface DecodeOptions {
  /** Verify the XOR checksum (default true; Traccar skips it, SmallChi checks it). */
  verifyChecksum?: boolean;
  /** Device timezone, minutes east of UTC (default 480 = GMT+8). */
  tzOffsetMinutes?: number;
  /** The session is known to speak 2011 (its header looks like 2013). */
  assume2011?: boolean;
  /** Frame size limit, unescaped (default MAX_FRAME_BYTES). */
  maxFrameBytes?: number;
  /**
   * A checksum that does not match: 'throw' (default) raises BAD_CHECKSUM; 'flag' decodes the
   * message anyway and sets `checksumMismatch`, so the caller decides per terminal model.
   */
  onBadChecksum?: 'throw' | 'flag';
  /**
   * Read a body-length field that disagrees with the bytes as the bytes say (Traccar's way) and
   * set `declaredLength`, instead of raising BAD_LENGTH / TRUNCATED.
   */
  tolerateLength?: boolean;
}

/** Header fields every decoded message carries (the id sits beside the body). */
export type MessageMeta = Omit<Jt808Header, 'msgId'>;

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

function opaque(meta: MessageMeta, msgId: number, kind: OpaqueMessage['opaque'], p: Buffer, start: number, end: number): OpaqueMessage {
  // A copy: the caller's buffer may be reused, and fragments are kept for a while.
  return Object.assign(meta, { msgId, opaque: kind, body: Buffer.from(p.subarray(start, end)) });
}

/** 0x0100 tells the 2011 layout by its body, which the header cannot. */
function versionOf(known: Jt808Body, headerVersion: Jt808Version): Jt808Version {
  return known.msgId === MsgId.Register && known.body.layout === 2011 ? 2011 : headerVersion;
}

/**
 * Build the message for a complete body p[start, end). Also used after reassembly.
 * `meta` becomes the message (no copies: object spread costs about a microsecond here).
 */
export function buildMessage(
  msgId: number,
  meta: MessageMeta,
  p: Buffer,
  start: number,
  end: number,
  tzOffsetMinutes: number,
): DecodedMessage {
  if (meta.encryption !== 0) return opaque(meta, msgId, 'encrypted', p, start, end);
  const known = decodeBody(msgId, p, start, end, { version: meta.version, tzOffsetMinutes });
  if (known === undefined) return opaque(meta, msgId, 'unknown', p, start, end);
  meta.version = versionOf(known, meta.version);
  return Object.assign(meta, known);
}

/**
 * The strict fast path: a whole, plain, well-formed packet p[base, end) of a known message id.
 * Its message is built in one object literal, with the same fields in the same order as the
 * tolerant path gives (the fast-path test holds them equal). Returns undefined for anything it
 * does not handle (checksum off, a body length that disagrees with the bytes, a subpackage,
 * encryption, an unknown id, a size out of bounds), which decodeTolerant then decodes or refuses.
 * `knownSum` is the checksum when the caller already computed it (-1 otherwise).
 */
export function decodeWellFormed(
  p: Buffer,
  base: number,
  end: number,
  opts: DecodeOptions = {},
  knownSum = -1,
): DecodedMessage | undefined {
  const size = end - base;
  if (size < MIN_PACKET_BYTES || size > (opts.maxFrameBytes ?? MAX_FRAME_BYTES)) return undefined;
  const last = end - 1;
  if ((knownSum >= 0 ? knownSum : xorChecksum(p, base, last)) !== p[last]) return undefined;
  const properties = u16(p, base + 2);
  if ((properties & (PROP_SUBPACKAGE | PROP_ENCRYPTION_MASK)) !== 0) return undefined;
  const layout = exactLayout(properties, size - 1);
  if (layout === 0) return undefined;
  const msgId = u16(p, base);
  const is2019 = layout === 2019;
  const headerVersion: Jt808Version = is2019 ? 2019 : opts.assume2011 ? 2011 : 2013;
  const phoneAt = base + (is2019 ? 5 : 4);
  const phoneBytes = is2019 ? 10 : 6;
  const start = phoneAt + phoneBytes + 2;
  const known = decodeBody(msgId, p, start, last, {
    version: headerVersion,
    tzOffsetMinutes: opts.tzOffsetMinutes ?? DEFAULT_TZ_OFFSET_MINUTES,
  });
  if (known === undefined) return undefined;
  const version = versionOf(known, headerVersion);
  const phone = readBcdTrimmed(p, phoneAt, phoneBytes);
  const serial = u16(p, start - 2);
  // Typed by hand: msgId and body come from one variant of the union, which the literal cannot tell TypeScript.
  if (is2019)
    return {
      version,
      phone,
      serial,
      properties,
      encryption: 0,
      protocolVersion: p[base + 4],
      msgId: known.msgId,
      body: known.body,
    } as KnownMessage;
  return { version, phone, serial, properties, encryption: 0, msgId: known.msgId, body: known.body } as KnownMessage;
}

/**
 * The tolerant path: any packet p[base, end) (header..checksum), with the options' tolerance of
 * wrong checksums and body lengths, subpackage fragments, encrypted and unknown bodies. Throws only
 * Jt808DecodeError. `knownSum` is the checksum when the caller already computed it (-1 otherwise).
 */
export function decodeTolerant(p: Buffer, base: number, end: number, opts: DecodeOptions = {}, knownSum = -1): DecodedMessage {
  const size = end - base;
  const max = opts.maxFrameBytes ?? MAX_FRAME_BYTES;
  if (size > max) throw new Jt808DecodeError('TOO_LONG', `${size} bytes > ${max}`);
  if (size < MIN_PACKET_BYTES) throw new Jt808DecodeError('TRUNCATED', `${size} bytes, need at least ${MIN_PACKET_BYTES}`);
  const last = end - 1;
  let checksumMismatch = false;
  if (opts.verifyChecksum !== false) {
    const sum = knownSum >= 0 ? knownSum : xorChecksum(p, base, last);
    if (sum !== p[last]) {
      if (opts.onBadChecksum !== 'flag') {
        throw new Jt808DecodeError(
          'BAD_CHECKSUM',
          `computed 0x${sum.toString(16).padStart(2, '0')}, frame has 0x${p[last].toString(16).padStart(2, '0')}`,
        );
      }
      checksumMismatch = true;
    }
  }
  const h = parseHeader(p, opts.assume2011 ? 2011 : undefined, base, end, opts.tolerateLength === true);
  const meta: MessageMeta = {
    version: h.version,
    phone: h.phone,
    serial: h.serial,
    properties: h.properties,
    encryption: h.encryption,
  };
  if (checksumMismatch) meta.checksumMismatch = true;
  if (h.declaredLength !== undefined) meta.declaredLength = h.declaredLength;
  if (h.packet) meta.packet = h.packet;
  if (h.protocolVersion !== undefined) meta.protocolVersion = h.protocolVersion;
  const start = h.bodyOffset;
  const bodyEnd = start + h.bodyLength;
  if (h.packet && h.packet.count > 1) return opaque(meta, h.msgId, 'fragment', p, start, bodyEnd);
  return buildMessage(h.msgId, meta, p, start, bodyEnd, opts.tzOffsetMinutes ?? DEFAULT_TZ_OFFSET_MINUTES);
}

/**
 * Decode the unescaped packet p[base, end) (header..checksum): the strict fast path, and the
 * tolerant path for whatever it does not handle. Throws only Jt808DecodeError.
 * `knownSum` is the checksum when the caller already computed it (-1 otherwise).
 */
export function decodePacketRange(p: Buffer, base: number, end: number, opts: DecodeOptions = {}, knownSum = -1): DecodedMessage {
  // One checksum pass serves both paths (every frame of a model with a sloppy checksum takes both).
  const sum = knownSum >= 0 || end - base < MIN_PACKET_BYTES ? knownSum : xorChecksum(p, base, end - 1);
  return decodeWellFormed(p, base, end, opts, sum) ?? decodeTolerant(p, base, end, opts, sum);
}

/**
 * Decode one unescaped packet (header..checksum, no flags), as FrameSplitter emits them.
 * Throws only Jt808DecodeError.
 */
export function decodePacket(packet: Buffer, opts: DecodeOptions = {}): DecodedMessage {
  return decodePacketRange(packet, 0, packet.length, opts);
}

/** Decode one wire frame: escaped, normally with both 0x7e flags. Throws only Jt808DecodeError. */
export function decodeFrame(bytes: Buffer, opts: DecodeOptions = {}): DecodedMessage {
  const n = bytes.length;
  const max = opts.maxFrameBytes ?? MAX_FRAME_BYTES;
  if (n > MIN_PACKET_BYTES && n - 2 <= max && bytes[0] === FLAG && bytes[n - 1] === FLAG) {
    // Fast path: one pass checks for escapes and stray flags and computes the checksum.
    let sum = 0;
    let clean = true;
    const last = n - 2; // the checksum byte
    for (let i = 1; i <= last; i++) {
      const b = bytes[i];
      if (b === FLAG || b === ESCAPE) {
        clean = false;
        break;
      }
      sum ^= b;
    }
    if (clean) return decodePacketRange(bytes, 1, n - 1, opts, sum ^ bytes[last]);
  }
  const r = unframeRange(bytes, max);
  return decodePacketRange(r.p, r.start, r.end, opts);
}
