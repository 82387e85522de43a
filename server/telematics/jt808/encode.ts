/** Frame and message encoding: header, body-length bits, checksum, escaping, subpackages. */

import { DEFAULT_TZ_OFFSET_MINUTES, MAX_BODY_LENGTH } from './constants';
import { Jt808EncodeError } from './errors';
import { escapeFrame, xorChecksum } from './framing';
import { headerSize, writeHeader, type HeaderInput } from './header';
import { encodeBody, type Jt808BodyInput } from './messages';

export interface EncodeFrameOptions {
  /** Largest body per packet before splitting (default and maximum 1023). */
  maxPacketBody?: number;
}

const EMPTY = Buffer.alloc(0);

/** One packet, unescaped (header..checksum, no flags). */
export function encodePacket(header: HeaderInput, body: Buffer = EMPTY): Buffer {
  const size = headerSize(header.version ?? 2013, header.packet !== undefined);
  const out = Buffer.allocUnsafe(size + body.length + 1);
  const o = writeHeader(out, header, body.length);
  body.copy(out, o);
  out[o + body.length] = xorChecksum(out, 0, o + body.length);
  return out;
}

/**
 * Wire frames for a message body: one frame, or several subpackages (index from 1, serials
 * counting up from header.serial) when the body exceeds maxPacketBody.
 */
export function encodeFrames(header: HeaderInput, body: Buffer = EMPTY, opts: EncodeFrameOptions = {}): Buffer[] {
  const chunk = opts.maxPacketBody ?? MAX_BODY_LENGTH;
  if (!Number.isInteger(chunk) || chunk < 1 || chunk > MAX_BODY_LENGTH) throw new Jt808EncodeError('BAD_FIELD', `maxPacketBody ${chunk}`);
  if (header.packet || body.length <= chunk) return [escapeFrame(encodePacket(header, body))];
  const count = Math.ceil(body.length / chunk);
  if (count > 0xffff) throw new Jt808EncodeError('TOO_LONG', `${body.length} bytes need ${count} packets`);
  const frames: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const part = body.subarray(i * chunk, Math.min(body.length, (i + 1) * chunk));
    frames.push(escapeFrame(encodePacket({ ...header, serial: (header.serial + i) & 0xffff, packet: { count, index: i + 1 } }, part)));
  }
  return frames;
}

/** Like encodeFrames, as one buffer ready to write to the socket. */
export function encodeFrame(header: HeaderInput, body: Buffer = EMPTY, opts: EncodeFrameOptions = {}): Buffer {
  const frames = encodeFrames(header, body, opts);
  return frames.length === 1 ? frames[0] : Buffer.concat(frames);
}

export interface MessageHeaderInput extends Omit<HeaderInput, 'msgId'> {
  /** Device timezone for BCD times (default 480 = GMT+8). */
  tzOffsetMinutes?: number;
}

/** Encode a typed message: body encoder by msgId, then framing (and splitting if needed). */
export function encodeMessageFrames(header: MessageHeaderInput, message: Jt808BodyInput, opts: EncodeFrameOptions = {}): Buffer[] {
  const { tzOffsetMinutes, ...rest } = header;
  const body = encodeBody(message, header.version ?? 2013, tzOffsetMinutes ?? DEFAULT_TZ_OFFSET_MINUTES);
  return encodeFrames({ ...rest, msgId: message.msgId }, body, opts);
}

export function encodeMessage(header: MessageHeaderInput, message: Jt808BodyInput, opts: EncodeFrameOptions = {}): Buffer {
  const frames = encodeMessageFrames(header, message, opts);
  return frames.length === 1 ? frames[0] : Buffer.concat(frames);
}
