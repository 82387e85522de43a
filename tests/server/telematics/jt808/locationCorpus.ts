/**
 * A fixed set of real-shaped 0x0200 frames: standard items, every vendor item the decoder knows
 * (and the odd lengths it keeps as unknown), and the sloppy frames field firmware sends. Used by
 * the fast-path test and by bench/jt808-decode-pair.bench.ts, so both look at the same frames.
 */

import {
  encodeMessage,
  escapeFrame,
  MsgId,
  unframe,
  xorChecksum,
  type DecodeOptions,
  type Jt808Version,
  type LocationInput,
} from '../../../../server/telematics/jt808/codec';
import { hex, REAL } from './fixtures';

export type CorpusKind = 'standard' | 'vendor' | 'sloppy';

export interface CorpusFrame {
  name: string;
  kind: CorpusKind;
  /** Wire bytes, flags included. */
  frame: Buffer;
}

/** What the gateway decodes with (server/telematics/gateway/session.ts): field firmware is read, then judged. */
export const GATEWAY_DECODE: DecodeOptions = { onBadChecksum: 'flag', tolerateLength: true };

const PHONE = '13912345678';

const BASE: LocationInput = {
  alarm: 0,
  status: { accOn: true, fixed: true, gps: true, beidou: true },
  latitude: 22.543096,
  longitude: 114.057865,
  altitude: 38,
  speed: 62.4,
  direction: 135,
  time: '2024-05-20T02:30:15.000Z',
};

/** The 12 standard items of bench/jt808-decode.bench.ts. */
export const TWELVE_ITEMS: LocationInput = {
  ...BASE,
  extras: {
    mileageKm: 123456.7,
    fuelL: 45.5,
    recorderSpeedKmh: 61.9,
    alarmEventId: 7,
    overspeed: { areaType: 1, areaId: 42 },
    areaAlarm: { areaType: 2, areaId: 7, direction: 1 },
    routeTime: { routeId: 9, seconds: 600, result: 1 },
    signals: { lowBeam: true, brake: true },
    io: 0,
    analog: { ad0: 1200, ad1: 3300 },
    signalStrength: 27,
    satellites: 14,
  },
};

/** Unescaped packet of a 0x0200 with `body`, then the raw items `itemsHex` appended (length and checksum fixed). */
export function locationPacket(body: LocationInput, itemsHex = '', version: Jt808Version = 2013, serial = 0x1234): Buffer {
  const p = Buffer.from(unframe(encodeMessage({ phone: PHONE, serial, version }, { msgId: MsgId.Location, body })));
  const items = Buffer.from(itemsHex.replace(/\s+/g, ''), 'hex');
  const out = Buffer.concat([p.subarray(0, p.length - 1), items, Buffer.alloc(1)]);
  const headerBytes = version === 2019 ? 17 : 12;
  out.writeUInt16BE((out.readUInt16BE(2) & ~0x3ff) | (out.length - 1 - headerBytes), 2);
  out[out.length - 1] = xorChecksum(out, 0, out.length - 1);
  return out;
}

/** `packet` with its body-length field off by `delta` (checksum recomputed), as some firmware sends. */
export function misdeclared(packet: Buffer, delta: number): Buffer {
  const p = Buffer.from(packet);
  const props = p.readUInt16BE(2);
  p.writeUInt16BE((props & ~0x3ff) | (((props & 0x3ff) + delta) & 0x3ff), 2);
  p[p.length - 1] = xorChecksum(p, 0, p.length - 1);
  return p;
}

/** `packet` with the 2019 version bit set on its 2013 header (SmallChi's JTT2013Force case). */
export function versionBitOn2013(packet: Buffer): Buffer {
  const p = Buffer.from(packet);
  p.writeUInt16BE(p.readUInt16BE(2) | 0x4000, 2);
  p[p.length - 1] = xorChecksum(p, 0, p.length - 1);
  return p;
}

/** `packet` with a wrong checksum byte. */
export function badChecksum(packet: Buffer): Buffer {
  const p = Buffer.from(packet);
  p[p.length - 1] ^= 0x5a;
  return p;
}

const mileage = { ...BASE, extras: { mileageKm: 500.1 } };
const frame = (name: string, kind: CorpusKind, packet: Buffer): CorpusFrame => ({ name, kind, frame: escapeFrame(packet) });

export const LOCATION_CORPUS: readonly CorpusFrame[] = [
  frame('12 standard items', 'standard', locationPacket(TWELVE_ITEMS)),
  frame('12 standard items, 2019 header', 'standard', locationPacket(TWELVE_ITEMS, '', 2019)),
  frame('no items', 'standard', locationPacket(BASE)),
  frame(
    'tyre pressure, carriage temperature, short analog, overspeed without area',
    'standard',
    locationPacket(BASE, `05 1e ${'ff'.repeat(30)} 06 02 ffee 2b 02 0102 11 01 00`),
  ),
  frame('no fix yet: zero time', 'standard', locationPacket({ ...BASE, time: null })),
  { name: 'real: 0x2A io', kind: 'standard', frame: hex(REAL.locationIo) },
  { name: 'real: SOS, west', kind: 'standard', frame: hex(REAL.locationSos) },
  { name: 'real: vendor 0xD3/0xD4 and unknown items', kind: 'vendor', frame: hex(REAL.locationVendor) },
  { name: 'real: 0xEB extension', kind: 'vendor', frame: hex(REAL.locationEb) },
  { name: 'real: flat 0x80 OBD block, escaped 0x7e', kind: 'vendor', frame: hex(REAL.locationObdFlat) },
  { name: 'real: flat 0x80 OBD block with VIN', kind: 'vendor', frame: hex(REAL.locationObdVin) },
  frame(
    'power items 0xD4 0x69 0x61 0xE4 and undocumented 0xFA',
    'vendor',
    locationPacket(mileage, 'd40155 69020190 610204d8 e402014b 300117 fa03010203'),
  ),
  frame(
    'power items 0x56 0xD3 0xEE 0xF1 0xF7/4',
    'vendor',
    locationPacket(mileage, '56020700 d3020079 ee06170ff00ea00c f1040000307a f70400000ea6'),
  ),
  frame('power item 0xF7/6, 0xE4 unknown charge state', 'vendor', locationPacket(mileage, 'f70600000ea60150 e402aa30')),
  frame(
    'power items with lengths no vendor uses',
    'vendor',
    locationPacket(mileage, 'd4020101 69010f 61030a0b0c ee0101 f1020102 f70102 e40101 d30101'),
  ),
  frame('fuel with bit 15, standard items of odd lengths', 'vendor', locationPacket(mileage, '02028037 010201ff 300201ff 2b0101 110201ff')),
  frame(
    'nested 0x80 OBD, 0xF3, 0xE6 $OBD-RT, 0xEB',
    'vendor',
    locationPacket({
      ...BASE,
      extras: {
        obd: {
          nested: true,
          rpm: 2100,
          powerV: 13.8,
          coolantTempC: 91,
          vin: 'LSVAU2180N2123456',
          dtcs: ['P0301', 'U0100'],
          odometerKm: 45678.9,
        },
        obdF3: { speedKmh: 61.5, rpm: 2100, powerV: 13.812, odometerKm: 45678.9, coolantTempC: 90, harshBrakingCount: 2, tripKm: 12.3 },
        obdRt: {
          power: 13.8,
          rpm: 2100,
          speed: 61,
          throttle: 18,
          load: 35,
          coolant: 90,
          instFuel: 7.5,
          avgFuel: 8.1,
          trip: 12.3,
          odometer: 45678,
          tripFuelUsed: 1.1,
          fuelUsed: 3500,
        },
        eb: { iccid: '89860477012070271502', batteryV: 3.6, powerV: 12.5, externalAlarms: 0xffffefff },
      },
    }),
  ),
  frame('0xF3, 0xE6, 0xEB that do not parse', 'vendor', locationPacket(mileage, 'f30101 e60378797a eb0101')),
  frame('tail that is not a whole item', 'vendor', locationPacket(mileage, '3104ff')),
  frame('2019 version bit on a 2013 header', 'sloppy', versionBitOn2013(locationPacket(TWELVE_ITEMS))),
  frame('bad checksum', 'sloppy', badChecksum(locationPacket(TWELVE_ITEMS))),
  frame('body length announced 5 short', 'sloppy', misdeclared(locationPacket(TWELVE_ITEMS), -5)),
  frame('body length announced 7 long', 'sloppy', misdeclared(locationPacket(TWELVE_ITEMS), 7)),
  frame('bad checksum and wrong length, 2019 header', 'sloppy', badChecksum(misdeclared(locationPacket(TWELVE_ITEMS, '', 2019), 3))),
];
