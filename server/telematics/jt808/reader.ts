/**
 * A bounds-checked body reader for the messages off the hot path (everything but 0x0200 and its
 * relatives): each read past the body's end raises BAD_BODY naming the message and the field, so a
 * decoder is a list of reads and a short body never yields half a message.
 */

import { readBcdTrimmed } from './bcd';
import { hex, u16, u32 } from './bytes';
import { Jt808DecodeError } from './errors';
import { decodeGbk } from './gbk';
import { isoFromEpochMs, readBcdTime } from './time';

export class BodyReader {
  private o: number;

  constructor(
    private readonly p: Buffer,
    start: number,
    private readonly end: number,
    private readonly what: string,
  ) {
    this.o = start;
  }

  get offset(): number {
    return this.o;
  }

  get remaining(): number {
    return this.end - this.o;
  }

  private take(n: number, field: string): number {
    if (n < 0 || this.o + n > this.end) {
      throw new Jt808DecodeError('BAD_BODY', `${this.what}: ${field} needs ${n} bytes, ${this.end - this.o} left`);
    }
    const at = this.o;
    this.o += n;
    return at;
  }

  u8(field: string): number {
    return this.p[this.take(1, field)];
  }

  u16(field: string): number {
    return u16(this.p, this.take(2, field));
  }

  u32(field: string): number {
    return u32(this.p, this.take(4, field));
  }

  i32(field: string): number {
    return this.p.readInt32BE(this.take(4, field));
  }

  /** Bytes as hex. */
  hex(n: number, field: string): string {
    const at = this.take(n, field);
    return hex(this.p, at, at + n);
  }

  /** A copy of the next n bytes. */
  bytes(n: number, field: string): Buffer {
    const at = this.take(n, field);
    return Buffer.from(this.p.subarray(at, at + n));
  }

  /** BCD digits as sent (leading zeros kept). */
  bcd(n: number, field: string): string {
    return this.hex(n, field);
  }

  /** BCD phone-style number with leading zeros dropped. */
  bcdTrimmed(n: number, field: string): string {
    return readBcdTrimmed(this.p, this.take(n, field), n);
  }

  /** BCD[6] YYMMDDhhmmss in the device timezone as ISO UTC, or null when it is no valid time. */
  time(field: string, tzOffsetMinutes: number): string | null {
    const ms = readBcdTime(this.p, this.take(6, field), tzOffsetMinutes);
    return ms === ms ? isoFromEpochMs(ms) : null;
  }

  /** n bytes of GBK text, trailing NULs (fixed-width padding) dropped. */
  gbk(n: number, field: string): string {
    const at = this.take(n, field);
    let e = at + n;
    while (e > at && this.p[e - 1] === 0) e--;
    return decodeGbk(this.p, at, e);
  }

  /** GBK text after a BYTE length. */
  gbk8(field: string): string {
    return this.gbk(this.u8(`${field} length`), field);
  }

  /** GBK text after a WORD length. */
  gbk16(field: string): string {
    return this.gbk(this.u16(`${field} length`), field);
  }

  /** Everything left, as hex. */
  restHex(): string {
    return this.hex(this.end - this.o, 'rest');
  }

  /** Everything left, as a copy. */
  restBytes(): Buffer {
    return this.bytes(this.end - this.o, 'rest');
  }

  /** Everything left as GBK text. */
  restGbk(): string {
    return this.gbk(this.end - this.o, 'rest');
  }

  /** The body must end here: extra bytes mean a layout we do not know. */
  done(): void {
    if (this.o !== this.end) throw new Jt808DecodeError('BAD_BODY', `${this.what}: ${this.end - this.o} bytes after the last field`);
  }
}
