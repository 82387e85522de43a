/**
 * Asking for subpackages again: 0x8003 (the platform asks the terminal) and 0x0005 (2019: the
 * terminal asks the platform). Body: serial WORD of the message's first package, count, package
 * ids (from 1) WORD×count. The count is a BYTE in 2013 and a WORD in 2019 (as the toggery codec
 * reads it by version).
 */

import type { Jt808Version } from '../constants';
import { ByteWriter } from '../bytes';
import { Jt808EncodeError } from '../errors';
import { BodyReader } from '../reader';

export interface RetransmitRequestBody {
  firstSerial: number;
  packageIds: number[];
}

export function decodeRetransmitRequest(p: Buffer, start: number, end: number, version: Jt808Version, what: string): RetransmitRequestBody {
  const r = new BodyReader(p, start, end, what);
  const firstSerial = r.u16('firstSerial');
  const count = version === 2019 ? r.u16('count') : r.u8('count');
  const packageIds: number[] = [];
  for (let i = 0; i < count; i++) packageIds.push(r.u16(`package id ${i + 1}`));
  r.done();
  return { firstSerial, packageIds };
}

export function encodeRetransmitRequest(b: RetransmitRequestBody, version: Jt808Version): Buffer {
  const w = new ByteWriter(4 + 2 * b.packageIds.length).u16(b.firstSerial);
  if (version === 2019) w.u16(b.packageIds.length);
  else if (b.packageIds.length > 0xff) throw new Jt808EncodeError('TOO_LONG', `${b.packageIds.length} package ids > 255`);
  else w.u8(b.packageIds.length);
  for (const id of b.packageIds) w.u16(id);
  return w.finish();
}
