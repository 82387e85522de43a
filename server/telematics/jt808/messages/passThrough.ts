/**
 * 0x8900 data pass-through down to the terminal: type BYTE (0x00 GNSS detail, 0x0B road-transport
 * IC card, 0x41 serial port 1, 0x42 serial port 2, 0xF0–0xFF user-defined), content. The uplink
 * 0x0900 (OBD records among it) is transparent.ts.
 * 0x0901 compressed data: length DWORD, then that many bytes of GZIP; inflated here with a bound,
 * so a small frame cannot become a large allocation.
 * 0x8A00 platform RSA public key / 0x0A00 terminal RSA public key: e DWORD, n BYTE[128].
 */

import { gunzipSync, gzipSync } from 'node:zlib';
import { ByteWriter } from '../bytes';
import { Jt808DecodeError } from '../errors';
import { BodyReader } from '../reader';
import { putHex } from './write';

/** Largest inflated 0x0901 content accepted: a reassembled message is at most 16 KiB. */
export const MAX_INFLATED_BYTES = 64 * 1024;

export interface PassThroughDownBody {
  type: number;
  contentHex: string;
}

export function decodePassThroughDown(p: Buffer, start: number, end: number): PassThroughDownBody {
  const r = new BodyReader(p, start, end, '0x8900');
  return { type: r.u8('type'), contentHex: r.restHex() };
}

export function encodePassThroughDown(b: PassThroughDownBody): Buffer {
  return putHex(new ByteWriter(16).u8(b.type), b.contentHex, 'contentHex').finish();
}

export interface CompressedBody {
  /** The GZIP bytes as sent. */
  compressedHex: string;
  /** The inflated content. */
  contentHex: string;
}

export interface CompressedInput {
  /** Written as is when given (a decoded body re-encodes byte for byte). */
  compressedHex?: string;
  contentHex: string;
}

export function decodeCompressed(p: Buffer, start: number, end: number): CompressedBody {
  const r = new BodyReader(p, start, end, '0x0901');
  const length = r.u32('length');
  const compressed = r.bytes(length, 'compressed data');
  r.done();
  let content: Buffer;
  try {
    content = gunzipSync(compressed, { maxOutputLength: MAX_INFLATED_BYTES });
  } catch (e) {
    throw new Jt808DecodeError(
      'BAD_BODY',
      `0x0901: not GZIP data within ${MAX_INFLATED_BYTES} bytes (${e instanceof Error ? e.message : String(e)})`,
    );
  }
  return { compressedHex: compressed.toString('hex'), contentHex: content.toString('hex') };
}

export function encodeCompressed(b: CompressedInput): Buffer {
  const compressed = b.compressedHex !== undefined ? Buffer.from(b.compressedHex, 'hex') : gzipSync(Buffer.from(b.contentHex, 'hex'));
  return new ByteWriter(4 + compressed.length).u32(compressed.length).bytes(compressed).finish();
}

export interface RsaKeyBody {
  e: number;
  /** The 128-byte modulus as hex. */
  nHex: string;
}

export function decodeRsaKey(p: Buffer, start: number, end: number, what: string): RsaKeyBody {
  const r = new BodyReader(p, start, end, what);
  const body = { e: r.u32('e'), nHex: r.hex(128, 'n') };
  r.done();
  return body;
}

export function encodeRsaKey(b: RsaKeyBody): Buffer {
  const n = Buffer.from(b.nHex, 'hex');
  return new ByteWriter(132).u32(b.e).fixed(n, 128, 'n').finish();
}
