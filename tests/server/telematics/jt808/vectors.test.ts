import {
  decodeFrame,
  encodeFrame,
  encodeMessage,
  escapeFrame,
  FrameSplitter,
  Jt808DecodeError,
  MsgId,
  unframe,
  type DecodedMessage,
} from '../../../../server/telematics/jt808/codec';
import { hex, REAL, REFERENCE_ESCAPE_UNESCAPED, REFERENCE_ESCAPE_WIRE, REFERENCE_HEARTBEAT } from './fixtures';

function decodeError(frame: string): Jt808DecodeError {
  try {
    decodeFrame(hex(frame));
  } catch (e) {
    if (e instanceof Jt808DecodeError) return e;
    throw e;
  }
  throw new Error('expected a decode error');
}

/** Re-encode a decoded message from its body bytes and header fields. */
function reframe(m: DecodedMessage, body: Buffer): Buffer {
  return encodeFrame({ msgId: m.msgId, phone: m.phone, serial: m.serial, version: m.version === 2019 ? 2019 : 2013 }, body);
}

describe('reference vectors (jt808.md)', () => {
  it('smallest frame: 15-byte heartbeat, phone trimmed to 12345678900', () => {
    const wire = hex(REFERENCE_HEARTBEAT);
    expect(wire.length).toBe(15);
    const m = decodeFrame(wire);
    expect(m).toMatchObject({ msgId: 0x0002, version: 2013, phone: '12345678900', serial: 10, body: {} });
    expect(m.packet).toBeUndefined();
    const again = encodeMessage({ phone: '12345678900', serial: 10 }, { msgId: MsgId.Heartbeat });
    expect(again.toString('hex').toUpperCase()).toBe(REFERENCE_HEARTBEAT);
  });

  it('Traccar escape vector: 7e307d02087d01557e <-> 7e307e087d557e', () => {
    const inner = unframe(hex(REFERENCE_ESCAPE_WIRE));
    expect(`7e${inner.toString('hex')}7e`).toBe(REFERENCE_ESCAPE_UNESCAPED);
    expect(escapeFrame(inner).toString('hex')).toBe(REFERENCE_ESCAPE_WIRE);
  });

  it('Traccar: junk before the first 7e (2424) is skipped', () => {
    const s = new FrameSplitter({ minPacketBytes: 1 });
    const out = s.push(hex(`2424${REFERENCE_ESCAPE_WIRE}`));
    expect(out.map((b) => b.toString('hex'))).toEqual(['307e087d55']);
    expect(s.stats.junkBytes).toBe(2);
  });

  it('SmallChi 0x0002 Test3 shape: a checksum of 0x7e is escaped, frame ends 00 2B 7D 02 7E', () => {
    // Terminal 57 and serial 0x2B make the XOR come out at 0x7e.
    const wire = encodeMessage({ phone: '57', serial: 0x2b }, { msgId: MsgId.Heartbeat });
    expect(wire.toString('hex').endsWith('002b7d027e')).toBe(true);
    const m = decodeFrame(wire);
    expect(m).toMatchObject({ msgId: 0x0002, phone: '57', serial: 0x2b });
    const s = new FrameSplitter();
    expect(s.push(wire).map((p) => p[p.length - 1])).toEqual([0x7e]);
  });

  it('the two deliberately odd frames fail with typed errors', () => {
    expect(decodeError(REAL.badChecksum).code).toBe('BAD_CHECKSUM');
    expect(decodeError(REAL.strayFlag).code).toBe('BAD_FLAG');
    // Without the checksum check (Traccar's way) it is still short of the announced 50-byte body.
    expect(() => decodeFrame(hex(REAL.badChecksum), { verifyChecksum: false })).toThrow(/TRUNCATED/);
  });
});

describe('published real-device frames', () => {
  const valid = Object.entries(REAL).filter(([k]) => k !== 'badChecksum' && k !== 'strayFlag');

  it.each(valid)('%s decodes and re-encodes byte-identical from its body', (_name, frame) => {
    const wire = hex(frame);
    const m = decodeFrame(wire);
    const packet = unframe(wire);
    const headerLen = 12;
    const body = packet.subarray(headerLen, packet.length - 1);
    expect(reframe(m, body).equals(wire)).toBe(true);
  });

  it.each(valid)('%s re-encodes byte-identical from the decoded message', (_name, frame) => {
    const wire = hex(frame);
    const m = decodeFrame(wire);
    if (m.opaque !== undefined) throw new Error('expected a known message');
    // A decoded message is a valid encoder input as it is (checked by the type system here).
    const again = encodeMessage({ phone: m.phone, serial: m.serial, version: m.version }, m);
    expect(again.toString('hex')).toBe(wire.toString('hex'));
  });

  it('0x0200 with 0xEB: alarm bit 7, ICCID, battery, external alarms, unknown sub-item', () => {
    const m = decodeFrame(hex(REAL.locationEb));
    if (m.msgId !== MsgId.Location || m.opaque) throw new Error('not a location');
    expect(m.phone).toBe('12345678901');
    expect(m.body.alarm).toEqual({ raw: 0x80, active: ['powerUnderVoltage'] });
    expect(m.body.status).toMatchObject({ raw: 3, accOn: true, fixed: true, south: false, west: false });
    expect(m.body.latitude).toBe(22.641605);
    expect(m.body.longitude).toBe(114.032486);
    expect(m.body.altitude).toBe(0xeb);
    expect(m.body.time).toBe('2021-07-26T12:35:31.000Z');
    expect(m.body.extras.mileageKm).toBe(0);
    expect(m.body.extras.eb).toEqual({
      iccid: '89860477012070271502',
      externalAlarms: 0xffffefff,
      batteryV: 3.6,
      unknown: [{ id: 0x00c5, hex: 'ffffffef' }],
    });
    expect(m.body.extras.raw?.['0xEB']).toBe('000c00b289860477012070271502000600' + '89ffffefff0004002d0e10000600c5ffffffef');
  });

  it('0x0200 with the flat 0x80 OBD block', () => {
    const m = decodeFrame(hex(REAL.locationObdFlat));
    if (m.msgId !== MsgId.Location || m.opaque) throw new Error('not a location');
    const b = m.body;
    expect(b.status.raw).toBe(0x80000003);
    expect(b.direction).toBe(269);
    expect(b.altitude).toBe(4);
    expect(b.time).toBe('2021-11-08T11:40:50.000Z');
    expect(b.extras.mileageKm).toBe(0.3);
    expect(b.extras.signalStrength).toBe(26);
    expect(b.extras.unknown).toEqual([{ id: 0xcc, hex: Buffer.from('89860478102070318608').toString('hex') }]);
    expect(b.extras.obd).toEqual({
      content: 'aa',
      nested: false,
      rpm: 5000,
      powerV: 12.2,
      engineLoadPct: 20,
      coolantTempC: 130,
      fuelConsumption: 6299,
      intakeTempC: 11,
      intakeFlow: 126,
      intakePressure: 51,
      throttlePct: 20,
      unknown: [{ id: 0x8a, hex: '0099' }],
      vin: '123456789ABCDEFGH',
      odometerKm: 13124,
      tripKm: 130,
      fuelLevel: 20,
      dtcs: [],
    });
    expect(b.extras.raw?.['0x80']?.startsWith('8001aa81021388')).toBe(true);
  });

  it('0x0200 OBD block with a VIN and the west bit', () => {
    const m = decodeFrame(hex(REAL.locationObdVin));
    if (m.msgId !== MsgId.Location || m.opaque) throw new Error('not a location');
    expect(m.body.status.west).toBe(true);
    expect(m.body.latitude).toBe(43.95309);
    expect(m.body.longitude).toBe(-79.329361);
    expect(m.body.extras.obd?.vin).toBe('JN1BJ1CR6KW336535');
    expect(m.body.extras.obd?.rpm).toBe(0x0471);
  });

  it('0x0200 standard items and SOS', () => {
    const io = decodeFrame(hex(REAL.locationIo));
    if (io.msgId !== MsgId.Location || io.opaque) throw new Error('not a location');
    expect(io.phone).toBe('1601285614');
    expect(io.body.extras).toMatchObject({
      mileageKm: 4326.4,
      io: { raw: 0, deepSleep: false, sleep: false },
      signalStrength: 27,
      satellites: 3,
    });
    const sos = decodeFrame(hex(REAL.locationSos));
    if (sos.msgId !== MsgId.Location || sos.opaque) throw new Error('not a location');
    expect(sos.body.alarm.active).toEqual(['sos']);
    expect(sos.body.latitude).toBe(50.871735);
    expect(sos.body.longitude).toBe(-1.255923);
    expect(sos.body.speed).toBe(2);
  });

  it('0x0704 blind-area batch of 8', () => {
    const m = decodeFrame(hex(REAL.batch8));
    if (m.msgId !== MsgId.BatchLocation || m.opaque) throw new Error('not a batch');
    expect(m.body).toMatchObject({ count: 8, type: 1, blindArea: true });
    expect(m.body.items).toHaveLength(8);
    expect(m.body.malformed).toBeUndefined();
    expect(m.body.items[0].time).toBe('2016-05-27T01:06:24.000Z');
    expect(m.body.items[7].extras.mileageKm).toBe(2.9);
  });

  it('0x0900 OBD record with 13 PIDs and a position', () => {
    const m = decodeFrame(hex(REAL.transparentPids));
    if (m.msgId !== MsgId.Transparent || m.opaque) throw new Error('not transparent');
    expect(m.phone).toBe('4e5de66fba22'); // not BCD: hex digits kept
    expect(m.body.type).toBe(0xf0);
    const rec = m.body.obdRecord;
    expect(rec).toMatchObject({ time: '2022-04-27T22:10:09.000Z', archive: false, vehicleType: 2, subtype: 1, subtypeName: 'pids' });
    expect(rec?.pids).toHaveLength(13);
    expect(rec?.values).toEqual({ coolantTempC: 67, speedKmh: 0, rpm: 952 });
    expect(rec?.position).toMatchObject({ latitude: 23.111772, longitude: 114.409784 });
    expect(rec?.restHex).toBeUndefined();
  });

  it('0x0100 in the 2013 and 2011 layouts, GBK plate', () => {
    const a = decodeFrame(hex(REAL.register2013));
    expect(a).toMatchObject({
      msgId: 0x0100,
      version: 2013,
      phone: '14130567872',
      body: {
        province: 44,
        city: 303,
        makerId: '70111',
        model: 'BSJ-A6-BD',
        terminalId: '0567872',
        plateColor: 1,
        plate: '粤B88888',
        layout: 2013,
      },
    });
    const b = decodeFrame(hex(REAL.register2011));
    expect(b).toMatchObject({
      msgId: 0x0100,
      version: 2011,
      body: { makerId: '70111', model: 'BSJ-M7B ', terminalId: '0000000', plateColor: 1, plate: '粤B88888', layout: 2011 },
    });
  });

  it('0x0102 and 0x0002', () => {
    expect(decodeFrame(hex(REAL.auth))).toMatchObject({ msgId: 0x0102, phone: '13511221122', serial: 6, body: { code: 'authentication' } });
    expect(decodeFrame(hex(REAL.heartbeat))).toMatchObject({ msgId: 0x0002, phone: '43048325465', serial: 183, body: {} });
  });
});
