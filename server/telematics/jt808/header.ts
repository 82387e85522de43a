/**
 * Message header, 2011/2013 and 2019 layouts.
 *
 *   2011/2013: id WORD | props WORD | phone BCD[6]  | serial WORD | [count WORD | index WORD]
 *   2019:      id WORD | props WORD | version BYTE | phone BCD[10] | serial WORD | [count | index]
 *
 * props: bits 0-9 body length, 10-12 encryption (bit 10 = RSA), 13 subpackage, 14 version flag.
 */

import * as bcd from './bcd';
import * as bytes from './bytes';
import * as constants from './constants';
import type { Jt808Version } from './constants';
import { Jt808DecodeError, Jt808EncodeError } from './errors';

// Under CommonJS transpilation (tsx, jest) every use of an imported name is a getter call;
// this hot path binds what it uses once, at load.
const { readBcdTrimmed, writeBcd } = bcd;
const { u16 } = bytes;
const {
  HEADER_2013_BYTES,
  HEADER_2019_BYTES,
  MAX_BODY_LENGTH,
  PACKET_INFO_BYTES,
  PROP_ENCRYPTION_MASK,
  PROP_ENCRYPTION_SHIFT,
  PROP_LENGTH_MASK,
  PROP_RESERVED,
  PROP_SUBPACKAGE,
  PROP_VERSION,
} = constants;

export interface PacketInfo {
  /** Total packets of the message. */
  count: number;
  /** This packet's position, starting at 1. */
  index: number;
}

export interface Jt808Header {
  msgId: number;
  /** 2019 when the 2019 layout was used; 2011 is only recognisable from a 0x0100 body (or a caller hint). */
  version: Jt808Version;
  /** Terminal phone/id, leading zeros trimmed. */
  phone: string;
  serial: number;
  packet?: PacketInfo;
  /** Raw body-properties word, for vendor bits (e.g. bit 15). */
  properties: number;
  /** Bits 10-12: 0 = plain, 1 = RSA. */
  encryption: number;
  /** 2019 protocol-version byte. */
  protocolVersion?: number;
  /**
   * Set only when the body-length field disagreed with the bytes and the packet was read
   * tolerantly (the body is then whatever lies between the header and the checksum).
   */
  declaredLength?: number;
  /** Set only when the XOR checksum did not match and the caller asked to flag, not throw. */
  checksumMismatch?: boolean;
}

export interface ParsedHeader extends Jt808Header {
  bodyOffset: number;
  bodyLength: number;
}

/**
 * Parse the header of the unescaped packet p[base, end) whose last byte is the checksum.
 * The layout is chosen by the total length (exactLayout); read tolerantly, a length that fits
 * neither is taken as the version bit says.
 */
export function parseHeader(p: Buffer, hintVersion?: Jt808Version, base = 0, end = p.length, tolerateLength = false): ParsedHeader {
  const avail = end - base - 1; // without the checksum
  if (avail < 4) throw new Jt808DecodeError('TRUNCATED', `${end - base} bytes cannot hold a header`);
  const msgId = u16(p, base);
  const props = u16(p, base + 2);
  const bodyLength = props & PROP_LENGTH_MASK;
  const sub = (props & PROP_SUBPACKAGE) !== 0;
  const extra = sub ? PACKET_INFO_BYTES : 0;

  let is2019: boolean;
  let declaredLength: number | undefined;
  const exact = exactLayout(props, avail);
  if (exact !== 0) is2019 = exact === 2019;
  else {
    const version = (props & PROP_VERSION) !== 0;
    const need = (version ? HEADER_2019_BYTES : HEADER_2013_BYTES) + extra + bodyLength;
    if (tolerateLength && avail >= need - bodyLength) [is2019, declaredLength] = [version, bodyLength];
    else if (avail < need) throw truncated(avail, need);
    else throw tooLong(avail, need);
  }

  let o = base + 4;
  let protocolVersion: number | undefined;
  let phoneBytes = 6;
  if (is2019) {
    protocolVersion = p[o++];
    phoneBytes = 10;
  }
  const phone = readBcdTrimmed(p, o, phoneBytes);
  o += phoneBytes;
  const serial = u16(p, o);
  o += 2;
  let packet: PacketInfo | undefined;
  if (sub) {
    const count = u16(p, o);
    const index = u16(p, o + 2);
    o += 4;
    if (count === 0 || index === 0 || index > count) {
      throw new Jt808DecodeError('BAD_PACKET', `packet ${index} of ${count}`);
    }
    packet = { count, index };
  }
  const header: ParsedHeader = {
    msgId,
    version: is2019 ? 2019 : hintVersion === 2011 ? 2011 : 2013,
    phone,
    serial,
    properties: props,
    encryption: (props & PROP_ENCRYPTION_MASK) >> PROP_ENCRYPTION_SHIFT,
    bodyOffset: o,
    // Read tolerantly, the body is what the bytes hold, not what the field says.
    bodyLength: declaredLength === undefined ? bodyLength : end - 1 - o,
  };
  if (declaredLength !== undefined) header.declaredLength = declaredLength;
  if (packet) header.packet = packet;
  if (protocolVersion !== undefined) header.protocolVersion = protocolVersion;
  return header;
}

/**
 * The header layout whose size plus the body-length field accounts for exactly the `avail` bytes
 * before the checksum, or 0 when none does. Bit 14 normally means 2019, but some devices set it
 * on a 2013 layout (SmallChi's JTT2013Force case): the 5-byte difference tells them apart.
 */
export function exactLayout(props: number, avail: number): 0 | 2013 | 2019 {
  const need = (props & PROP_LENGTH_MASK) + ((props & PROP_SUBPACKAGE) !== 0 ? PACKET_INFO_BYTES : 0);
  if (avail === HEADER_2013_BYTES + need) return 2013;
  if ((props & PROP_VERSION) !== 0 && avail === HEADER_2019_BYTES + need) return 2019;
  return 0;
}

function truncated(have: number, need: number): Jt808DecodeError {
  return new Jt808DecodeError('TRUNCATED', `header and body need ${need} bytes, got ${have}`);
}

function tooLong(have: number, need: number): Jt808DecodeError {
  return new Jt808DecodeError('BAD_LENGTH', `body length announces ${need} bytes, got ${have}`);
}

export interface HeaderInput {
  msgId: number;
  phone: string;
  serial: number;
  /** Default 2013. 2011 uses the same header as 2013. */
  version?: Jt808Version;
  /** 2019 protocol-version byte (default 1, as SmallChi and go-jt808). */
  protocolVersion?: number;
  /** Encryption bits 10-12 (default 0). */
  encryption?: number;
  packet?: PacketInfo;
  /** Bit 15 (reserved; Traccar reads it as "ack required" on vendor messages). */
  reservedBit?: boolean;
}

export function headerSize(version: Jt808Version, subpackaged: boolean): number {
  return (version === 2019 ? HEADER_2019_BYTES : HEADER_2013_BYTES) + (subpackaged ? PACKET_INFO_BYTES : 0);
}

/** Write the header for a body of `bodyLength` bytes into `out` at 0; returns the header size. */
export function writeHeader(out: Buffer, h: HeaderInput, bodyLength: number): number {
  if (bodyLength > MAX_BODY_LENGTH) throw new Jt808EncodeError('TOO_LONG', `body ${bodyLength} > ${MAX_BODY_LENGTH} bytes in one packet`);
  const version = h.version ?? 2013;
  const encryption = h.encryption ?? 0;
  if (!Number.isInteger(encryption) || encryption < 0 || encryption > 7)
    throw new Jt808EncodeError('BAD_FIELD', `encryption ${encryption}`);
  if (!Number.isInteger(h.msgId) || h.msgId < 0 || h.msgId > 0xffff) throw new Jt808EncodeError('BAD_FIELD', `msgId ${h.msgId}`);
  if (!Number.isInteger(h.serial) || h.serial < 0 || h.serial > 0xffff) throw new Jt808EncodeError('BAD_FIELD', `serial ${h.serial}`);
  let props = bodyLength | (encryption << PROP_ENCRYPTION_SHIFT);
  if (h.packet) props |= PROP_SUBPACKAGE;
  if (version === 2019) props |= PROP_VERSION;
  if (h.reservedBit) props |= PROP_RESERVED;
  out.writeUInt16BE(h.msgId, 0);
  out.writeUInt16BE(props, 2);
  let o = 4;
  if (version === 2019) {
    out[o++] = h.protocolVersion ?? 1;
    writeBcd(out, o, h.phone, 10);
    o += 10;
  } else {
    writeBcd(out, o, h.phone, 6);
    o += 6;
  }
  out.writeUInt16BE(h.serial, o);
  o += 2;
  if (h.packet) {
    const { count, index } = h.packet;
    if (!(count >= 1 && count <= 0xffff && index >= 1 && index <= count)) {
      throw new Jt808EncodeError('BAD_FIELD', `packet ${index} of ${count}`);
    }
    out.writeUInt16BE(count, o);
    out.writeUInt16BE(index, o + 2);
    o += 4;
  }
  return o;
}
