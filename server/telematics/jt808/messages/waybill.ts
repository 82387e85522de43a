/**
 * 0x0701 electronic waybill report: length DWORD, then that many bytes of waybill content (text,
 * GBK, in the firmwares seen). Never throws: a length that disagrees with the bytes is kept and
 * the bytes that are there are read.
 */

import { ByteWriter, hex, u32 } from '../bytes';
import { decodeGbk, encodeGbk } from '../gbk';

export interface WaybillBody {
  /** The length field, or null when the body is too short to hold it. */
  declaredLength: number | null;
  /** The content read as GBK text (control characters kept as they are). */
  text: string;
  /** The content as sent. */
  hex: string;
}

export function decodeWaybill(p: Buffer, start: number, end: number): WaybillBody {
  if (end - start < 4) return { declaredLength: null, text: decodeGbk(p, start, end), hex: hex(p, start, end) };
  const declared = u32(p, start);
  const s = start + 4;
  // Some firmwares count the length field itself or pad: read what the declared length covers, no more than is there.
  const e = Math.min(end, s + declared);
  return { declaredLength: declared, text: decodeGbk(p, s, e), hex: hex(p, s, e) };
}

export interface WaybillInput {
  text: string;
  /** The content bytes, as hex: win over `text` (a decoded body re-encodes byte for byte). */
  hex?: string;
  /** Written instead of the content's real length (to build a sloppy frame on purpose); null or absent: the real one. */
  declaredLength?: number | null;
}

export function encodeWaybill(b: WaybillInput): Buffer {
  const content = b.hex !== undefined ? Buffer.from(b.hex, 'hex') : encodeGbk(b.text);
  return new ByteWriter(content.length + 4)
    .u32(b.declaredLength ?? content.length)
    .bytes(content)
    .finish();
}
