/** Small byte helpers: big-endian reads without bounds-check overhead, a growable writer, hex. */

import { Jt808EncodeError } from './errors';

export function u16(b: Buffer, i: number): number {
  return (b[i] << 8) | b[i + 1];
}

export function u32(b: Buffer, i: number): number {
  return b[i] * 0x1000000 + ((b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]);
}

export function i16(b: Buffer, i: number): number {
  return (((b[i] << 8) | b[i + 1]) << 16) >> 16;
}

/** Unsigned integer of 1..4 bytes (vendor items whose width follows their length byte). */
export function uintN(b: Buffer, i: number, n: number): number {
  let v = 0;
  for (let k = 0; k < n; k++) v = v * 256 + b[i + k];
  return v;
}

export function hex(b: Buffer, start: number, end: number): string {
  return b.toString('hex', start, end);
}

/** Growable big-endian writer for encoders (encoding is not on the hot path). */
export class ByteWriter {
  private buf: Buffer;
  private len = 0;

  constructor(initial = 64) {
    this.buf = Buffer.allocUnsafe(initial);
  }

  get length(): number {
    return this.len;
  }

  private ensure(extra: number): void {
    const need = this.len + extra;
    if (need <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < need) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }

  /** Appends `n` bytes, written by `write` at the current end once the buffer has room. */
  private put(n: number, write: (buf: Buffer, at: number) => void): this {
    this.ensure(n);
    write(this.buf, this.len);
    this.len += n;
    return this;
  }

  u8(v: number): this {
    checkUint(v, 0xff);
    return this.put(1, (buf, at) => (buf[at] = v));
  }

  u16(v: number): this {
    checkUint(v, 0xffff);
    return this.put(2, (buf, at) => buf.writeUInt16BE(v, at));
  }

  i16(v: number): this {
    if (!Number.isInteger(v) || v < -0x8000 || v > 0x7fff) throw new Jt808EncodeError('BAD_FIELD', `not an int16: ${v}`);
    return this.put(2, (buf, at) => buf.writeInt16BE(v, at));
  }

  u32(v: number): this {
    checkUint(v, 0xffffffff);
    return this.put(4, (buf, at) => buf.writeUInt32BE(v, at));
  }

  uintN(v: number, n: number): this {
    checkUint(v, 2 ** (8 * n) - 1);
    return this.put(n, (buf, at) => {
      for (let k = n - 1; k >= 0; k--) {
        buf[at + k] = v % 256;
        v = Math.floor(v / 256);
      }
    });
  }

  bytes(b: Uint8Array): this {
    return this.put(b.length, (buf, at) => buf.set(b, at));
  }

  /** `b` right-padded with zeros to exactly `size` bytes. */
  fixed(b: Uint8Array, size: number, field: string): this {
    if (b.length > size) throw new Jt808EncodeError('TOO_LONG', `${field}: ${b.length} bytes > ${size}`);
    return this.put(size, (buf, at) => {
      buf.set(b, at);
      buf.fill(0, at + b.length, at + size);
    });
  }

  /** Reserve `n` bytes, returning their offset so a length can be patched in later. */
  reserve(n: number): number {
    this.ensure(n);
    const at = this.len;
    this.buf.fill(0, at, at + n);
    this.len += n;
    return at;
  }

  patchU8(at: number, v: number): void {
    checkUint(v, 0xff);
    this.buf[at] = v;
  }

  patchU16(at: number, v: number): void {
    checkUint(v, 0xffff);
    this.buf.writeUInt16BE(v, at);
  }

  finish(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.len));
  }
}

function checkUint(v: number, max: number): void {
  if (!Number.isInteger(v) || v < 0 || v > max) throw new Jt808EncodeError('BAD_FIELD', `value ${v} not in 0..${max}`);
}
