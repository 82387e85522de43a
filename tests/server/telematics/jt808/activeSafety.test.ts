/** Active safety items 0x64–0x67 of 0x0200 (苏标 T/JSATL12, and 粤标 by model), from the standard's layout. */

import { decodeFrame, encodeMessage, MsgId, type KnownMessage, type LocationExtras } from '../../../../server/telematics/jt808/codec';
import { decodeSafetyItem, identificationKey } from '../../../../server/telematics/jt808/messages/activeSafety';
import { readSafetyItems, safetyPolicyFromEnv, safetyStandardOf } from '../../../../server/telematics/gateway/safetyStandard';
import { loadConfig } from '../../../../server/config';

/** 0x0200 fixed part: no alarm, ACC on and fixed, 31.2304 N 121.4737 E, 2024-03-01 08:30:15 GMT+8. */
const FIXED = ['00000000', '00000003', '01dc89c0', '073d8aa4', '002a', '0320', '005a', '240301083015'].join('');

/** The common tail: speed 80, altitude 42, the same place and time, vehicle status 0x0001. */
const TAIL = ['50', '002a', '01dc89c0', '073d8aa4', '240301083015', '0001'].join('');

/** 苏标 identification: terminal id "A123456" (BYTE[7]), time, sequence 0, 3 attachments, 1 reserved byte. */
const ID_SU = Buffer.from('A123456', 'latin1').toString('hex') + '240301083015' + '00' + '03' + '00';
/** 粤标: terminal id BYTE[30], time, sequence 1, 2 attachments, 2 reserved bytes. */
const ID_GD = Buffer.from('GD0000000000001', 'latin1').toString('hex').padEnd(60, '0') + '240301083015' + '01' + '02' + '0000';

// ADAS: alarm id 7, start, forward collision, level 2, front speed 60, front distance 1.5 s, no departure, no sign.
const ADAS = (id: string, flagAndType = '0101') => '00000007' + flagAndType + '02' + '3c' + '0f' + '00' + '00' + '00' + TAIL + id;
// DSM: alarm id 8, no flag (an event), phone call, level 1, fatigue degree 0, 4 reserved bytes.
const DSM = (id: string) => '00000008' + '00' + '02' + '01' + '00' + '00000000' + TAIL + id;
// TPMS: alarm id 9, start, then 2 tyres: 0 low pressure 180 kPa 40 °C 90 %, 3 high temperature + slow leak.
const TPMS = (id: string, count = '02') =>
  '00000009' + '01' + TAIL + id + count + '00' + '0004' + '00b4' + '0028' + '005a' + '03' + '0048' + '00dc' + '005f' + '0050';
// BSD: alarm id 10, start, left rear approach.
const BSD = (id: string) => '0000000a' + '01' + '02' + TAIL + id;

const item = (id: number, valueHex: string) =>
  id.toString(16).padStart(2, '0') + (valueHex.length / 2).toString(16).padStart(2, '0') + valueHex;

/** A whole 0x0200 frame (2013 header, phone 13800000001, serial 1) around a hand-built body. */
function frame(itemsHex: string): Buffer {
  const body = Buffer.from(FIXED + itemsHex, 'hex');
  const header = Buffer.from('0200' + body.length.toString(16).padStart(4, '0') + '013800000001' + '0001', 'hex');
  const packet = Buffer.concat([header, body, Buffer.alloc(1)]);
  let x = 0;
  for (let k = 0; k < packet.length - 1; k++) x ^= packet[k];
  packet[packet.length - 1] = x;
  const out: number[] = [0x7e];
  for (const b of packet) {
    if (b === 0x7e) out.push(0x7d, 0x02);
    else if (b === 0x7d) out.push(0x7d, 0x01);
    else out.push(b);
  }
  out.push(0x7e);
  return Buffer.from(out);
}

function extrasOf(wire: Buffer): LocationExtras {
  const m = decodeFrame(wire) as KnownMessage;
  if (m.msgId !== MsgId.Location) throw new Error('not a location');
  return m.body.extras;
}

const COMMON = {
  speed: 80,
  altitude: 42,
  latitude: 31.2304,
  longitude: 121.4737,
  time: '2024-03-01T00:30:15.000Z',
  vehicleStatus: 1,
};

describe('0x0200 active safety items, 苏标 layout', () => {
  it('reads ADAS, DSM, TPMS and BSD with their alarm identification', () => {
    const x = extrasOf(frame(item(0x64, ADAS(ID_SU)) + item(0x65, DSM(ID_SU)) + item(0x66, TPMS(ID_SU)) + item(0x67, BSD(ID_SU))));
    const identification = {
      terminalId: 'A123456',
      timeBcd: '240301083015',
      time: '2024-03-01T00:30:15.000Z',
      sequence: 0,
      attachments: 3,
    };
    expect(x.adas).toEqual({
      alarmId: 7,
      flag: 1,
      flagName: 'start',
      type: 1,
      typeName: 'forwardCollision',
      level: 2,
      frontSpeed: 60,
      frontDistance: 15,
      departure: 0,
      roadSign: 0,
      roadSignValue: 0,
      ...COMMON,
      identification,
      standard: 'jsatl12',
    });
    expect(x.dsm).toMatchObject({
      alarmId: 8,
      flag: 0,
      flagName: 'none',
      type: 2,
      typeName: 'phoneCall',
      level: 1,
      fatigueDegree: 0,
      ...COMMON,
    });
    expect(x.tpms).toMatchObject({
      alarmId: 9,
      flagName: 'start',
      ...COMMON,
      identification,
      tyres: [
        { position: 0, alarmBits: 4, alarms: ['lowPressure'], pressureKpa: 180, temperatureC: 40, batteryPct: 90 },
        { position: 3, alarmBits: 0x48, alarms: ['highTemperature', 'slowLeak'], pressureKpa: 220, temperatureC: 95, batteryPct: 80 },
      ],
    });
    expect(x.bsd).toMatchObject({ alarmId: 10, type: 2, typeName: 'leftRearApproach', ...COMMON, identification });
    expect(x.unknown).toBeUndefined();
    expect(identificationKey(x.adas!.identification)).toBe('A123456-240301083015-0');
  });

  it('re-encodes a decoded frame to the same bytes', () => {
    const wire = frame(item(0x64, ADAS(ID_SU)) + item(0x66, TPMS(ID_SU)) + item(0x67, BSD(ID_SU)));
    const m = decodeFrame(wire) as KnownMessage;
    expect(encodeMessage({ phone: '13800000001', serial: 1 }, m).equals(wire)).toBe(true);
  });

  it('keeps an item that does not fit the layout as hex, never throws, and reads the items after it', () => {
    // One byte short, one byte long, a tyre count the bytes do not hold, a 粤标 item under 苏标.
    const short = ADAS(ID_SU).slice(0, -2);
    const long = DSM(ID_SU) + 'ff';
    const tyres = TPMS(ID_SU, '05');
    const x = extrasOf(frame(item(0x64, short) + item(0x65, long) + item(0x66, tyres) + item(0x67, BSD(ID_GD)) + item(0x31, '0c')));
    expect(x.adas).toBeUndefined();
    expect(x.dsm).toBeUndefined();
    expect(x.tpms).toBeUndefined();
    expect(x.bsd).toBeUndefined();
    expect(x.unknown?.map((u) => u.id)).toEqual([0x64, 0x65, 0x66, 0x67]);
    expect(x.unknown?.[0].hex).toBe(short);
    expect(x.satellites).toBe(12);
  });

  it('names types it does not know as custom or unknown, and an unknown flag as unknown', () => {
    const x = extrasOf(frame(item(0x64, ADAS(ID_SU, '0309'))));
    expect(x.adas).toMatchObject({ flag: 3, flagName: 'unknown', type: 9, typeName: 'custom' });
  });
});

describe('粤标 by terminal model', () => {
  it('reads the 40-byte identification when the model is set to guangdong', () => {
    const policy = safetyPolicyFromEnv(undefined, 'GD-ADAS1=guangdong');
    expect(safetyStandardOf(policy, 'GD-ADAS1')).toBe('guangdong');
    expect(safetyStandardOf(policy, 'OTHER')).toBe('jsatl12');
    expect(safetyStandardOf(policy, null)).toBe('jsatl12');
    const codec = extrasOf(frame(item(0x64, ADAS(ID_GD)) + item(0x65, DSM(ID_GD))));
    expect(codec.adas).toBeUndefined();
    const x = readSafetyItems(codec, 'guangdong', 480);
    expect(x.unknown).toBeUndefined();
    const identification = {
      terminalId: 'GD0000000000001',
      timeBcd: '240301083015',
      time: '2024-03-01T00:30:15.000Z',
      sequence: 1,
      attachments: 2,
    };
    expect(x.adas).toMatchObject({ alarmId: 7, typeName: 'forwardCollision', identification, standard: 'guangdong' });
    expect(x.dsm).toMatchObject({ alarmId: 8, typeName: 'phoneCall', identification, standard: 'guangdong' });
    // Under 苏标 nothing changes.
    expect(readSafetyItems(codec, 'jsatl12', 480)).toBe(codec);
  });

  it('keeps a 苏标-length item hex under 粤标 when it does not fit either', () => {
    const x = readSafetyItems(extrasOf(frame(item(0x67, BSD(ID_GD).slice(0, -4)))), 'guangdong', 480);
    expect(x.bsd).toBeUndefined();
    expect(x.unknown?.map((u) => u.id)).toEqual([0x67]);
  });

  it('decodes one item directly under either standard', () => {
    const su = Buffer.from(BSD(ID_SU), 'hex');
    const gd = Buffer.from(BSD(ID_GD), 'hex');
    expect(decodeSafetyItem(0x67, su, 0, su.length, 'jsatl12', 480)?.bsd?.identification.terminalId).toBe('A123456');
    expect(decodeSafetyItem(0x67, su, 0, su.length, 'guangdong', 480)).toBeUndefined();
    expect(decodeSafetyItem(0x67, gd, 0, gd.length, 'guangdong', 480)?.bsd?.identification.terminalId).toBe('GD0000000000001');
  });

  it('reads the policy from the environment and refuses what it does not know', () => {
    expect(
      loadConfig({ JT808_SAFETY_STANDARD: 'guangdong', JT808_SAFETY_STANDARD_MODELS: 'A=jsatl12, B = guangdong' }).jt808Safety,
    ).toEqual({
      default: 'guangdong',
      models: { A: 'jsatl12', B: 'guangdong' },
    });
    expect(loadConfig({}).jt808Safety).toEqual({ default: 'jsatl12', models: {} });
    expect(() => loadConfig({ JT808_SAFETY_STANDARD: 'hunan' })).toThrow(
      'JT808_SAFETY_STANDARD: "hunan" must be one of jsatl12, guangdong',
    );
    expect(() => loadConfig({ JT808_SAFETY_STANDARD_MODELS: 'A' })).toThrow('JT808_SAFETY_STANDARD_MODELS: "A" must be model=standard');
  });
});
