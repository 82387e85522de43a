/** 0x8300 text message: flag BYTE, [2019: textType BYTE], text (GBK). */

import type { Jt808Version } from '../constants';
import { ByteWriter } from '../bytes';
import { decodeGbk, encodeGbk } from '../gbk';
import { needBytes } from './context';

/** Flag bits as SmallChi's analyzer names them. */
export interface TextFlags {
  /** 2013: bit 0. 2019: bits 0-1 equal 2. */
  emergency: boolean;
  /** Bit 2. */
  display: boolean;
  /** Bit 3. */
  tts: boolean;
  /** 2013: bit 4 advertising screen. */
  adScreen?: boolean;
  /** 2013: bit 5, 0 = navigation info, 1 = CAN fault info. */
  info?: 'navigation' | 'canFault';
  /** 2019: bits 0-1, 1 service / 2 emergency / 3 notice. */
  kind?: 'service' | 'emergency' | 'notice' | 'none';
}

export interface TextMessageBody {
  flag: number;
  flags: TextFlags;
  /** 2019 only. */
  textType?: number;
  text: string;
}

const KINDS_2019 = ['none', 'service', 'emergency', 'notice'] as const;

export function decodeTextFlags(flag: number, version: Jt808Version): TextFlags {
  if (version === 2019) {
    const kind = KINDS_2019[flag & 3];
    return { emergency: kind === 'emergency', display: (flag & 4) !== 0, tts: (flag & 8) !== 0, kind };
  }
  return {
    emergency: (flag & 1) !== 0,
    display: (flag & 4) !== 0,
    tts: (flag & 8) !== 0,
    adScreen: (flag & 16) !== 0,
    info: flag & 32 ? 'canFault' : 'navigation',
  };
}

export function decodeText(p: Buffer, start: number, end: number, version: Jt808Version): TextMessageBody {
  const head = version === 2019 ? 2 : 1;
  needBytes('0x8300', start, end, head);
  const flag = p[start];
  const body: TextMessageBody = { flag, flags: decodeTextFlags(flag, version), text: decodeGbk(p, start + head, end) };
  if (version === 2019) body.textType = p[start + 1];
  return body;
}

export interface TextMessageInput {
  flag: number;
  /** 2019 only (default 1). */
  textType?: number;
  text: string;
}

export function encodeText(b: TextMessageInput, version: Jt808Version): Buffer {
  const w = new ByteWriter(32).u8(b.flag);
  if (version === 2019) w.u8(b.textType ?? 1);
  return w.bytes(encodeGbk(b.text)).finish();
}
