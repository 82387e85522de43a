/** 0x0100 terminal registration and 0x8100 registration response. */

import type { Jt808Version } from '../constants';
import { ByteWriter, u16 } from '../bytes';
import { decodeGbk, decodePaddedTexts, encodeGbk } from '../gbk';
import { needBytes } from './context';

/** makerId / model / terminalId widths per protocol version. */
const FIELD_SIZES: Record<Jt808Version, readonly [number, number, number]> = {
  2011: [5, 8, 7],
  2013: [5, 20, 7],
  2019: [11, 30, 30],
};

/** Fixed part: province + city + the three fields + plate colour. */
function fixedSize(v: Jt808Version): number {
  const [a, b, c] = FIELD_SIZES[v];
  return 2 + 2 + a + b + c + 1;
}

export interface RegisterInput {
  province: number;
  city: number;
  makerId: string;
  model: string;
  terminalId: string;
  /** 0 = no plate (then `plate` usually holds the VIN). */
  plateColor: number;
  /** GBK on the wire. */
  plate: string;
}

export interface RegisterBody extends RegisterInput {
  /** Which field layout the body used. */
  layout: Jt808Version;
}

/**
 * The 2011 and 2013 headers are identical; only this body tells them apart. SmallChi treats a
 * body of at most 33 bytes as 2011; anything shorter than the 37-byte 2013 fixed part can only be
 * 2011, so we use that bound (it agrees on every length SmallChi accepts).
 */
export function registerLayout(headerVersion: Jt808Version, bodyLength: number): Jt808Version {
  if (headerVersion === 2019) return 2019;
  if (headerVersion === 2011) return 2011;
  return bodyLength < fixedSize(2013) ? 2011 : 2013;
}

export function decodeRegister(p: Buffer, start: number, end: number, version: Jt808Version): RegisterBody {
  const layout = registerLayout(version, end - start);
  needBytes('0x0100', start, end, fixedSize(layout));
  const [makerLen, modelLen, idLen] = FIELD_SIZES[layout];
  const [makerId, model, terminalId] = decodePaddedTexts(p, start + 4, [makerLen, modelLen, idLen]);
  const colorAt = start + 4 + makerLen + modelLen + idLen;
  return {
    province: u16(p, start),
    city: u16(p, start + 2),
    makerId,
    model,
    terminalId,
    plateColor: p[colorAt],
    plate: decodeGbk(p, colorAt + 1, end),
    layout,
  };
}

export function encodeRegister(body: RegisterInput, version: Jt808Version): Buffer {
  const [makerLen, modelLen, idLen] = FIELD_SIZES[version];
  return new ByteWriter(fixedSize(version) + 16)
    .u16(body.province)
    .u16(body.city)
    .fixed(encodeGbk(body.makerId), makerLen, 'makerId')
    .fixed(encodeGbk(body.model), modelLen, 'model')
    .fixed(encodeGbk(body.terminalId), idLen, 'terminalId')
    .u8(body.plateColor)
    .bytes(encodeGbk(body.plate))
    .finish();
}

/** 0 success, 1 vehicle already registered, 2 vehicle not in DB, 3 terminal already registered, 4 terminal not in DB. */
export const REGISTER_RESULT_NAMES = [
  'success',
  'vehicleAlreadyRegistered',
  'vehicleNotFound',
  'terminalAlreadyRegistered',
  'terminalNotFound',
] as const;
export type RegisterResultName = (typeof REGISTER_RESULT_NAMES)[number] | 'unknown';

export interface RegisterResponseInput {
  replySerial: number;
  result: number;
  /** Only sent when result = 0. */
  authCode?: string;
}

export interface RegisterResponseBody extends RegisterResponseInput {
  resultName: RegisterResultName;
}

export function decodeRegisterResponse(p: Buffer, start: number, end: number): RegisterResponseBody {
  needBytes('0x8100', start, end, 3);
  const result = p[start + 2];
  const body: RegisterResponseBody = {
    replySerial: u16(p, start),
    result,
    resultName: result < REGISTER_RESULT_NAMES.length ? REGISTER_RESULT_NAMES[result] : 'unknown',
  };
  if (result === 0) body.authCode = decodeGbk(p, start + 3, end);
  return body;
}

export function encodeRegisterResponse(body: RegisterResponseInput): Buffer {
  const w = new ByteWriter(16).u16(body.replySerial).u8(body.result);
  if (body.result === 0) w.bytes(encodeGbk(body.authCode ?? ''));
  return w.finish();
}
