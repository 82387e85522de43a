/**
 * GBK text (plates, text messages). Decoding uses Node's TextDecoder('gbk') (full ICU,
 * WHATWG gb18030 decoder). Node has no GBK encoder, so the simulator's encoder is a table
 * built once, lazily, by decoding every GBK double-byte code (~24k codes, ~20 ms).
 */

import { TextDecoder } from 'node:util';

let decoder: TextDecoder | undefined;
let encodeTable: Map<number, number> | undefined;

function gbkDecoder(): TextDecoder {
  decoder ??= new TextDecoder('gbk');
  return decoder;
}

/** Decode bytes [start, end) as GBK; ASCII-only input takes a copy-free fast path. */
export function decodeGbk(buf: Buffer, start = 0, end = buf.length): string {
  for (let i = start; i < end; i++) {
    if (buf[i] >= 0x80) return gbkDecoder().decode(buf.subarray(start, end));
  }
  return buf.toString('latin1', start, end);
}

function table(): Map<number, number> {
  if (encodeTable) return encodeTable;
  const d = gbkDecoder();
  const map = new Map<number, number>();
  const pair = new Uint8Array(2);
  for (let lead = 0x81; lead <= 0xfe; lead++) {
    for (let trail = 0x40; trail <= 0xfe; trail++) {
      if (trail === 0x7f) continue;
      pair[0] = lead;
      pair[1] = trail;
      const s = d.decode(pair);
      const cp = s.codePointAt(0);
      // Keep only codes that decode to exactly one character; the first code wins.
      if (cp === undefined || cp === 0xfffd || s.length !== (cp > 0xffff ? 2 : 1)) continue;
      if (!map.has(cp)) map.set(cp, (lead << 8) | trail);
    }
  }
  encodeTable = map;
  return map;
}

/** Encode text as GBK; characters outside GBK become '?'. */
export function encodeGbk(text: string): Buffer {
  let ascii = true;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return Buffer.from(text, 'latin1');
  const map = table();
  const out: number[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0x3f;
    if (cp < 0x80) {
      out.push(cp);
      continue;
    }
    const code = map.get(cp);
    if (code === undefined) out.push(0x3f);
    else out.push(code >> 8, code & 0xff);
  }
  return Buffer.from(out);
}

/** Fixed-width text field: decode and drop NUL padding on both sides (devices pad either way). */
export function decodePaddedText(buf: Buffer, start: number, end: number): string {
  while (end > start && buf[end - 1] === 0) end--;
  while (start < end && buf[start] === 0) start++;
  return decodeGbk(buf, start, end);
}

/** Consecutive zero-padded text fields of the given widths from `start`. */
export function decodePaddedTexts(buf: Buffer, start: number, widths: readonly number[]): string[] {
  let o = start;
  return widths.map((w) => decodePaddedText(buf, o, (o += w)));
}
