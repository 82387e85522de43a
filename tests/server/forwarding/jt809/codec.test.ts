/**
 * The JT/T 809 codec against the standard's layout: frames assembled byte by byte here, the CRC's
 * check value, the encryption against a BigInt reading of its formula, each message both ways,
 * and malformed frames refused with their code.
 */

import {
  FrameSplitter,
  MSG,
  SUB,
  crcCcitt,
  decodeMessage,
  decodePacket,
  encodeCarInfo,
  encodeCode,
  encodeGnss2011,
  encodeGnss2019,
  encodeLoginRequest,
  encodeLoginResponse,
  encodeLogoutRequest,
  encodePacket,
  encodeVehicleEnvelope,
  encodeVerifyCode,
  encodeWarnEnvelope,
  encodeWarnInfo,
  escapeFrame,
  noPlatforms,
  unescapeFrame,
  xcrypt,
  type Jt809Cipher,
  type Jt809Message,
} from '../../../../server/forwarding/jt809';

const cipher: Jt809Cipher = { m1: 30_000_000, ia1: 20_000_000, ic1: 20_000_000 };

/** The encryption as the standard writes it, in exact integers. */
function referenceCrypt(data: Buffer, key: number, c: Jt809Cipher): Buffer {
  const out = Buffer.from(data);
  let k = BigInt(key === 0 ? 1 : key);
  for (let i = 0; i < out.length; i++) {
    k = (BigInt(c.ia1) * (k % BigInt(c.m1)) + BigInt(c.ic1)) % 2n ** 32n;
    out[i] ^= Number((k >> 20n) & 0xffn);
  }
  return out;
}

const codeOf = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return (e as { code?: string }).code ?? String(e);
  }
  return 'no error';
};

/** A message through the whole codec: body → packet → frame → packet → body. */
function roundTrip(msgId: number, body: Buffer, edition: 2011 | 2019 = 2019, key?: number): Jt809Message {
  const frame = encodePacket({ sn: 7, msgId, accessCode: 12345678, key, time: 1_765_000_000 }, body, { edition, cipher });
  const p = decodePacket(frame, { edition, cipher });
  expect(p.header).toMatchObject({ sn: 7, msgId, accessCode: 12345678, encrypted: key !== undefined });
  return decodeMessage(p.header.msgId, p.body, edition);
}

describe('CRC and encryption', () => {
  it('gives the CRC-CCITT check value of "123456789"', () => {
    expect(crcCcitt(Buffer.from('123456789'))).toBe(0x29b1);
  });

  it('encrypts as the formula reads and decrypts back', () => {
    const data = Buffer.from('0123456789abcdef粤B12345', 'utf8');
    for (const key of [0, 1, 0x12345678, 0xffffffff]) {
      const c = { m1: 0xfffffff0, ia1: 0x9e3779b9, ic1: 0x7f4a7c15 };
      for (const k of [cipher, c]) {
        const enc = xcrypt(data, key, k);
        expect(enc).toEqual(referenceCrypt(data, key, k));
        expect(enc.equals(data)).toBe(false);
        expect(xcrypt(enc, key, k)).toEqual(data);
      }
    }
  });

  it('refuses an M1 of 0', () => {
    expect(() => xcrypt(Buffer.from([1]), 1, { m1: 0, ia1: 1, ic1: 1 })).toThrow(/M1/);
  });
});

describe('framing', () => {
  it('escapes each flag and each escape lead, and back', () => {
    const packet = Buffer.from([0x01, 0x5b, 0x5a, 0x5d, 0x5e, 0x02]);
    const frame = escapeFrame(packet);
    expect(frame.toString('hex')).toBe('5b' + '01' + '5a01' + '5a02' + '5e01' + '5e02' + '02' + '5d');
    expect(unescapeFrame(frame)).toEqual(packet);
  });

  it('refuses a bad escape, a missing flag and a stray flag', () => {
    expect(codeOf(() => unescapeFrame(Buffer.from('5b015a035d', 'hex')))).toBe('BAD_ESCAPE');
    expect(codeOf(() => unescapeFrame(Buffer.from('5b015e5d', 'hex')))).toBe('BAD_ESCAPE');
    expect(codeOf(() => unescapeFrame(Buffer.from('5b0102', 'hex')))).toBe('BAD_FLAG');
    expect(codeOf(() => unescapeFrame(Buffer.from('5b015b025d', 'hex')))).toBe('BAD_FLAG');
  });

  it('splits a stream cut anywhere, skipping noise, a broken frame and an overlong one', () => {
    const a = encodePacket({ sn: 1, msgId: MSG.UP_LINKTEST_REQ, accessCode: 1 }, Buffer.alloc(0), { edition: 2019 });
    const b = encodePacket({ sn: 2, msgId: MSG.UP_LINKTEST_RSP, accessCode: 1 }, Buffer.from([0x5b, 0x5d]), { edition: 2019 });
    const stream = Buffer.concat([Buffer.from('0000', 'hex'), a, Buffer.from('5b0102', 'hex'), b]);
    for (let cut = 0; cut <= stream.length; cut++) {
      const s = new FrameSplitter();
      const frames = [...s.push(stream.subarray(0, cut)), ...s.push(stream.subarray(cut))];
      expect(frames).toEqual([a, b]);
      expect(s.skipped).toBe(5);
    }
    const s = new FrameSplitter(40);
    expect(s.push(Buffer.concat([Buffer.from([0x5b]), Buffer.alloc(50, 1), Buffer.from([0x5d]), a]))).toEqual([a]);
    expect(s.tooLong).toBe(1);
  });
});

describe('packet', () => {
  it('writes the 2019 header as the table lays it out', () => {
    const frame = encodePacket(
      { sn: 0x01020304, msgId: MSG.UP_LINKTEST_REQ, accessCode: 0x00bc614e, version: [1, 2, 15], time: 0x5f5e1000 },
      Buffer.alloc(0),
      { edition: 2019 },
    );
    const p = unescapeFrame(frame);
    const expected = Buffer.from(
      '00000022' + // MSG_LENGTH: 1 + 30 + 0 + 2 + 1
        '01020304' + // MSG_SN
        '1005' + // MSG_ID
        '00bc614e' + // MSG_GNSSCENTERID
        '01020f' + // VERSION_FLAG
        '00' + // ENCRYPT_FLAG
        '00000000' + // ENCRYPT_KEY
        '000000005f5e1000', // TIME
      'hex',
    );
    expect(p.subarray(0, 30)).toEqual(expected);
    expect(p.readUInt16BE(30)).toBe(crcCcitt(expected));
    expect(p.length).toBe(32);
  });

  it('writes the 22-byte 2011 header', () => {
    const frame = encodePacket({ sn: 1, msgId: MSG.UP_LINKTEST_REQ, accessCode: 2 }, Buffer.alloc(0), { edition: 2011 });
    expect(unescapeFrame(frame).readUInt32BE(0)).toBe(26);
    expect(decodePacket(frame, { edition: 2011 }).header).toMatchObject({
      length: 26,
      sn: 1,
      accessCode: 2,
      time: null,
      version: [1, 0, 0],
    });
  });

  it('encrypts the body only, with the header key, and reads it back', () => {
    const body = encodeLoginResponse({ result: 0, verifyCode: 0xabcdef01 });
    const frame = encodePacket({ sn: 1, msgId: MSG.UP_CONNECT_RSP, accessCode: 9, key: 0x1234 }, body, { edition: 2019, cipher });
    const p = unescapeFrame(frame);
    expect(p[17]).toBe(1);
    expect(p.readUInt32BE(18)).toBe(0x1234);
    expect(p.subarray(30, 35)).toEqual(referenceCrypt(body, 0x1234, cipher));
    expect(decodePacket(frame, { edition: 2019, cipher }).body).toEqual(body);
    expect(codeOf(() => decodePacket(frame, { edition: 2019 }))).toBe('NO_KEY');
  });

  it('refuses a wrong CRC, a wrong length and a short packet', () => {
    const good = unescapeFrame(encodePacket({ sn: 1, msgId: MSG.UP_LINKTEST_REQ, accessCode: 2 }, Buffer.from([1, 2]), { edition: 2019 }));
    const crcBad = Buffer.from(good);
    crcBad[31] ^= 0xff;
    expect(codeOf(() => decodePacket(escapeFrame(crcBad), { edition: 2019 }))).toBe('BAD_CRC');
    const lenBad = Buffer.from(good);
    lenBad.writeUInt32BE(40, 0);
    lenBad.writeUInt16BE(crcCcitt(lenBad, 0, lenBad.length - 2), lenBad.length - 2);
    expect(codeOf(() => decodePacket(escapeFrame(lenBad), { edition: 2019 }))).toBe('BAD_LENGTH');
    expect(codeOf(() => decodePacket(escapeFrame(good.subarray(0, 20)), { edition: 2019 }))).toBe('TRUNCATED');
    // Nothing in a frame tells the edition: a 2019 frame read as 2011 has the header's TIME in front of its body.
    expect(decodePacket(escapeFrame(good), { edition: 2011 }).body.length).toBe(8 + 2);
  });
});

describe('messages', () => {
  const vehicle = { vehicleNo: '粤B12345', vehicleColor: 2 };

  it('login 0x1001 in both editions, laid out field by field', () => {
    const login = { userId: 1001, password: 'pw123', accessCode: 12345678, downLinkIp: '10.0.0.5', downLinkPort: 9001 };
    const b19 = encodeLoginRequest(login, 2019);
    expect(b19.length).toBe(4 + 8 + 4 + 32 + 2);
    expect(b19.readUInt32BE(0)).toBe(1001);
    expect(b19.subarray(4, 12).toString('latin1')).toBe('pw123\0\0\0');
    expect(b19.readUInt32BE(12)).toBe(12345678);
    expect(b19.subarray(16, 24).toString('latin1')).toBe('10.0.0.5');
    expect(b19.readUInt16BE(48)).toBe(9001);
    expect(roundTrip(MSG.UP_CONNECT_REQ, b19)).toEqual({ kind: 'loginRequest', login });
    expect(encodeLoginRequest(login, 2011).length).toBe(46);
    expect(roundTrip(MSG.UP_CONNECT_REQ, encodeLoginRequest(login, 2011), 2011)).toEqual({
      kind: 'loginRequest',
      login: { ...login, accessCode: 0 },
    });
    expect(() => encodeLoginRequest({ ...login, password: '123456789' }, 2019)).toThrow(/PASSWORD/);
  });

  it('login answer, logout, heartbeats, sub link and notices', () => {
    expect(roundTrip(MSG.UP_CONNECT_RSP, encodeLoginResponse({ result: 0, verifyCode: 77 }), 2019, 5)).toEqual({
      kind: 'loginResponse',
      response: { result: 0, verifyCode: 77 },
    });
    expect(roundTrip(MSG.UP_DISCONNECT_REQ, encodeLogoutRequest({ userId: 3, password: 'x' }))).toEqual({
      kind: 'logoutRequest',
      logout: { userId: 3, password: 'x' },
    });
    for (const id of [MSG.UP_LINKTEST_REQ, MSG.UP_LINKTEST_RSP, MSG.DOWN_LINKTEST_REQ, MSG.DOWN_LINKTEST_RSP, MSG.UP_DISCONNECT_RSP])
      expect(roundTrip(id, Buffer.alloc(0))).toEqual({ kind: 'empty', msgId: id });
    expect(roundTrip(MSG.DOWN_CONNECT_REQ, encodeVerifyCode(77))).toEqual({ kind: 'subLinkLogin', verifyCode: 77 });
    expect(roundTrip(MSG.DOWN_DISCONNECT_REQ, encodeVerifyCode(77))).toEqual({ kind: 'subLinkLogout', verifyCode: 77 });
    expect(roundTrip(MSG.DOWN_CONNECT_RSP, encodeCode(0))).toEqual({ kind: 'code', msgId: MSG.DOWN_CONNECT_RSP, code: 0 });
    expect(roundTrip(MSG.UP_DISCONNECT_INFORM, encodeCode(1))).toEqual({ kind: 'code', msgId: MSG.UP_DISCONNECT_INFORM, code: 1 });
  });

  it('refuses a short or overlong body naming the field', () => {
    expect(() => decodeMessage(MSG.UP_CONNECT_RSP, Buffer.from([0, 1, 2]), 2019)).toThrow(/BAD_BODY: 0x1002: VERIFY_CODE/);
    expect(() => decodeMessage(MSG.UP_LINKTEST_REQ, Buffer.from([0]), 2019)).toThrow(/BAD_BODY: 0x1005: 1 bytes after/);
    expect(() => decodeMessage(MSG.UP_CONNECT_REQ, Buffer.alloc(49), 2019)).toThrow(/DOWN_LINK_PORT/);
  });

  it('real-time position 0x1202, 2011 GNSS_DATA of 36 bytes', () => {
    const gnss = {
      encrypt: 0,
      day: 7,
      month: 12,
      year: 2026,
      hour: 22,
      minute: 30,
      second: 5,
      longitude: 113.9,
      latitude: 22.5,
      speed: 60,
      recorderSpeed: 58,
      mileageKm: 12345,
      direction: 90,
      altitude: 30,
      state: 3,
      alarm: 1,
    };
    const data = encodeGnss2011(gnss);
    expect(data.length).toBe(36);
    expect(data.subarray(0, 8).toString('hex')).toBe('00070c07ea161e05');
    expect(data.readUInt32BE(8)).toBe(113_900_000);
    const body = encodeVehicleEnvelope({ ...vehicle, dataType: SUB.UP_EXG_MSG_REAL_LOCATION, data });
    expect(body.length).toBe(21 + 1 + 2 + 4 + 36);
    expect(body.readUInt32BE(24)).toBe(36);
    expect(roundTrip(MSG.UP_EXG_MSG, body, 2011)).toEqual({ kind: 'position', vehicle, gnss2011: gnss });
    expect(() => decodeMessage(MSG.UP_EXG_MSG, body.subarray(0, body.length - 1), 2011)).toThrow(/BAD_BODY: 0x1200: DATA needs 36/);
  });

  it('real-time position 0x1202, 2019 layout around a 0x0200 body', () => {
    const gnssData = Buffer.alloc(28, 0x11);
    const platforms = [{ platformId: '44030012345', alarm: 5 }, ...noPlatforms().slice(1)] as const;
    const data = encodeGnss2019({ encrypt: 0, gnssData, platforms: [platforms[0], platforms[1], platforms[2]] });
    expect(data.length).toBe(1 + 4 + 28 + 3 * 15);
    expect(data.readUInt32BE(1)).toBe(28);
    expect(data.subarray(33, 44).toString('latin1')).toBe('44030012345');
    const body = encodeVehicleEnvelope({ ...vehicle, dataType: SUB.UP_EXG_MSG_REAL_LOCATION, data });
    expect(roundTrip(MSG.UP_EXG_MSG, body, 2019, 99)).toEqual({
      kind: 'position',
      vehicle,
      gnss2019: { encrypt: 0, gnssData, platforms: [platforms[0], platforms[1], platforms[2]] },
    });
    const short = encodeGnss2019({ encrypt: 0, gnssData: Buffer.alloc(10), platforms: noPlatforms() });
    expect(() =>
      decodeMessage(MSG.UP_EXG_MSG, encodeVehicleEnvelope({ ...vehicle, dataType: SUB.UP_EXG_MSG_REAL_LOCATION, data: short }), 2019),
    ).toThrow(/GNSS_DATA of 10 bytes/);
    const lying = Buffer.from(data);
    lying.writeUInt32BE(1000, 1);
    expect(() =>
      decodeMessage(MSG.UP_EXG_MSG, encodeVehicleEnvelope({ ...vehicle, dataType: SUB.UP_EXG_MSG_REAL_LOCATION, data: lying }), 2019),
    ).toThrow(/GNSS_DATA needs 1000/);
  });

  it('alarm 0x1400 / 0x1402 (2019)', () => {
    const warn = {
      sourcePlatformId: '44030012345',
      warnType: 0x0001,
      warnTime: 1_765_000_000,
      startTime: 1_765_000_000,
      endTime: 0,
      ...vehicle,
      destinationPlatformId: '',
      drvLineId: 0,
      info: '超速报警 80 km/h',
    };
    const data = encodeWarnInfo(warn);
    expect(data.readUInt16BE(11)).toBe(1);
    expect(Number(data.readBigUInt64BE(13))).toBe(1_765_000_000);
    expect(data.readUInt32BE(11 + 2 + 24 + 21 + 1 + 11 + 4)).toBe(data.length - (11 + 2 + 24 + 21 + 1 + 11 + 4 + 4));
    const body = encodeWarnEnvelope({ dataType: SUB.UP_WARN_MSG_ADPT_INFO, data });
    expect(roundTrip(MSG.UP_WARN_MSG, body)).toEqual({ kind: 'warnInfo', warn });
    expect(() => decodeMessage(MSG.UP_WARN_MSG, body.subarray(0, body.length - 2), 2019)).toThrow(/BAD_BODY: 0x1400/);
  });

  it('static vehicle information 0x1600 / 0x1601', () => {
    const info = [
      ['VIN', 'LSVAU2180N2183294'],
      ['VEHICLE_COLOR', '2'],
      ['VEHICLE_TYPE', '11'],
      ['OWERS_NAME', '华东物流'],
    ] as const;
    const data = encodeCarInfo(info);
    expect(data.toString('latin1').startsWith('VIN:=LSVAU2180N2183294;VEHICLE_COLOR:=2;')).toBe(true);
    const body = encodeVehicleEnvelope({ ...vehicle, dataType: SUB.UP_BASE_MSG_VEHICLE_ADDED_ACK, data });
    expect(roundTrip(MSG.UP_BASE_MSG, body)).toEqual({ kind: 'carInfo', vehicle, info });
    expect(() => encodeCarInfo([['VIN', 'a;b']])).toThrow(/CAR_INFO/);
    const bad = encodeVehicleEnvelope({ ...vehicle, dataType: SUB.UP_BASE_MSG_VEHICLE_ADDED_ACK, data: Buffer.from('VIN') });
    expect(() => decodeMessage(MSG.UP_BASE_MSG, bad, 2019)).toThrow(/no KEY:=value/);
    const ask = encodeVehicleEnvelope({ ...vehicle, dataType: SUB.DOWN_BASE_MSG_VEHICLE_ADDED, data: Buffer.alloc(0) });
    expect(roundTrip(MSG.DOWN_BASE_MSG, ask)).toEqual({ kind: 'carInfoRequest', vehicle });
    const askLong = encodeVehicleEnvelope({ ...vehicle, dataType: SUB.DOWN_BASE_MSG_VEHICLE_ADDED, data: Buffer.alloc(1) });
    expect(() => decodeMessage(MSG.DOWN_BASE_MSG, askLong, 2019)).toThrow(/BAD_BODY: 0x9601/);
  });

  it('answers an unknown id or sub-business as other', () => {
    expect(decodeMessage(0x1300, Buffer.from([1]), 2019)).toMatchObject({ kind: 'other', msgId: 0x1300, dataType: null });
    const body = encodeVehicleEnvelope({ ...vehicle, dataType: 0x1201, data: Buffer.alloc(3) });
    expect(decodeMessage(MSG.UP_EXG_MSG, body, 2019)).toMatchObject({ kind: 'other', dataType: 0x1201 });
  });
});
