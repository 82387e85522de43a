/** 0x8105 terminal control: command BYTE, optional parameter text (';'-separated, GBK). */

import { ByteWriter } from '../bytes';
import { decodeGbk, encodeGbk } from '../gbk';
import { needBytes } from './context';

/** Vendor commands Traccar sends for engine stop / resume (model W15L uses 0x64 / 0x65). */
export const CONTROL_COMMAND = {
  engineStop: 0xf0,
  engineResume: 0xf1,
  engineStopW15L: 0x64,
  engineResumeW15L: 0x65,
} as const;

export interface TerminalControlBody {
  command: number;
  params?: string;
}

export function decodeTerminalControl(p: Buffer, start: number, end: number): TerminalControlBody {
  needBytes('0x8105', start, end, 1);
  const body: TerminalControlBody = { command: p[start] };
  if (end > start + 1) body.params = decodeGbk(p, start + 1, end);
  return body;
}

export function encodeTerminalControl(b: TerminalControlBody): Buffer {
  const w = new ByteWriter(16).u8(b.command);
  if (b.params !== undefined) w.bytes(encodeGbk(b.params));
  return w.finish();
}
