/** 0x0704 batch / blind-area location upload: count WORD, type BYTE, {len WORD, 0x0200 body}*count. */

import { ByteWriter, hex, u16 } from '../bytes';
import { Jt808DecodeError } from '../errors';
import { needBytes } from './context';
import { decodeLocation, writeLocation, type LocationBody, type LocationEncodeOptions, type LocationInput } from './location';

export interface BatchLocationBody {
  /** Count announced by the device. */
  count: number;
  /** 0 normal batch, 1 blind-area re-upload. */
  type: number;
  blindArea: boolean;
  /** Every item that parsed (SmallChi keeps the parsable ones when a length is wrong). */
  items: LocationBody[];
  /** Hex from the first item that could not be parsed. */
  malformed?: string;
}

export function decodeBatchLocation(p: Buffer, start: number, end: number, tz: number): BatchLocationBody {
  needBytes('0x0704', start, end, 3);
  const count = u16(p, start);
  const type = p[start + 2];
  const items: LocationBody[] = [];
  let o = start + 3;
  let malformedAt = -1;
  while (o < end && items.length < count) {
    if (o + 2 > end) {
      malformedAt = o;
      break;
    }
    const len = u16(p, o);
    const s = o + 2;
    if (s + len > end) {
      malformedAt = o;
      break;
    }
    try {
      items.push(decodeLocation(p, s, s + len, tz));
    } catch (e) {
      if (!(e instanceof Jt808DecodeError)) throw e;
      malformedAt = o;
      break;
    }
    o = s + len;
  }
  if (malformedAt < 0 && o < end) malformedAt = o;
  const body: BatchLocationBody = { count, type, blindArea: type === 1, items };
  if (malformedAt >= 0) body.malformed = hex(p, malformedAt, end);
  return body;
}

export interface BatchLocationInput {
  /** 0 normal, 1 blind-area. */
  type: number;
  items: LocationInput[];
  /** Defaults to items.length. */
  count?: number;
}

export function encodeBatchLocation(b: BatchLocationInput, opts: LocationEncodeOptions): Buffer {
  const w = new ByteWriter(256).u16(b.count ?? b.items.length).u8(b.type);
  for (const item of b.items) {
    const at = w.reserve(2);
    const before = w.length;
    writeLocation(w, item, opts);
    w.patchU16(at, w.length - before);
  }
  return w.finish();
}
