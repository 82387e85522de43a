/**
 * Framing: 0x7e delimiters, 0x7d escaping, XOR checksum, and a streaming splitter.
 *
 * On the wire: 7E | escaped(header body checksum) | 7E, with 7E -> 7D 02 and 7D -> 7D 01.
 * The checksum is the XOR of the unescaped bytes from the message id to the end of the body.
 */

import * as constants from './constants';
import { Jt808DecodeError, type Jt808ErrorCode } from './errors';

// Under CommonJS transpilation (tsx, jest) every use of an imported name is a getter call;
// this hot path binds what it uses once, at load.
const { ESCAPE, FLAG, MAX_FRAME_BYTES, MIN_PACKET_BYTES } = constants;

/** XOR of buf[start..end). */
export function xorChecksum(buf: Uint8Array, start = 0, end = buf.length): number {
  let x = 0;
  for (let i = start; i < end; i++) x ^= buf[i];
  return x;
}

/** Escape an unescaped packet (header..checksum) and add both flags. */
export function escapeFrame(packet: Uint8Array): Buffer {
  let specials = 0;
  for (let i = 0; i < packet.length; i++) {
    const b = packet[i];
    if (b === FLAG || b === ESCAPE) specials++;
  }
  const out = Buffer.allocUnsafe(packet.length + specials + 2);
  let o = 0;
  out[o++] = FLAG;
  for (let i = 0; i < packet.length; i++) {
    const b = packet[i];
    if (b === FLAG) {
      out[o++] = ESCAPE;
      out[o++] = 0x02;
    } else if (b === ESCAPE) {
      out[o++] = ESCAPE;
      out[o++] = 0x01;
    } else {
      out[o++] = b;
    }
  }
  out[o] = FLAG;
  return out;
}

/**
 * Unescape wire bytes [start, end) that contain no 0x7e. Returns a view of `src` when there is
 * nothing to unescape (the common case), else one new buffer.
 */
export function unescapeBytes(src: Buffer, start: number, end: number): Buffer {
  const first = src.indexOf(ESCAPE, start);
  if (first < 0 || first >= end) return src.subarray(start, end);
  const out = Buffer.allocUnsafe(end - start);
  src.copy(out, 0, start, first);
  let o = first - start;
  for (let i = first; i < end; i++) {
    const b = src[i];
    if (b !== ESCAPE) {
      out[o++] = b;
      continue;
    }
    const next = i + 1 < end ? src[i + 1] : -1;
    if (next === 0x01) out[o++] = ESCAPE;
    else if (next === 0x02) out[o++] = FLAG;
    else
      throw new Jt808DecodeError(
        'BAD_ESCAPE',
        `0x7d followed by ${next < 0 ? 'end of frame' : `0x${next.toString(16).padStart(2, '0')}`} at ${i}`,
      );
    i++;
  }
  return out.subarray(0, o);
}

/** Where the packet of a wire frame lies: p[start, end) is unescaped header..checksum. */
export interface PacketRange {
  p: Buffer;
  start: number;
  end: number;
}

/**
 * Turn one wire frame (escaped, normally with both 0x7e flags) into its unescaped packet
 * (header..checksum). Frames without flags are accepted too (e.g. pasted from a log).
 */
export function unframe(frame: Buffer, maxFrameBytes = MAX_FRAME_BYTES): Buffer {
  const r = unframeRange(frame, maxFrameBytes);
  return r.start === 0 && r.end === r.p.length ? r.p : r.p.subarray(r.start, r.end);
}

/** unframe without creating a view when nothing needs unescaping (the decode hot path). */
export function unframeRange(frame: Buffer, maxFrameBytes = MAX_FRAME_BYTES): PacketRange {
  let start = 0;
  let end = frame.length;
  const opens = end > 0 && frame[0] === FLAG;
  const closes = end > 1 && frame[end - 1] === FLAG;
  if (opens && closes) {
    start = 1;
    end -= 1;
  } else if (opens) {
    throw new Jt808DecodeError('TRUNCATED', 'no closing 0x7e');
  } else if (closes) {
    throw new Jt808DecodeError('BAD_FLAG', 'no opening 0x7e');
  }
  // Escaping at most doubles the size: reject obviously oversized input before any work.
  if (end - start > maxFrameBytes * 2) throw new Jt808DecodeError('TOO_LONG', `${end - start} wire bytes`);
  const stray = frame.indexOf(FLAG, start);
  if (stray >= 0 && stray < end) throw new Jt808DecodeError('BAD_FLAG', `0x7e inside the frame at ${stray}`);
  const esc = frame.indexOf(ESCAPE, start);
  if (esc < 0 || esc >= end) {
    if (end - start > maxFrameBytes) throw new Jt808DecodeError('TOO_LONG', `${end - start} bytes > ${maxFrameBytes}`);
    return { p: frame, start, end };
  }
  const packet = unescapeBytes(frame, start, end);
  if (packet.length > maxFrameBytes) throw new Jt808DecodeError('TOO_LONG', `${packet.length} bytes > ${maxFrameBytes}`);
  return { p: packet, start: 0, end: packet.length };
}

export interface FrameSplitterOptions {
  /** Largest unescaped frame kept; longer ones are dropped (default MAX_FRAME_BYTES). */
  maxFrameBytes?: number;
  /** Shorter delimited chunks are dropped as runts (default 13: header + checksum). */
  minPacketBytes?: number;
  /** Called for every dropped frame, with the reason and how many bytes were lost. */
  onDrop?: (code: Jt808ErrorCode, bytes: number) => void;
}

export interface FrameSplitterStats {
  frames: number;
  /** Bytes before the first 0x7e. */
  junkBytes: number;
  oversized: number;
  badEscape: number;
  /** Delimited chunks too short to hold a header and checksum. */
  runts: number;
}

const INITIAL_CAPACITY = 256;
/**
 * After a frame larger than this, go back to a small buffer so idle connections stay cheap. Above the
 * 1,023 bytes a terminal's packages carry at most, so a media upload does not grow and shrink it per package.
 */
const SHRINK_ABOVE = 2048;

/**
 * Streaming splitter for one TCP connection: push raw chunks, get complete unescaped packets
 * (header..checksum, flags removed), each in its own buffer. Memory per connection never
 * exceeds maxFrameBytes; anything malformed is dropped and counted, never thrown.
 *
 * Every 0x7e ends the current frame and opens the next, which handles both separate flags
 * (7E..7E 7E..7E) and shared ones (7E..7E..7E).
 */
export class FrameSplitter {
  readonly stats: FrameSplitterStats = { frames: 0, junkBytes: 0, oversized: 0, badEscape: 0, runts: 0 };
  private readonly max: number;
  private readonly min: number;
  private readonly onDrop?: (code: Jt808ErrorCode, bytes: number) => void;
  private buf: Buffer;
  private len = 0;
  private inFrame = false;
  private escPending = false;
  /** Set while skipping the rest of a bad frame up to the next flag. */
  private discard: Jt808ErrorCode | undefined;
  private discarded = 0;

  constructor(options: FrameSplitterOptions = {}) {
    this.max = options.maxFrameBytes ?? MAX_FRAME_BYTES;
    this.min = Math.max(1, options.minPacketBytes ?? MIN_PACKET_BYTES);
    this.buf = Buffer.allocUnsafe(Math.min(INITIAL_CAPACITY, this.max));
    this.onDrop = options.onDrop;
  }

  /** Bytes of the frame in progress. */
  get bufferedBytes(): number {
    return this.len;
  }

  /** Bytes allocated for the frame in progress (bounded by maxFrameBytes). */
  get capacity(): number {
    return this.buf.length;
  }

  reset(): void {
    this.len = 0;
    this.inFrame = false;
    this.escPending = false;
    this.discard = undefined;
    this.discarded = 0;
    if (this.buf.length > SHRINK_ABOVE) this.buf = Buffer.allocUnsafe(Math.min(INITIAL_CAPACITY, this.max));
  }

  push(chunk: Uint8Array): Buffer[] {
    const src = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const out: Buffer[] = [];
    const n = src.length;
    let i = 0;
    while (i < n) {
      const flag = src.indexOf(FLAG, i);
      if (!this.inFrame) {
        if (flag < 0) {
          this.stats.junkBytes += n - i;
          break;
        }
        this.stats.junkBytes += flag - i;
        this.inFrame = true;
        this.startFrame();
        i = flag + 1;
        continue;
      }
      const segEnd = flag < 0 ? n : flag;
      this.append(src, i, segEnd);
      if (flag < 0) break;
      this.endFrame(out);
      i = flag + 1;
    }
    return out;
  }

  private startFrame(): void {
    this.len = 0;
    this.escPending = false;
    this.discard = undefined;
    this.discarded = 0;
  }

  private endFrame(out: Buffer[]): void {
    if (this.discard === undefined && this.escPending) this.drop('BAD_ESCAPE', this.len + 1);
    if (this.discard !== undefined) {
      this.report(this.discard, this.discarded);
    } else if (this.len === 0) {
      // Back-to-back flags: the second one opens the next frame.
    } else if (this.len < this.min) {
      this.stats.runts++;
      this.onDrop?.('TRUNCATED', this.len);
    } else {
      const packet = Buffer.allocUnsafe(this.len);
      this.buf.copy(packet, 0, 0, this.len);
      out.push(packet);
      this.stats.frames++;
      if (this.buf.length > SHRINK_ABOVE) this.buf = Buffer.allocUnsafe(Math.min(INITIAL_CAPACITY, this.max));
    }
    this.startFrame();
  }

  private drop(code: Jt808ErrorCode, bytesSoFar: number): void {
    this.discard = code;
    this.discarded = bytesSoFar;
    this.len = 0;
    this.escPending = false;
  }

  private report(code: Jt808ErrorCode, bytes: number): void {
    if (code === 'TOO_LONG') this.stats.oversized++;
    else if (code === 'BAD_ESCAPE') this.stats.badEscape++;
    this.onDrop?.(code, bytes);
  }

  /** Ensure room for `need` bytes; false when that would exceed the frame limit. */
  private reserve(need: number): boolean {
    if (need > this.max) return false;
    if (need <= this.buf.length) return true;
    let size = this.buf.length * 2;
    while (size < need) size *= 2;
    const next = Buffer.allocUnsafe(Math.min(size, this.max));
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
    return true;
  }

  /** Append wire bytes [s, e) (no 0x7e among them), unescaping on the way. */
  private append(src: Buffer, s: number, e: number): void {
    if (this.discard !== undefined) {
      this.discarded += e - s;
      return;
    }
    if (s >= e) return;
    // Unescaped output is never longer than the input, so reserving e - s is enough.
    if (!this.reserve(this.len + (e - s))) {
      // Count what is certain to be lost; the rest of the frame is skipped up to the next flag.
      this.drop('TOO_LONG', this.len + (e - s));
      return;
    }
    if (this.escPending) {
      const b = src[s];
      if (b === 0x01) this.buf[this.len++] = ESCAPE;
      else if (b === 0x02) this.buf[this.len++] = FLAG;
      else {
        this.drop('BAD_ESCAPE', this.len + (e - s));
        return;
      }
      this.escPending = false;
      s++;
    }
    const esc = src.indexOf(ESCAPE, s);
    if (esc < 0 || esc >= e) {
      src.copy(this.buf, this.len, s, e);
      this.len += e - s;
      return;
    }
    const buf = this.buf;
    let len = this.len;
    for (let i = s; i < e; i++) {
      const b = src[i];
      if (b !== ESCAPE) {
        buf[len++] = b;
        continue;
      }
      if (i + 1 === e) {
        // The escaped byte is in the next chunk (or is a flag, which endFrame reports).
        this.escPending = true;
        break;
      }
      const next = src[++i];
      if (next === 0x01) buf[len++] = ESCAPE;
      else if (next === 0x02) buf[len++] = FLAG;
      else {
        this.drop('BAD_ESCAPE', len + (e - i));
        return;
      }
    }
    this.len = len;
  }
}
