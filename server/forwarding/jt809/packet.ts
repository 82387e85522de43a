/**
 * A whole 809 packet: header, body (encrypted when the header says so) and CRC, framed.
 *
 * Header: MSG_LENGTH u32 (the whole message, flags included, before escaping), MSG_SN u32,
 * MSG_ID u16, MSG_GNSSCENTERID u32 (the lower platform's access code), VERSION_FLAG 3 bytes,
 * ENCRYPT_FLAG u8, ENCRYPT_KEY u32, and in the 2019 edition TIME u64 (UTC seconds). The CRC covers
 * header and body as sent (after encryption), before escaping.
 */

import { CRC_BYTES, HEADER_BYTES, MAX_FRAME_BYTES, type Jt809Edition } from './constants';
import { crcCcitt } from './crc';
import { xcrypt, type Jt809Cipher } from './cipher';
import { Jt809DecodeError, Jt809EncodeError } from './errors';
import { escapeFrame, unescapeFrame } from './framing';

export interface Jt809Header {
  /** MSG_LENGTH as received (encoding computes it). */
  length: number;
  sn: number;
  msgId: number;
  /** MSG_GNSSCENTERID: the lower platform's access code. */
  accessCode: number;
  version: readonly [number, number, number];
  encrypted: boolean;
  key: number;
  /** UTC seconds (2019); null in a 2011 header. */
  time: number | null;
}

export interface Jt809Packet {
  header: Jt809Header;
  /** The body, decrypted. */
  body: Buffer;
}

export interface PacketOptions {
  edition: Jt809Edition;
  /** M1/IA1/IC1: needed to read an encrypted body, and to encrypt one. */
  cipher?: Jt809Cipher;
}

export interface HeaderInput {
  sn: number;
  msgId: number;
  accessCode: number;
  version?: readonly [number, number, number];
  /** Encrypts the body with this key (needs `cipher`); absent: plain. */
  key?: number;
  /** UTC seconds for the 2019 header; now when absent. */
  time?: number;
}

const DEFAULT_VERSION = [1, 0, 0] as const;

/** The wire frame of a message. */
export function encodePacket(h: HeaderInput, body: Buffer, opts: PacketOptions): Buffer {
  const headerBytes = HEADER_BYTES[opts.edition];
  const total = 1 + headerBytes + body.length + CRC_BYTES + 1;
  if (total > MAX_FRAME_BYTES) throw new Jt809EncodeError(`a message of ${total} bytes is above ${MAX_FRAME_BYTES}`);
  const encrypt = h.key !== undefined;
  if (encrypt && !opts.cipher) throw new Jt809EncodeError('an encrypted message needs the cipher constants');
  const p = Buffer.alloc(headerBytes + body.length + CRC_BYTES);
  p.writeUInt32BE(total, 0);
  p.writeUInt32BE(h.sn >>> 0, 4);
  p.writeUInt16BE(h.msgId, 8);
  p.writeUInt32BE(h.accessCode >>> 0, 10);
  const [a, b, c] = h.version ?? DEFAULT_VERSION;
  p[14] = a;
  p[15] = b;
  p[16] = c;
  p[17] = encrypt ? 1 : 0;
  p.writeUInt32BE((h.key ?? 0) >>> 0, 18);
  if (opts.edition === 2019) p.writeBigUInt64BE(BigInt(h.time ?? Math.floor(Date.now() / 1000)), 22);
  (encrypt && opts.cipher ? xcrypt(body, h.key ?? 0, opts.cipher) : body).copy(p, headerBytes);
  p.writeUInt16BE(crcCcitt(p, 0, p.length - CRC_BYTES), p.length - CRC_BYTES);
  return escapeFrame(p);
}

/** Reads a wire frame: flags, escapes, length, CRC, then the header and the (decrypted) body. */
export function decodePacket(frame: Uint8Array, opts: PacketOptions): Jt809Packet {
  const p = unescapeFrame(frame);
  const headerBytes = HEADER_BYTES[opts.edition];
  if (p.length < headerBytes + CRC_BYTES)
    throw new Jt809DecodeError('TRUNCATED', `${p.length} bytes, a header and a CRC need ${headerBytes + CRC_BYTES}`);
  const length = p.readUInt32BE(0);
  if (length !== p.length + 2) throw new Jt809DecodeError('BAD_LENGTH', `MSG_LENGTH ${length}, ${p.length + 2} bytes received`);
  const crc = p.readUInt16BE(p.length - CRC_BYTES);
  const want = crcCcitt(p, 0, p.length - CRC_BYTES);
  if (crc !== want) throw new Jt809DecodeError('BAD_CRC', `CRC 0x${crc.toString(16)}, computed 0x${want.toString(16)}`);
  const encrypted = p[17] === 1;
  const key = p.readUInt32BE(18);
  const raw = p.subarray(headerBytes, p.length - CRC_BYTES);
  if (encrypted && !opts.cipher) throw new Jt809DecodeError('NO_KEY', 'the body is encrypted and no M1/IA1/IC1 is configured');
  const body = encrypted && opts.cipher ? xcrypt(raw, key, opts.cipher) : Buffer.from(raw);
  const header: Jt809Header = {
    length,
    sn: p.readUInt32BE(4),
    msgId: p.readUInt16BE(8),
    accessCode: p.readUInt32BE(10),
    version: [p[14], p[15], p[16]],
    encrypted,
    key,
    time: opts.edition === 2019 ? Number(p.readBigUInt64BE(22)) : null,
  };
  return { header, body };
}
