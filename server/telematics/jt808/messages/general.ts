/** 0x0001 terminal general response and 0x8001 platform general response. */

import { ByteWriter, u16 } from '../bytes';
import { needBytes } from './context';

/** 0 ok, 1 fail, 2 message error, 3 unsupported; 4 (platform only) alarm-handling confirmation. */
export const GENERAL_RESULT_NAMES = ['ok', 'fail', 'messageError', 'unsupported', 'alarmConfirmed'] as const;
export type GeneralResultName = (typeof GENERAL_RESULT_NAMES)[number] | 'unknown';

export interface GeneralResponseInput {
  replySerial: number;
  replyMsgId: number;
  result: number;
}

export interface GeneralResponseBody extends GeneralResponseInput {
  resultName: GeneralResultName;
}

export function decodeGeneralResponse(p: Buffer, start: number, end: number, platform: boolean): GeneralResponseBody {
  needBytes('general response', start, end, 5);
  const result = p[start + 4];
  const max = platform ? 4 : 3;
  return {
    replySerial: u16(p, start),
    replyMsgId: u16(p, start + 2),
    result,
    resultName: result <= max ? GENERAL_RESULT_NAMES[result] : 'unknown',
  };
}

export function encodeGeneralResponse(body: GeneralResponseInput): Buffer {
  return new ByteWriter(5).u16(body.replySerial).u16(body.replyMsgId).u8(body.result).finish();
}
