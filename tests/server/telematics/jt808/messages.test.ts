import {
  decodeFrame,
  encodeFrame,
  encodeMessage,
  MsgId,
  PARAM,
  type DecodedMessage,
  type Jt808BodyInput,
  type Jt808Version,
  type KnownMessage,
  type LocationInput,
} from '../../../../server/telematics/jt808/codec';
import { patchPacket } from './helpers';

const T0 = '2024-01-01T00:00:00Z';

function roundTrip(message: Jt808BodyInput, version: Jt808Version = 2013, phone = '13912345678', serial = 77): KnownMessage {
  const wire = encodeMessage({ phone, serial, version }, message);
  const m: DecodedMessage = decodeFrame(wire);
  if (m.opaque !== undefined) throw new Error(`opaque ${m.opaque}`);
  expect(m.msgId).toBe(message.msgId);
  expect(m.phone).toBe(phone);
  expect(m.serial).toBe(serial);
  // Decoded messages are encoder inputs: re-encoding gives the same bytes.
  expect(encodeMessage({ phone, serial, version: m.version }, m).equals(wire)).toBe(true);
  return m;
}

const VERSIONS: Jt808Version[] = [2013, 2019];

describe.each(VERSIONS)('round trips, %s header', (version) => {
  it('0x0001 terminal general response, results 0..3', () => {
    ['ok', 'fail', 'messageError', 'unsupported'].forEach((name, result) => {
      const m = roundTrip({ msgId: MsgId.TerminalResponse, body: { replySerial: 9, replyMsgId: 0x8103, result } }, version);
      expect(m.body).toEqual({ replySerial: 9, replyMsgId: 0x8103, result, resultName: name });
      expect(m.version).toBe(version);
    });
  });

  it('0x8001 platform general response, results 0..4', () => {
    ['ok', 'fail', 'messageError', 'unsupported', 'alarmConfirmed'].forEach((name, result) => {
      const m = roundTrip({ msgId: MsgId.PlatformResponse, body: { replySerial: 0xffff, replyMsgId: 0x0200, result } }, version);
      expect(m.body).toMatchObject({ result, resultName: name });
    });
  });

  it('0x0002 heartbeat, empty and with the 3 extra bytes', () => {
    expect(roundTrip({ msgId: MsgId.Heartbeat }, version).body).toEqual({});
    expect(roundTrip({ msgId: MsgId.Heartbeat, body: { extra: { batteryPct: 88, rssi: 25, status: 1 } } }, version).body).toEqual({
      extra: { batteryPct: 88, rssi: 25, status: 1 },
    });
  });

  it('0x0003 logout and 0x8201 location query have empty bodies', () => {
    expect(roundTrip({ msgId: MsgId.Logout }, version).body).toEqual({});
    expect(roundTrip({ msgId: MsgId.LocationQuery }, version).body).toEqual({});
  });

  it('0x0100 register with the field sizes of the version', () => {
    const body = { province: 44, city: 303, makerId: '70111', model: 'FS-OBD-1', terminalId: 'T123456', plateColor: 1, plate: '粤B12345' };
    const m = roundTrip({ msgId: MsgId.Register, body }, version);
    expect(m.body).toEqual({ ...body, layout: version });
  });

  it('0x8100 register response: all result codes, auth code only on success', () => {
    const ok = roundTrip({ msgId: MsgId.RegisterResponse, body: { replySerial: 3, result: 0, authCode: 'AUTH-9f3c' } }, version);
    expect(ok.body).toEqual({ replySerial: 3, result: 0, resultName: 'success', authCode: 'AUTH-9f3c' });
    const names = ['vehicleAlreadyRegistered', 'vehicleNotFound', 'terminalAlreadyRegistered', 'terminalNotFound'];
    names.forEach((name, i) => {
      const m = roundTrip({ msgId: MsgId.RegisterResponse, body: { replySerial: 3, result: i + 1, authCode: 'ignored' } }, version);
      expect(m.body).toEqual({ replySerial: 3, result: i + 1, resultName: name });
    });
  });

  it('0x0102 authentication', () => {
    if (version === 2019) {
      const body = { code: 'AUTH-9f3c', imei: '861234567890123', softwareVersion: 'V2.1.7' };
      expect(roundTrip({ msgId: MsgId.Auth, body }, version).body).toEqual(body);
    } else {
      expect(roundTrip({ msgId: MsgId.Auth, body: { code: 'AUTH-9f3c' } }, version).body).toEqual({ code: 'AUTH-9f3c' });
    }
  });

  it('0x8103 set parameters', () => {
    const params = [
      { id: PARAM.heartbeatInterval, type: 'u32' as const, value: 30 },
      { id: PARAM.apn, type: 'string' as const, value: 'cmnet' },
      { id: PARAM.mainServer, type: 'string' as const, value: 'gw.example.com' },
      { id: PARAM.maxSpeed, type: 'u32' as const, value: 120 },
      { id: PARAM.province, type: 'u16' as const, value: 44 },
      { id: PARAM.plate, type: 'string' as const, value: '京A12345' },
      { id: PARAM.plateColor, type: 'u8' as const, value: 2 },
      { id: 0xf001, type: 'bytes' as const, value: '010203' },
    ];
    expect(roundTrip({ msgId: MsgId.SetParams, body: { params } }, version).body).toEqual({ params });
  });

  it('0x8300 text message', () => {
    const m = roundTrip({ msgId: MsgId.Text, body: { flag: 0b1101, text: '请勿疲劳驾驶' } }, version);
    if (m.msgId !== MsgId.Text) throw new Error('not text');
    expect(m.body.text).toBe('请勿疲劳驾驶');
    expect(m.body.flags).toMatchObject({ display: true, tts: true });
    if (version === 2019) {
      expect(m.body.textType).toBe(1);
      expect(m.body.flags.kind).toBe('service');
      expect(m.body.flags.emergency).toBe(false);
    } else {
      expect(m.body.textType).toBeUndefined();
      expect(m.body.flags).toMatchObject({ emergency: true, adScreen: false, info: 'navigation' });
    }
  });

  it('0x8105 terminal control', () => {
    expect(roundTrip({ msgId: MsgId.TerminalControl, body: { command: 0xf0 } }, version).body).toEqual({ command: 0xf0 });
    expect(roundTrip({ msgId: MsgId.TerminalControl, body: { command: 4, params: 'a;b;c' } }, version).body).toEqual({
      command: 4,
      params: 'a;b;c',
    });
  });
});

const FULL_LOCATION: LocationInput = {
  alarm: { active: ['sos', 'overspeed', 'illegalDoorOpen'] },
  status: { accOn: true, fixed: true, load: 'full', frontDoorOpen: true, gps: true, beidou: true, moving: true },
  latitude: -33.868819,
  longitude: -151.209295,
  altitude: -12,
  speed: 88.8,
  direction: 359,
  time: '2024-02-29T15:59:59.000Z',
  extras: {
    mileageKm: 98765.4,
    fuelL: 42.5,
    recorderSpeedKmh: 87.3,
    alarmEventId: 513,
    tyrePressureHex: 'ff'.repeat(30),
    carriageTemp: -18,
    overspeed: { areaType: 4, areaId: 0xdeadbeef },
    areaAlarm: { areaType: 1, areaId: 12, direction: 0 },
    routeTime: { routeId: 77, seconds: 1800, result: 0 },
    signals: { leftTurn: true, brake: true, abs: true },
    io: { sleep: true },
    analog: { ad0: 1, ad1: 65535 },
    signalStrength: 31,
    satellites: 19,
    unknown: [
      { id: 0x14, hex: '00000001' },
      { id: 0xfe, hex: '' },
    ],
  },
};

describe('0x0200 location', () => {
  it('round-trips every standard item, alarm and status flags, south/west signs', () => {
    const m = roundTrip({ msgId: MsgId.Location, body: FULL_LOCATION });
    if (m.msgId !== MsgId.Location) throw new Error('not a location');
    const b = m.body;
    expect(b.alarm).toEqual({ raw: 0x80000003, active: ['sos', 'overspeed', 'illegalDoorOpen'] });
    expect(b.status).toMatchObject({
      accOn: true,
      fixed: true,
      south: true,
      west: true,
      load: 'full',
      frontDoorOpen: true,
      gps: true,
      beidou: true,
      moving: true,
      glonass: false,
    });
    expect(b.latitude).toBe(-33.868819);
    expect(b.longitude).toBe(-151.209295);
    expect(b.altitude).toBe(-12);
    expect(b.speed).toBe(88.8);
    expect(b.direction).toBe(359);
    expect(b.time).toBe('2024-02-29T15:59:59.000Z');
    expect(b.timestamp).toBe(Date.parse('2024-02-29T15:59:59.000Z'));
    expect(b.extras).toEqual({
      mileageKm: 98765.4,
      fuelL: 42.5,
      recorderSpeedKmh: 87.3,
      alarmEventId: 513,
      tyrePressureHex: 'ff'.repeat(30),
      carriageTemp: -18,
      overspeed: { areaType: 4, areaTypeName: 'route', areaId: 0xdeadbeef },
      areaAlarm: { areaType: 1, areaTypeName: 'circle', areaId: 12, direction: 0, directionName: 'in' },
      routeTime: { routeId: 77, seconds: 1800, result: 0, resultName: 'tooShort' },
      signals: expect.objectContaining({ raw: 0b1000000011000, leftTurn: true, brake: true, abs: true, highBeam: false }),
      io: { raw: 2, deepSleep: false, sleep: true },
      analog: { ad0: 1, ad1: 65535 },
      signalStrength: 31,
      satellites: 19,
      unknown: [
        { id: 0x14, hex: '00000001' },
        { id: 0xfe, hex: '' },
      ],
    });
  });

  it('writes the BCD time in the device timezone (GMT+8 by default, configurable)', () => {
    const body: LocationInput = { latitude: 1, longitude: 1, time: '2024-12-31T16:00:01.000Z' };
    const wire = encodeMessage({ phone: '1', serial: 1 }, { msgId: MsgId.Location, body });
    expect(wire.toString('hex')).toContain('250101000001'); // 2025-01-01 00:00:01 at GMT+8
    const utc = decodeFrame(wire, { tzOffsetMinutes: 0 });
    if (utc.msgId !== MsgId.Location || utc.opaque) throw new Error('not a location');
    expect(utc.body.time).toBe('2025-01-01T00:00:01.000Z');
    const wireUtc = encodeMessage({ phone: '1', serial: 1, tzOffsetMinutes: 0 }, { msgId: MsgId.Location, body });
    expect(wireUtc.toString('hex')).toContain('241231160001');
  });

  it('keeps an invalid or all-zero time as null', () => {
    const zero = roundTrip({ msgId: MsgId.Location, body: { latitude: 0, longitude: 0, time: null } });
    if (zero.msgId !== MsgId.Location) throw new Error('not a location');
    expect(zero.body.time).toBeNull();
    expect(zero.body.timestamp).toBeNull();
    const wire = encodeMessage({ phone: '1', serial: 1 }, { msgId: MsgId.Location, body: { latitude: 0, longitude: 0, time: T0 } });
    const m = decodeFrame(
      patchPacket(wire, (p) => {
        p[12 + 22 + 1] = 0x13; // month 13
      }),
    );
    if (m.msgId !== MsgId.Location || m.opaque) throw new Error('not a location');
    expect(m.body.time).toBeNull();
  });

  it('fuel with bit 15 set keeps the unscaled value and the raw bytes', () => {
    const m = roundTrip({ msgId: MsgId.Location, body: { latitude: 1, longitude: 2, time: T0, extras: { fuelUnscaled: 55 } } });
    if (m.msgId !== MsgId.Location) throw new Error('not a location');
    expect(m.body.extras).toEqual({ fuelUnscaled: 55, raw: { '0x02': '8037' } });
  });

  it('vendor OBD items: nested 0x80, 0xF3, 0xE6 $OBD-RT, 0xEB, each with raw hex', () => {
    const m = roundTrip({
      msgId: MsgId.Location,
      body: {
        latitude: 30,
        longitude: 120,
        time: '2024-06-01T00:00:00Z',
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
      },
    });
    if (m.msgId !== MsgId.Location) throw new Error('not a location');
    const x = m.body.extras;
    expect(x.obd).toEqual({
      content: '',
      nested: true,
      odometerKm: 45678.9,
      rpm: 2100,
      powerV: 13.8,
      coolantTempC: 91,
      vin: 'LSVAU2180N2123456',
      dtcs: ['P0301', 'U0100'],
    });
    expect(x.obdF3).toEqual({
      speedKmh: 61.5,
      rpm: 2100,
      powerV: 13.812,
      odometerKm: 45678.9,
      coolantTempC: 90,
      tripKm: 12.3,
      harshBrakingCount: 2,
    });
    expect(x.obdRt).toEqual({
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
    });
    expect(x.eb).toEqual({ iccid: '89860477012070271502', batteryV: 3.6, powerV: 12.5, externalAlarms: 0xffffefff });
    expect(Object.keys(x.raw ?? {}).sort()).toEqual(['0x80', '0xE6', '0xEB', '0xF3']);
    expect(Buffer.from(x.raw?.['0xE6'] ?? '', 'hex').toString('latin1')).toMatch(/^\$OBD-RT,13\.8,2100,61,/);
  });

  it('flat 0x80 block from values is written last and decodes back', () => {
    const m = roundTrip({
      msgId: MsgId.Location,
      body: { latitude: 30, longitude: 120, time: T0, extras: { obd: { rpm: 800, fuelLevel: 40 }, satellites: 9 } },
    });
    if (m.msgId !== MsgId.Location) throw new Error('not a location');
    expect(m.body.extras).toMatchObject({ satellites: 9, obd: { content: '00', nested: false, rpm: 800, fuelLevel: 40 } });
  });

  it('a tail that is not a whole item is kept as malformed, not thrown', () => {
    const wire = encodeMessage(
      { phone: '1', serial: 1 },
      { msgId: MsgId.Location, body: { latitude: 1, longitude: 1, time: T0, extras: { satellites: 5, malformed: '3104ff' } } },
    );
    const m = decodeFrame(wire);
    if (m.msgId !== MsgId.Location || m.opaque) throw new Error('not a location');
    expect(m.body.extras).toEqual({ satellites: 5, malformed: '3104ff' });
  });

  it('items with an unexpected length go to unknown', () => {
    const wire = encodeMessage(
      { phone: '1', serial: 1 },
      {
        msgId: MsgId.Location,
        body: {
          latitude: 1,
          longitude: 1,
          time: T0,
          extras: {
            unknown: [
              { id: 0x01, hex: '0102' },
              { id: 0x30, hex: '0102' },
            ],
          },
        },
      },
    );
    const m = decodeFrame(wire);
    if (m.msgId !== MsgId.Location || m.opaque) throw new Error('not a location');
    expect(m.body.extras.mileageKm).toBeUndefined();
    expect(m.body.extras.unknown).toEqual([
      { id: 0x01, hex: '0102' },
      { id: 0x30, hex: '0102' },
    ]);
  });

  it('0x0201 location query response', () => {
    const m = roundTrip({ msgId: MsgId.LocationQueryResponse, body: { replySerial: 5, location: FULL_LOCATION } }, 2019);
    if (m.msgId !== MsgId.LocationQueryResponse) throw new Error('not 0x0201');
    expect(m.body.replySerial).toBe(5);
    expect(m.body.location.latitude).toBe(-33.868819);
    expect(m.body.location.extras.satellites).toBe(19);
  });
});

describe('0x0704 batch upload', () => {
  const item = (i: number): LocationInput => ({
    latitude: 22 + i / 1000,
    longitude: 114,
    speed: i,
    time: 1_700_000_000_000 + i * 1000,
    extras: { mileageKm: i },
  });

  it.each([
    [0, false],
    [1, true],
  ])('type %s (blindArea %s) round-trips', (type, blindArea) => {
    const m = roundTrip({ msgId: MsgId.BatchLocation, body: { type, items: [item(1), item(2), item(3)] } });
    if (m.msgId !== MsgId.BatchLocation) throw new Error('not a batch');
    expect(m.body).toMatchObject({ count: 3, type, blindArea });
    expect(m.body.items.map((x) => x.speed)).toEqual([1, 2, 3]);
    expect(m.body.items[2].time).toBe(new Date(1_700_000_003_000).toISOString());
  });

  it('keeps the parsable items when a length is wrong', () => {
    const wire = encodeMessage({ phone: '1', serial: 1 }, { msgId: MsgId.BatchLocation, body: { type: 0, items: [item(1), item(2)] } });
    const m = decodeFrame(
      patchPacket(wire, (p) => {
        // Second item's length WORD: after header(12) + count/type(3) + len(2) + item 1.
        const first = p.readUInt16BE(12 + 3);
        p.writeUInt16BE(0x0300, 12 + 3 + 2 + first); // far past the end
      }),
    );
    if (m.msgId !== MsgId.BatchLocation || m.opaque) throw new Error('not a batch');
    expect(m.body.count).toBe(2);
    expect(m.body.items).toHaveLength(1);
    expect(m.body.malformed?.startsWith('0300')).toBe(true);
  });
});

describe('0x0900 transparent data', () => {
  it('ASCII (0x40) and user-defined bytes', () => {
    const a = roundTrip({ msgId: MsgId.Transparent, body: { type: 0x40, text: 'GTSL|1|driver-42' } });
    expect(a.body).toMatchObject({ type: 0x40, typeName: 'ascii', text: 'GTSL|1|driver-42' });
    const b = roundTrip({ msgId: MsgId.Transparent, body: { type: 0xf5, content: 'deadbeef' } });
    expect(b.body).toEqual({ type: 0xf5, typeName: 'userDefined', content: 'deadbeef' });
  });

  it('$OBD-RT sentence in type 0x41', () => {
    const m = roundTrip({ msgId: MsgId.Transparent, body: { type: 0x41, obdRt: { power: 12.6, rpm: 750, speed: 0, coolant: 80 } } });
    if (m.msgId !== MsgId.Transparent) throw new Error('not 0x0900');
    expect(m.body.typeName).toBe('serial1');
    expect(m.body.obdRt).toEqual({ power: 12.6, rpm: 750, speed: 0, coolant: 80 });
  });

  it('OBD record with DTCs (type 0xF0, subtype 02) and position', () => {
    const dtcs = [
      { systemId: 1, dtc: 0x0300, status: 8, text: 'P0300' },
      { systemId: 1, dtc: 0x0171, status: 8, text: 'P0171' },
      { systemId: 2, dtc: 0xc100, status: 0, text: 'U0100' },
    ];
    const m = roundTrip({
      msgId: MsgId.Transparent,
      body: {
        type: 0xf0,
        obdRecord: {
          time: '2024-03-01T08:00:00Z',
          archive: true,
          vehicleType: 1,
          subtype: 2,
          dtcs,
          position: { status: 3, latitude: 22.5, longitude: -114.25 },
        },
      },
    });
    if (m.msgId !== MsgId.Transparent) throw new Error('not 0x0900');
    expect(m.body.obdRecord).toMatchObject({
      time: '2024-03-01T08:00:00.000Z',
      archive: true,
      vehicleType: 1,
      subtype: 2,
      subtypeName: 'dtcs',
      dtcs,
      dtcCodes: ['P0300', 'P0171', 'U0100'],
      position: { latitude: 22.5, longitude: -114.25, status: expect.objectContaining({ accOn: true, west: true }) },
    });
  });

  it('OBD record subtypes 01 (PIDs), 03 (alarms), 0B (VIN), 15 (event)', () => {
    const pids = roundTrip({
      msgId: MsgId.Transparent,
      body: {
        type: 0xf0,
        obdRecord: {
          time: T0,
          subtype: 1,
          pids: [
            { id: 0x0102, hex: '0001e240' },
            { id: 0x052a, hex: '1388' },
            { id: 0xfeec, hex: Buffer.from('LSVAU2180N2123456').toString('hex') },
          ],
        },
      },
    });
    if (pids.msgId !== MsgId.Transparent) throw new Error('not 0x0900');
    expect(pids.body.obdRecord?.values).toEqual({ odometerKm: 12345.6, fuelLevel: 50, vin: 'LSVAU2180N2123456' });
    const alarms = roundTrip({
      msgId: MsgId.Transparent,
      body: {
        type: 0xf0,
        obdRecord: {
          time: T0,
          subtype: 3,
          alarms: [
            { id: 0x05, hex: '01' },
            { id: 0x07, hex: '' },
          ],
        },
      },
    });
    if (alarms.msgId !== MsgId.Transparent) throw new Error('not 0x0900');
    expect(alarms.body.obdRecord).toMatchObject({
      subtypeName: 'alarms',
      alarms: [
        { id: 0x05, hex: '01' },
        { id: 0x07, hex: '' },
      ],
    });
    const vin = roundTrip({
      msgId: MsgId.Transparent,
      body: { type: 0xf0, obdRecord: { time: T0, subtype: 0x0b, vin: 'LSVAU2180N2123456' } },
    });
    if (vin.msgId !== MsgId.Transparent) throw new Error('not 0x0900');
    expect(vin.body.obdRecord).toMatchObject({ subtypeName: 'vin', vin: 'LSVAU2180N2123456' });
    const ev = roundTrip({ msgId: MsgId.Transparent, body: { type: 0xf0, obdRecord: { time: T0, subtype: 0x15, event: 52 } } });
    if (ev.msgId !== MsgId.Transparent) throw new Error('not 0x0900');
    expect(ev.body.obdRecord).toMatchObject({ subtypeName: 'events', event: 52 });
  });
});

describe('unknown and encrypted messages', () => {
  it('an unknown message id decodes as opaque bytes', () => {
    const m = decodeFrame(encodeFrame({ msgId: 0x0f01, phone: '1', serial: 2 }, Buffer.from('a1b2', 'hex')));
    expect(m).toMatchObject({ msgId: 0x0f01, opaque: 'unknown' });
    expect(m.body).toEqual(Buffer.from('a1b2', 'hex'));
  });

  it('an RSA-encrypted body (bit 10) is kept opaque', () => {
    const m = decodeFrame(encodeFrame({ msgId: 0x0200, phone: '1', serial: 2, encryption: 1 }, Buffer.alloc(28)));
    expect(m).toMatchObject({ msgId: 0x0200, opaque: 'encrypted', encryption: 1 });
  });
});
