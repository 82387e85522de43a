/** 0x0102 terminal authentication. */

import type { Jt808Version } from '../constants';
import { ByteWriter } from '../bytes';
import { decodeGbk, decodePaddedTexts, encodeGbk } from '../gbk';
import { needBytes } from './context';

const IMEI_BYTES = 15;
const SOFTWARE_VERSION_BYTES = 20;

export interface AuthBody {
  code: string;
  /** 2019 only. */
  imei?: string;
  /** 2019 only. */
  softwareVersion?: string;
}

/** 2011/2013: the whole body is the code. 2019: codeLen BYTE, code, IMEI[15], softwareVersion[20]. */
export function decodeAuth(p: Buffer, start: number, end: number, version: Jt808Version): AuthBody {
  if (version !== 2019) return { code: decodeGbk(p, start, end) };
  needBytes('0x0102', start, end, 1);
  const codeLen = p[start];
  needBytes('0x0102', start, end, 1 + codeLen + IMEI_BYTES + SOFTWARE_VERSION_BYTES);
  const code = decodeGbk(p, start + 1, start + 1 + codeLen);
  const [imei, softwareVersion] = decodePaddedTexts(p, start + 1 + codeLen, [IMEI_BYTES, SOFTWARE_VERSION_BYTES]);
  return { code, imei, softwareVersion };
}

export function encodeAuth(body: AuthBody, version: Jt808Version): Buffer {
  const code = encodeGbk(body.code);
  if (version !== 2019) return code;
  return new ByteWriter(1 + code.length + IMEI_BYTES + SOFTWARE_VERSION_BYTES)
    .u8(code.length)
    .bytes(code)
    .fixed(Buffer.from(body.imei ?? '', 'latin1'), IMEI_BYTES, 'imei')
    .fixed(Buffer.from(body.softwareVersion ?? '', 'latin1'), SOFTWARE_VERSION_BYTES, 'softwareVersion')
    .finish();
}
