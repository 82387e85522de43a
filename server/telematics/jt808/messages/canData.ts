/**
 * 0x0705 CAN bus data: count WORD, time of the first frame BCD[5] hhmmss + milliseconds (4 digits),
 * then {CAN id DWORD, data BYTE[8]}×count. Id bits: 31 channel (0 CAN1, 1 CAN2), 30 frame (0
 * standard, 1 extended), 29 collection (0 raw, 1 average over the interval), 28–0 the bus id.
 */

import { ByteWriter } from '../bytes';
import { BodyReader } from '../reader';
import { putBcd, putHex } from './write';

export interface CanFrame {
  channel: 0 | 1;
  extended: boolean;
  averaged: boolean;
  canId: number;
  dataHex: string;
}

export interface CanDataBody {
  /** "hhmmssmmmm" as sent (the device's local time of day). */
  receivedAt: string;
  frames: CanFrame[];
}

export function decodeCanData(p: Buffer, start: number, end: number): CanDataBody {
  const r = new BodyReader(p, start, end, '0x0705');
  const count = r.u16('count');
  const receivedAt = r.bcd(5, 'receivedAt');
  const frames: CanFrame[] = [];
  for (let i = 0; i < count; i++) {
    const id = r.u32(`frame ${i + 1} id`);
    frames.push({
      channel: id >= 0x80000000 ? 1 : 0,
      extended: (id & 0x40000000) !== 0,
      averaged: (id & 0x20000000) !== 0,
      canId: id & 0x1fffffff,
      dataHex: r.hex(8, `frame ${i + 1} data`),
    });
  }
  r.done();
  return { receivedAt, frames };
}

export function encodeCanData(b: CanDataBody): Buffer {
  const w = new ByteWriter(7 + 12 * b.frames.length).u16(b.frames.length);
  putBcd(w, b.receivedAt, 5);
  for (const f of b.frames) {
    const id = (f.channel ? 0x80000000 : 0) + (f.extended ? 0x40000000 : 0) + (f.averaged ? 0x20000000 : 0) + (f.canId & 0x1fffffff);
    w.u32(id);
    putHex(w, f.dataHex.padEnd(16, '0').slice(0, 16), 'dataHex');
  }
  return w.finish();
}
