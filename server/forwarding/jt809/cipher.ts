/**
 * The standard's simple encryption of a message body: a linear congruential key stream seeded by
 * the header's ENCRYPT_KEY, `key = IA1 * (key % M1) + IC1` (unsigned 32-bit), each byte xored
 * with bits 20..27 of the key. Applying it twice gives the body back.
 */

import { Jt809EncodeError } from './errors';

/** The three constants both platforms agree on. */
export interface Jt809Cipher {
  m1: number;
  ia1: number;
  ic1: number;
}

const isU32 = (v: number) => Number.isInteger(v) && v >= 0 && v <= 0xffffffff;

/** Throws when a constant is no unsigned 32-bit integer or M1 is 0 (the key stream divides by it). */
export function checkCipher(c: Jt809Cipher): void {
  if (!isU32(c.m1) || !isU32(c.ia1) || !isU32(c.ic1) || c.m1 === 0)
    throw new Jt809EncodeError(`cipher constants must be unsigned 32-bit integers, M1 not 0: ${JSON.stringify(c)}`);
}

/** A copy of `data` en- or decrypted with `key` (a key of 0 starts as 1, as the standard says). */
export function xcrypt(data: Uint8Array, key: number, c: Jt809Cipher): Buffer {
  checkCipher(c);
  const out = Buffer.from(data);
  let k = key >>> 0 || 1;
  for (let i = 0; i < out.length; i++) {
    k = (Math.imul(c.ia1, k % c.m1) + c.ic1) >>> 0;
    out[i] ^= (k >>> 20) & 0xff;
  }
  return out;
}
