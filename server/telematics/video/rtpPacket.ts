/**
 * JT/T 1078-2016 media packets (the standard's table 19), as terminals send them over TCP to the
 * media server:
 *   0  DWORD   frame header 0x30 0x31 0x63 0x64 ("01cd")
 *   4  BYTE    V (2 bits, = 2), P (1), X (1), CC (4 bits, = 1): 0x81
 *   5  BYTE    M (1 bit: last packet of a frame), PT (7 bits: the coding, table 12; 98 H.264)
 *   6  WORD    packet sequence number (wraps at 65536)
 *   8  BCD[6]  SIM number
 *   14 BYTE    logical channel
 *   15 BYTE    data type (high 4 bits: 0 I frame, 1 P frame, 2 B frame, 3 audio, 4 pass-through)
 *              and subpackage (low 4 bits: 0 atomic, 1 first, 2 last, 3 middle)
 *   16 BYTE[8] timestamp, ms (absent for pass-through data)
 *   24 WORD    interval since the last I frame, ms (video only)
 *   26 WORD    interval since the last frame, ms (video only)
 *   .. WORD    body length (at most 950)
 *   .. BYTE[n] body
 */

import { readBcdTrimmed, writeBcd } from '../jt808/bcd';

export const RTP_MAGIC = 0x30316364;
export const RTP_VERSION_BYTE = 0x81;
export const MAX_RTP_BODY = 950;
/** Header bytes before the body of a video, an audio and a pass-through packet. */
export const HEADER_BYTES = { video: 30, audio: 26, passThrough: 18 } as const;

export const DataType = { iFrame: 0, pFrame: 1, bFrame: 2, audio: 3, passThrough: 4 } as const;
export type DataTypeCode = (typeof DataType)[keyof typeof DataType];
export const Subpackage = { atomic: 0, first: 1, last: 2, middle: 3 } as const;
export type SubpackageCode = (typeof Subpackage)[keyof typeof Subpackage];

export interface MediaPacket {
  marker: boolean;
  payloadType: number;
  seq: number;
  /** The SIM number as the 808 session names the terminal: BCD digits without leading zeros. */
  sim: string;
  channel: number;
  dataType: DataTypeCode;
  subpackage: SubpackageCode;
  /** ms; 0 for pass-through data. */
  timestamp: number;
  lastIFrameIntervalMs: number;
  lastFrameIntervalMs: number;
  body: Buffer;
}

export function isVideo(t: DataTypeCode): boolean {
  return t <= DataType.bFrame;
}

/** Why a packet is refused; `fatal` reasons leave the byte stream unreadable, so the connection ends. */
export interface RtpRefusal {
  reason: string;
  fatal: boolean;
}

/**
 * Splits a TCP byte stream into media packets. A packet whose fields are out of range is refused
 * and skipped (its length is known); a stream that does not start with the frame header, names
 * an unknown data type (which decides the header's length) or announces a body above 950 bytes
 * cannot be followed and is refused as fatal.
 */
export class RtpStreamReader {
  private buf: Buffer = Buffer.alloc(0);

  /** Append bytes; returns the whole packets and refusals they complete, in order. */
  push(chunk: Buffer): Array<MediaPacket | RtpRefusal> {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const out: Array<MediaPacket | RtpRefusal> = [];
    let o = 0;
    for (;;) {
      const r = readPacket(this.buf, o);
      if (r === null) break;
      if ('fatal' in r) {
        out.push(r);
        this.buf = Buffer.alloc(0);
        return out;
      }
      out.push(r.item);
      o = r.next;
    }
    this.buf = o === this.buf.length ? Buffer.alloc(0) : Buffer.from(this.buf.subarray(o));
    return out;
  }

  /** Bytes held for a packet not whole yet. */
  get pending(): number {
    return this.buf.length;
  }
}

type ReadResult = { item: MediaPacket | RtpRefusal; next: number } | FatalRefusal | null;
type FatalRefusal = RtpRefusal & { fatal: true };

function refuse(reason: string): FatalRefusal {
  return { reason, fatal: true };
}

/** One packet at o: null when more bytes are needed. */
function readPacket(p: Buffer, o: number): ReadResult {
  if (p.length - o < 16) {
    // Check the magic as soon as it is there, so garbage is refused at once.
    if (p.length - o >= 4 && p.readUInt32BE(o) !== RTP_MAGIC)
      return refuse(`no frame header 30316364 (got ${p.toString('hex', o, o + 4)})`);
    return null;
  }
  if (p.readUInt32BE(o) !== RTP_MAGIC) return refuse(`no frame header 30316364 (got ${p.toString('hex', o, o + 4)})`);
  const typeByte = p[o + 15];
  const dataType = typeByte >> 4;
  // The data type decides where the length is: an unknown one leaves the stream unreadable.
  if (dataType > DataType.passThrough) return refuse(`unknown data type ${dataType}`);
  const header =
    dataType <= DataType.bFrame ? HEADER_BYTES.video : dataType === DataType.audio ? HEADER_BYTES.audio : HEADER_BYTES.passThrough;
  if (p.length - o < header) return null;
  const length = p.readUInt16BE(o + header - 2);
  if (length > MAX_RTP_BODY) return refuse(`body length ${length} above ${MAX_RTP_BODY}`);
  const next = o + header + length;
  if (p.length < next) return null;
  const subpackage = typeByte & 0x0f;
  let problem: string | null = null;
  if (p[o + 4] >> 6 !== 2) problem = `RTP version ${p[o + 4] >> 6}, not 2`;
  else if (subpackage > Subpackage.middle) problem = `unknown subpackage flag ${subpackage}`;
  else if (p[o + 14] === 0) problem = 'logical channel 0';
  else if (length === 0) problem = 'empty body';
  if (problem !== null) return { item: { reason: problem, fatal: false }, next };
  const hasTime = dataType !== DataType.passThrough;
  const video = dataType <= DataType.bFrame;
  return {
    item: {
      marker: (p[o + 5] & 0x80) !== 0,
      payloadType: p[o + 5] & 0x7f,
      seq: p.readUInt16BE(o + 6),
      sim: readBcdTrimmed(p, o + 8, 6),
      channel: p[o + 14],
      dataType: dataType as DataTypeCode,
      subpackage: subpackage as SubpackageCode,
      timestamp: hasTime ? Number(p.readBigUInt64BE(o + 16)) : 0,
      lastIFrameIntervalMs: video ? p.readUInt16BE(o + 24) : 0,
      lastFrameIntervalMs: video ? p.readUInt16BE(o + 26) : 0,
      body: Buffer.from(p.subarray(o + header, next)),
    },
    next,
  };
}

/** The packet's bytes (for terminals: the simulator, tests). */
export function encodeRtpPacket(m: MediaPacket): Buffer {
  const video = isVideo(m.dataType);
  const header = video ? HEADER_BYTES.video : m.dataType === DataType.audio ? HEADER_BYTES.audio : HEADER_BYTES.passThrough;
  const out = Buffer.alloc(header + m.body.length);
  out.writeUInt32BE(RTP_MAGIC, 0);
  out[4] = RTP_VERSION_BYTE;
  out[5] = (m.marker ? 0x80 : 0) | (m.payloadType & 0x7f);
  out.writeUInt16BE(m.seq & 0xffff, 6);
  writeBcd(out, 8, m.sim, 6);
  out[14] = m.channel;
  out[15] = (m.dataType << 4) | m.subpackage;
  if (m.dataType !== DataType.passThrough) out.writeBigUInt64BE(BigInt(m.timestamp), 16);
  if (video) {
    out.writeUInt16BE(m.lastIFrameIntervalMs, 24);
    out.writeUInt16BE(m.lastFrameIntervalMs, 26);
  }
  out.writeUInt16BE(m.body.length, header - 2);
  m.body.copy(out, header);
  return out;
}

/**
 * A frame cut into packets of at most 950 body bytes: atomic when it fits one, else first, middle…,
 * last; the marker on the last. `seq` is the first packet's number.
 */
export function packetsOfFrame(
  frame: Buffer,
  base: Omit<MediaPacket, 'body' | 'subpackage' | 'marker' | 'seq'>,
  seq: number,
  maxBody = MAX_RTP_BODY,
): MediaPacket[] {
  const n = Math.max(1, Math.ceil(frame.length / maxBody));
  const out: MediaPacket[] = [];
  for (let i = 0; i < n; i++) {
    const subpackage = n === 1 ? Subpackage.atomic : i === 0 ? Subpackage.first : i === n - 1 ? Subpackage.last : Subpackage.middle;
    out.push({ ...base, seq: (seq + i) & 0xffff, subpackage, marker: i === n - 1, body: frame.subarray(i * maxBody, (i + 1) * maxBody) });
  }
  return out;
}
