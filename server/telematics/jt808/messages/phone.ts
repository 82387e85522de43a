/**
 * 0x8400 call back: flag BYTE (0 call, 1 listen in), number STRING (to the end, at most 20 bytes).
 * 0x8401 phone book: action BYTE (0 delete all, 1 replace, 2 append, 3 modify), count BYTE,
 *        {flag BYTE (1 incoming, 2 outgoing, 3 both), (BYTE length + GBK) number, (BYTE length + GBK) name}×count
 */

import { ByteWriter } from '../bytes';
import { Jt808DecodeError, Jt808EncodeError } from '../errors';
import { encodeGbk } from '../gbk';
import { BodyReader } from '../reader';
import { putGbk8 } from './write';

export interface CallBackBody {
  flag: number;
  number: string;
}

export function decodeCallBack(p: Buffer, start: number, end: number): CallBackBody {
  const r = new BodyReader(p, start, end, '0x8400');
  const flag = r.u8('flag');
  if (r.remaining > 20) throw new Jt808DecodeError('BAD_BODY', `0x8400: number of ${r.remaining} bytes > 20`);
  return { flag, number: r.restGbk() };
}

export function encodeCallBack(b: CallBackBody): Buffer {
  const number = encodeGbk(b.number);
  if (number.length > 20) throw new Jt808EncodeError('TOO_LONG', `0x8400 number: ${number.length} bytes > 20`);
  return new ByteWriter(21).u8(b.flag).bytes(number).finish();
}

export interface PhoneBookBody {
  action: number;
  contacts: Array<{ flag: number; number: string; name: string }>;
}

export function decodePhoneBook(p: Buffer, start: number, end: number): PhoneBookBody {
  const r = new BodyReader(p, start, end, '0x8401');
  const action = r.u8('action');
  const count = action === 0 && r.remaining === 0 ? 0 : r.u8('count');
  const contacts: PhoneBookBody['contacts'] = [];
  for (let i = 0; i < count; i++) contacts.push({ flag: r.u8('flag'), number: r.gbk8('number'), name: r.gbk8('name') });
  r.done();
  return { action, contacts };
}

export function encodePhoneBook(b: PhoneBookBody): Buffer {
  if (b.contacts.length > 0xff) throw new Jt808EncodeError('TOO_LONG', `0x8401: ${b.contacts.length} contacts > 255`);
  const w = new ByteWriter(64).u8(b.action).u8(b.contacts.length);
  for (const c of b.contacts) {
    w.u8(c.flag);
    putGbk8(w, c.number, 'number');
    putGbk8(w, c.name, 'name');
  }
  return w.finish();
}
