/** Packed BCD helpers (phone numbers, timestamps). */

import { Jt808EncodeError } from './errors';

/** Value 0..99 of a BCD byte, or -1 when a nibble is above 9. */
export const BCD_VALUE: Int8Array = (() => {
  const t = new Int8Array(256).fill(-1);
  for (let hi = 0; hi < 10; hi++) for (let lo = 0; lo < 10; lo++) t[(hi << 4) | lo] = hi * 10 + lo;
  return t;
})();

const HEX2: readonly string[] = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/**
 * BCD phone/terminal id with leading zeros dropped (SmallChi: 012345678900 -> 12345678900; an
 * all-zero id stays "0"). Packed BCD digits are the hex digits of the bytes, so a non-decimal
 * nibble shows up as a-f instead of failing (Traccar meets such ids and keeps them). Built
 * straight from the bytes: the gateway does this for every frame.
 */
export function readBcdTrimmed(buf: Buffer, start: number, length: number): string {
  const end = start + length;
  let i = start;
  while (i < end - 1 && buf[i] === 0) i++;
  const first = buf[i];
  let s = first < 0x10 ? HEX2[first][1] : HEX2[first];
  for (i++; i < end; i++) s += HEX2[buf[i]];
  return s;
}

const HEX_DIGITS = /^[0-9a-fA-F]*$/;

/** Write `digits` left-padded with zeros into `length` BCD bytes. */
export function writeBcd(buf: Buffer, offset: number, digits: string, length: number): void {
  if (!HEX_DIGITS.test(digits)) throw new Jt808EncodeError('BAD_FIELD', `not BCD digits: ${JSON.stringify(digits)}`);
  if (digits.length > length * 2) {
    throw new Jt808EncodeError('TOO_LONG', `${digits.length} digits do not fit BCD[${length}]`);
  }
  buf.write(digits.padStart(length * 2, '0'), offset, length, 'hex');
}

/** One byte 0..99 as BCD. */
export function toBcdByte(value: number): number {
  return (((value / 10) | 0) << 4) | (value % 10);
}
