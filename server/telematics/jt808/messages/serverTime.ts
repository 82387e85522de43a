/** 0x0004 query server time (2019, empty body) and 0x8004 its answer: UTC time BCD[6] YYMMDDhhmmss. */

import { ByteWriter } from '../bytes';
import { BodyReader } from '../reader';
import { putTime } from './write';

export interface ServerTimeBody {
  /** ISO UTC; null when the bytes are no valid time. */
  time: string | null;
}

export function decodeServerTime(p: Buffer, start: number, end: number): ServerTimeBody {
  const r = new BodyReader(p, start, end, '0x8004');
  const body = { time: r.time('time', 0) };
  r.done();
  return body;
}

export function encodeServerTime(b: ServerTimeBody): Buffer {
  return putTime(new ByteWriter(6), b.time, 0).finish();
}
