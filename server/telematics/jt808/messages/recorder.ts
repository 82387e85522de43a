/**
 * Driving recorder (GB/T 19056) data through JT/T 808:
 *   0x8700 collect: command word BYTE, [data block]   0x8701 set parameters: command word BYTE, data block
 *   0x0700 upload: serial WORD of the 0x8700, command word BYTE, data block
 * The data blocks follow GB/T 19056 and are kept as hex.
 */

import { ByteWriter } from '../bytes';
import { BodyReader } from '../reader';
import { putHex } from './write';

export interface RecorderCommandBody {
  command: number;
  dataHex: string;
}

export interface RecorderDataBody extends RecorderCommandBody {
  replySerial: number;
}

export function decodeRecorderCommand(p: Buffer, start: number, end: number, what: string): RecorderCommandBody {
  const r = new BodyReader(p, start, end, what);
  return { command: r.u8('command'), dataHex: r.restHex() };
}

export function encodeRecorderCommand(b: RecorderCommandBody): Buffer {
  return putHex(new ByteWriter(16).u8(b.command), b.dataHex, 'dataHex').finish();
}

export function decodeRecorderData(p: Buffer, start: number, end: number): RecorderDataBody {
  const r = new BodyReader(p, start, end, '0x0700');
  return { replySerial: r.u16('replySerial'), command: r.u8('command'), dataHex: r.restHex() };
}

export function encodeRecorderData(b: RecorderDataBody): Buffer {
  return putHex(new ByteWriter(16).u16(b.replySerial).u8(b.command), b.dataHex, 'dataHex').finish();
}
