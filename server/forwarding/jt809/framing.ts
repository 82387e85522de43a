/**
 * Framing: 0x5b head, 0x5d end, and the escaping between them (0x5b -> 5a 01, 0x5a -> 5a 02,
 * 0x5d -> 5e 01, 0x5e -> 5e 02), so neither flag appears inside a frame. A streaming splitter cuts
 * a TCP byte stream into wire frames.
 */

import { END_FLAG, ESCAPE_END, ESCAPE_HEAD, HEAD_FLAG, MAX_FRAME_BYTES } from './constants';
import { Jt809DecodeError } from './errors';

/** The escaped form of `packet` (header, body, CRC) between a head and an end flag. */
export function escapeFrame(packet: Uint8Array): Buffer {
  const out: number[] = [HEAD_FLAG];
  for (const b of packet) {
    if (b === HEAD_FLAG) out.push(ESCAPE_HEAD, 0x01);
    else if (b === ESCAPE_HEAD) out.push(ESCAPE_HEAD, 0x02);
    else if (b === END_FLAG) out.push(ESCAPE_END, 0x01);
    else if (b === ESCAPE_END) out.push(ESCAPE_END, 0x02);
    else out.push(b);
  }
  out.push(END_FLAG);
  return Buffer.from(out);
}

/** The packet inside a wire frame (flags removed, escapes resolved). */
export function unescapeFrame(frame: Uint8Array): Buffer {
  if (frame.length < 2 || frame[0] !== HEAD_FLAG || frame[frame.length - 1] !== END_FLAG)
    throw new Jt809DecodeError('BAD_FLAG', 'a frame starts with 0x5b and ends with 0x5d');
  const out = Buffer.allocUnsafe(frame.length - 2);
  let o = 0;
  for (let i = 1; i < frame.length - 1; i++) {
    const b = frame[i];
    if (b === HEAD_FLAG || b === END_FLAG) throw new Jt809DecodeError('BAD_FLAG', `flag 0x${b.toString(16)} inside a frame at ${i}`);
    if (b !== ESCAPE_HEAD && b !== ESCAPE_END) {
      out[o++] = b;
      continue;
    }
    const next = frame[i + 1];
    if (i + 1 >= frame.length - 1 || (next !== 0x01 && next !== 0x02))
      throw new Jt809DecodeError('BAD_ESCAPE', `0x${b.toString(16)} not followed by 0x01 or 0x02 at ${i}`);
    out[o++] = b === ESCAPE_HEAD ? (next === 0x01 ? HEAD_FLAG : ESCAPE_HEAD) : next === 0x01 ? END_FLAG : ESCAPE_END;
    i++;
  }
  return out.subarray(0, o);
}

/**
 * Cuts a byte stream into wire frames: bytes before a head flag are dropped (counted in
 * `skipped`), a frame ends at the first end flag, a head flag inside an unfinished frame starts
 * over (the broken part is skipped), and a frame that grows past `maxBytes` is dropped (counted in
 * `tooLong`, its bytes up to the next head flag skipped).
 */
export class FrameSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  skipped = 0;
  tooLong = 0;

  constructor(private readonly maxBytes = MAX_FRAME_BYTES * 2) {}

  push(chunk: Buffer): Buffer[] {
    const frames: Buffer[] = [];
    let i = 0;
    while (i < chunk.length) {
      if (!this.size) {
        const head = chunk.indexOf(HEAD_FLAG, i);
        if (head < 0) {
          this.skipped += chunk.length - i;
          break;
        }
        this.skipped += head - i;
        this.take(chunk, head, head + 1);
        i = head + 1;
        continue;
      }
      const end = chunk.indexOf(END_FLAG, i);
      const head = chunk.indexOf(HEAD_FLAG, i);
      if (head >= 0 && (end < 0 || head < end)) {
        this.skipped += this.size + head - i;
        this.reset();
        i = head;
        continue;
      }
      const stop = end < 0 ? chunk.length : end + 1;
      const kept = this.take(chunk, i, stop);
      i = stop;
      if (kept && end >= 0) {
        frames.push(Buffer.concat(this.parts));
        this.reset();
      }
    }
    return frames;
  }

  /** Adds bytes to the frame being collected; false when that made it too long (and dropped it). */
  private take(chunk: Buffer, from: number, to: number): boolean {
    this.parts.push(chunk.subarray(from, to));
    this.size += to - from;
    if (this.size <= this.maxBytes) return true;
    this.skipped += this.size;
    this.tooLong++;
    this.reset();
    return false;
  }

  private reset(): void {
    this.parts = [];
    this.size = 0;
  }
}
