/** Writer helpers for the length-prefixed text, BCD and time fields of the non-hot-path messages. */

import type { ByteWriter } from '../bytes';
import { writeBcd } from '../bcd';
import { Jt808EncodeError } from '../errors';
import { encodeGbk } from '../gbk';
import { toEpochMs, writeBcdTime } from '../time';

/** GBK text after a BYTE length. */
export function putGbk8(w: ByteWriter, text: string, field: string): ByteWriter {
  const b = encodeGbk(text);
  if (b.length > 0xff) throw new Jt808EncodeError('TOO_LONG', `${field}: ${b.length} bytes > 255`);
  return w.u8(b.length).bytes(b);
}

/** GBK text after a WORD length. */
export function putGbk16(w: ByteWriter, text: string, field: string): ByteWriter {
  const b = encodeGbk(text);
  if (b.length > 0xffff) throw new Jt808EncodeError('TOO_LONG', `${field}: ${b.length} bytes > 65535`);
  return w.u16(b.length).bytes(b);
}

/** GBK text zero-padded to a fixed width. */
export function putFixedGbk(w: ByteWriter, text: string, size: number, field: string): ByteWriter {
  return w.fixed(encodeGbk(text), size, field);
}

/** BCD digits, left-padded with zeros to `size` bytes. */
export function putBcd(w: ByteWriter, digits: string, size: number): ByteWriter {
  const b = Buffer.alloc(size);
  writeBcd(b, 0, digits, size);
  return w.bytes(b);
}

/** BCD[6] time in the device timezone; null writes the zeros a terminal without a clock sends. */
export function putTime(w: ByteWriter, iso: string | null, tzOffsetMinutes: number): ByteWriter {
  const b = Buffer.alloc(6);
  writeBcdTime(b, 0, toEpochMs(iso), tzOffsetMinutes);
  return w.bytes(b);
}

/** Hex as bytes. */
export function putHex(w: ByteWriter, hexText: string, field: string): ByteWriter {
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(hexText)) throw new Jt808EncodeError('BAD_FIELD', `${field}: not hex`);
  return w.bytes(Buffer.from(hexText, 'hex'));
}
