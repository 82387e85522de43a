import { request } from '@umijs/max';
import type { DecodeAnswer } from './jt808Format';

/** `POST /vehicle/tools/jt808/decode`: the pasted text, one frame per line, decoded by the server's codec. */
export const decodeFrames = (frames: string, tzOffsetMinutes: number, verifyChecksum: boolean) =>
  request<DecodeAnswer>('/vehicle/tools/jt808/decode', { method: 'POST', data: { frames, tzOffsetMinutes, verifyChecksum } });
