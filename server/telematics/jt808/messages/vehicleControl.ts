/**
 * 0x8500 vehicle control and 0x0500 its answer (serial WORD of the 0x8500, then a 0x0200 body).
 *   2013: flag BYTE, bit 0 doors (1 lock, 0 unlock).
 *   2019: count WORD, {control type WORD, parameter}×count; type 0x0001 doors takes a BYTE
 *         (0 lock, 1 open). Other types' parameters have no length on the wire, so the first
 *         unknown type keeps the rest of the body as hex.
 */

import type { Jt808Version } from '../constants';
import { ByteWriter } from '../bytes';
import { Jt808EncodeError } from '../errors';
import { BodyReader } from '../reader';
import { decodeLocation, LOCATION_FIXED_BYTES, writeLocation, type LocationBody, type LocationInput } from './location';
import { putHex } from './write';

export const VEHICLE_CONTROL_DOORS = 0x0001;

export interface VehicleControlItem {
  type: number;
  /** The BYTE parameter of a known type. */
  value?: number;
  /** The rest of the body after an unknown type. */
  restHex?: string;
}

export interface VehicleControlBody {
  /** 2013: the flag byte. */
  flag?: number;
  /** 2019: the control items. */
  items?: VehicleControlItem[];
}

export function decodeVehicleControl(p: Buffer, start: number, end: number, version: Jt808Version): VehicleControlBody {
  const r = new BodyReader(p, start, end, '0x8500');
  if (version !== 2019) {
    const body = { flag: r.u8('flag') };
    r.done();
    return body;
  }
  const count = r.u16('count');
  const items: VehicleControlItem[] = [];
  for (let i = 0; i < count; i++) {
    const type = r.u16('control type');
    if (type === VEHICLE_CONTROL_DOORS) items.push({ type, value: r.u8('doors') });
    else {
      items.push({ type, restHex: r.restHex() });
      break;
    }
  }
  r.done();
  return { items };
}

export function encodeVehicleControl(b: VehicleControlBody, version: Jt808Version): Buffer {
  const w = new ByteWriter(16);
  if (version !== 2019) {
    if (b.flag === undefined) throw new Jt808EncodeError('BAD_FIELD', '0x8500: the 2013 layout needs flag');
    return w.u8(b.flag).finish();
  }
  const items = b.items ?? [];
  w.u16(items.length);
  for (const item of items) {
    w.u16(item.type);
    if (item.value !== undefined) w.u8(item.value);
    if (item.restHex !== undefined) putHex(w, item.restHex, 'restHex');
  }
  return w.finish();
}

export interface VehicleControlResponseBody {
  replySerial: number;
  location: LocationBody;
}

export interface VehicleControlResponseInput {
  replySerial: number;
  location: LocationInput;
}

export function decodeVehicleControlResponse(p: Buffer, start: number, end: number, tz: number): VehicleControlResponseBody {
  const r = new BodyReader(p, start, end, '0x0500');
  const replySerial = r.u16('replySerial');
  r.bytes(LOCATION_FIXED_BYTES, 'location');
  return { replySerial, location: decodeLocation(p, start + 2, end, tz) };
}

export function encodeVehicleControlResponse(b: VehicleControlResponseInput, tz: number): Buffer {
  const w = new ByteWriter(64).u16(b.replySerial);
  writeLocation(w, b.location, { tzOffsetMinutes: tz });
  return w.finish();
}
