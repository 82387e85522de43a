import type { Jt808Version } from '../constants';
import { Jt808DecodeError } from '../errors';

/** What body decoders need to know beyond the bytes. */
export interface BodyContext {
  version: Jt808Version;
  /** Device timezone offset from UTC in minutes (GMT+8 = 480). */
  tzOffsetMinutes: number;
}

export function needBytes(msg: string, start: number, end: number, need: number): void {
  if (end - start < need) throw new Jt808DecodeError('BAD_BODY', `${msg}: body has ${end - start} bytes, needs ${need}`);
}
