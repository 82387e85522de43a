/**
 * Terminal parameters: 0x8103 set (count BYTE, {id DWORD, len BYTE, value}*count), 0x8104 query
 * all (empty body), 0x8106 query chosen ids (count BYTE, id DWORD*count) and the terminal's answer
 * to either, 0x0104 (replySerial WORD, then the same list as 0x8103).
 */

import { ByteWriter, hex, u16, u32, uintN } from '../bytes';
import { Jt808DecodeError, Jt808EncodeError } from '../errors';
import { decodeGbk, encodeGbk } from '../gbk';
import { needBytes } from './context';

/** Parameter ids named in the reference (SmallChi). */
export const PARAM = {
  heartbeatInterval: 0x0001, // s
  tcpAckTimeout: 0x0002, // s
  tcpRetries: 0x0003,
  apn: 0x0010,
  mainServer: 0x0013,
  backupServer: 0x0017,
  tcpPort: 0x0018, // reserved in 2019
  reportStrategy: 0x0020,
  sleepReportInterval: 0x0027, // s
  defaultReportInterval: 0x0029, // s
  maxSpeed: 0x0055, // km/h
  overspeedDuration: 0x0056, // s
  odometer: 0x0080, // 1/10 km
  province: 0x0081,
  city: 0x0082,
  plate: 0x0083,
  plateColor: 0x0084,
} as const;

/** Ids whose value is text (GBK); other values are read by width. */
const STRING_PARAMS: ReadonlySet<number> = new Set([PARAM.apn, PARAM.mainServer, PARAM.backupServer, PARAM.plate]);

export type TerminalParam =
  | { id: number; type: 'u8' | 'u16' | 'u32'; value: number }
  | { id: number; type: 'string'; value: string }
  | { id: number; type: 'bytes'; value: string /* hex */ };

export interface SetParamsBody {
  params: TerminalParam[];
}

export interface QueryParamsBody {
  /** The parameter ids asked for (0x8106). */
  ids: number[];
}

export interface ParamsResponseBody {
  /** Serial of the 0x8104 / 0x8106 this answers. */
  replySerial: number;
  params: TerminalParam[];
}

/** The count-prefixed parameter list shared by 0x8103 and 0x0104, from `start` to exactly `end`. */
function decodeParamList(what: string, p: Buffer, start: number, end: number): TerminalParam[] {
  needBytes(what, start, end, 1);
  const count = p[start];
  const params: TerminalParam[] = [];
  let o = start + 1;
  for (let i = 0; i < count; i++) {
    if (o + 5 > end) throw new Jt808DecodeError('BAD_BODY', `${what}: parameter ${i + 1} of ${count} truncated`);
    const id = u32(p, o);
    const len = p[o + 4];
    const s = o + 5;
    const e = s + len;
    if (e > end) throw new Jt808DecodeError('BAD_BODY', `${what}: parameter 0x${id.toString(16)} overruns the body`);
    if (STRING_PARAMS.has(id)) params.push({ id, type: 'string', value: decodeGbk(p, s, e) });
    else if (len === 1) params.push({ id, type: 'u8', value: p[s] });
    else if (len === 2) params.push({ id, type: 'u16', value: uintN(p, s, 2) });
    else if (len === 4) params.push({ id, type: 'u32', value: u32(p, s) });
    else params.push({ id, type: 'bytes', value: hex(p, s, e) });
    o = e;
  }
  if (o !== end) throw new Jt808DecodeError('BAD_BODY', `${what}: ${end - o} bytes after ${count} parameters`);
  return params;
}

export function decodeSetParams(p: Buffer, start: number, end: number): SetParamsBody {
  return { params: decodeParamList('0x8103', p, start, end) };
}

export function decodeQueryParams(p: Buffer, start: number, end: number): QueryParamsBody {
  needBytes('0x8106', start, end, 1);
  const count = p[start];
  if (end - start !== 1 + 4 * count) throw new Jt808DecodeError('BAD_BODY', `0x8106: ${end - start - 1} bytes for ${count} parameter ids`);
  const ids: number[] = [];
  for (let i = 0; i < count; i++) ids.push(u32(p, start + 1 + 4 * i));
  return { ids };
}

export function encodeQueryParams(b: QueryParamsBody): Buffer {
  if (b.ids.length > 255) throw new Jt808EncodeError('TOO_LONG', `${b.ids.length} parameter ids`);
  const w = new ByteWriter(1 + 4 * b.ids.length).u8(b.ids.length);
  for (const id of b.ids) w.u32(id);
  return w.finish();
}

export function decodeParamsResponse(p: Buffer, start: number, end: number): ParamsResponseBody {
  needBytes('0x0104', start, end, 3);
  return { replySerial: u16(p, start), params: decodeParamList('0x0104', p, start + 2, end) };
}

export function encodeParamsResponse(b: ParamsResponseBody): Buffer {
  return Buffer.concat([new ByteWriter(2).u16(b.replySerial).finish(), encodeSetParams({ params: b.params })]);
}

export function encodeSetParams(b: SetParamsBody): Buffer {
  if (b.params.length > 255) throw new Jt808EncodeError('TOO_LONG', `${b.params.length} parameters`);
  const w = new ByteWriter(64).u8(b.params.length);
  for (const param of b.params) {
    w.u32(param.id);
    let value: Buffer;
    switch (param.type) {
      case 'u8':
        value = new ByteWriter(1).u8(param.value).finish();
        break;
      case 'u16':
        value = new ByteWriter(2).u16(param.value).finish();
        break;
      case 'u32':
        value = new ByteWriter(4).u32(param.value).finish();
        break;
      case 'string':
        value = encodeGbk(param.value);
        break;
      case 'bytes':
        value = Buffer.from(param.value, 'hex');
        break;
    }
    if (value.length > 255) throw new Jt808EncodeError('TOO_LONG', `parameter 0x${param.id.toString(16)}: ${value.length} bytes`);
    w.u8(value.length).bytes(value);
  }
  return w.finish();
}
