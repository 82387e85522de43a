/** A bounds-checked reader of a 809 body: a read past the end raises BAD_BODY naming the field. */

import { decodePaddedText } from '../../telematics/jt808/gbk';
import { Jt809DecodeError } from './errors';

export class Reader {
  private o = 0;

  constructor(
    private readonly p: Buffer,
    private readonly what: string,
  ) {}

  get remaining(): number {
    return this.p.length - this.o;
  }

  private take(n: number, field: string): number {
    if (n < 0 || this.o + n > this.p.length)
      throw new Jt809DecodeError('BAD_BODY', `${this.what}: ${field} needs ${n} bytes, ${this.p.length - this.o} left`);
    const at = this.o;
    this.o += n;
    return at;
  }

  u8(field: string): number {
    return this.p[this.take(1, field)];
  }

  u16(field: string): number {
    return this.p.readUInt16BE(this.take(2, field));
  }

  u32(field: string): number {
    return this.p.readUInt32BE(this.take(4, field));
  }

  /** An unsigned 64-bit count (UTC seconds); above 2^53 cannot be a time and is refused. */
  u64(field: string): number {
    const v = this.p.readBigUInt64BE(this.take(8, field));
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new Jt809DecodeError('BAD_BODY', `${this.what}: ${field} ${v} out of range`);
    return Number(v);
  }

  bytes(n: number, field: string): Buffer {
    const at = this.take(n, field);
    return Buffer.from(this.p.subarray(at, at + n));
  }

  /** A zero-padded GBK text of a fixed width. */
  text(n: number, field: string): string {
    const at = this.take(n, field);
    return decodePaddedText(this.p, at, at + n);
  }

  /** Nothing may follow the last field. */
  end(): void {
    if (this.remaining) throw new Jt809DecodeError('BAD_BODY', `${this.what}: ${this.remaining} bytes after the last field`);
  }
}
