/**
 * 0x8202 temporary location tracking: interval WORD s (0 stops it), validity DWORD s.
 * 0x8203 manual alarm confirmation: serial WORD of the alarm's 0x0200 (0: every one), alarm type DWORD
 *        (bit 0 emergency, 3 danger warning, 20 area, 21 route, 22 route time, 27 illegal ignition,
 *        28 illegal displacement).
 */

import { ByteWriter } from '../bytes';
import { BodyReader } from '../reader';

export interface TemporaryTrackingBody {
  interval: number;
  validity: number;
}

export function decodeTemporaryTracking(p: Buffer, start: number, end: number): TemporaryTrackingBody {
  const r = new BodyReader(p, start, end, '0x8202');
  const body = { interval: r.u16('interval'), validity: r.u32('validity') };
  r.done();
  return body;
}

export function encodeTemporaryTracking(b: TemporaryTrackingBody): Buffer {
  return new ByteWriter(6).u16(b.interval).u32(b.validity).finish();
}

export interface AlarmConfirmBody {
  alarmSerial: number;
  alarmType: number;
}

export function decodeAlarmConfirm(p: Buffer, start: number, end: number): AlarmConfirmBody {
  const r = new BodyReader(p, start, end, '0x8203');
  const body = { alarmSerial: r.u16('alarmSerial'), alarmType: r.u32('alarmType') };
  r.done();
  return body;
}

export function encodeAlarmConfirm(b: AlarmConfirmBody): Buffer {
  return new ByteWriter(6)
    .u16(b.alarmSerial)
    .u32(b.alarmType >>> 0)
    .finish();
}
