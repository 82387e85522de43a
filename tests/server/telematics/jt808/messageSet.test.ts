/**
 * The rest of the JT/T 808-2019 message set (and the 2013 messages 2019 dropped): for each, the body
 * bytes written out by hand from the standard's layout decode to the named fields, the decoded body
 * re-encodes to the same bytes, and a malformed body is refused with BAD_BODY, never half-read.
 */

import fc from 'fast-check';
import { gzipSync } from 'node:zlib';
import {
  decodeFrame,
  encodeFrame,
  encodeGbk,
  encodeMessage,
  isJt808DecodeError,
  Jt808DecodeError,
  MsgId,
  type DecodedMessage,
  type Jt808BodyInput,
  type Jt808Version,
  type KnownMessage,
} from '../../../../server/telematics/jt808/codec';

const PHONE = '13912345678';

function frameOf(msgId: number, bodyHex: string, version: Jt808Version): Buffer {
  return encodeFrame(
    { msgId, phone: PHONE, serial: 5, version: version === 2011 ? 2013 : version },
    Buffer.from(bodyHex.replace(/\s+/g, ''), 'hex'),
  );
}

function decodeAs(msgId: number, bodyHex: string, version: Jt808Version): KnownMessage {
  const m: DecodedMessage = decodeFrame(frameOf(msgId, bodyHex, version), { assume2011: version === 2011 });
  if (m.opaque !== undefined) throw new Error(`opaque ${m.opaque}`);
  expect(m.msgId).toBe(msgId);
  return m;
}

function badBody(msgId: number, bodyHex: string, version: Jt808Version): Jt808DecodeError {
  try {
    decodeAs(msgId, bodyHex, version);
  } catch (e) {
    if (e instanceof Jt808DecodeError) return e;
    throw e;
  }
  throw new Error(`0x${msgId.toString(16)} decoded a malformed body`);
}

/** Decode the layout bytes, compare, re-encode the decoded body: the same bytes. */
function layout(msgId: number, bodyHex: string, version: Jt808Version, expected: object): KnownMessage {
  const m = decodeAs(msgId, bodyHex, version);
  expect(m.body).toMatchObject(expected);
  const again = encodeMessage({ phone: PHONE, serial: 5, version: m.version }, m as Jt808BodyInput);
  expect(again.toString('hex')).toBe(frameOf(msgId, bodyHex, version).toString('hex'));
  return m;
}

function gbkHex(text: string): string {
  return encodeGbk(text).toString('hex');
}

/** BYTE length + GBK. */
function gbk8Hex(text: string): string {
  const b = encodeGbk(text);
  return b.length.toString(16).padStart(2, '0') + b.toString('hex');
}

// BCD 24 01 01 08 00 00 in GMT+8.
const T = '240101080000';
const T_ISO = '2024-01-01T00:00:00.000Z';
// A 0x0200 fixed part: no alarm, ACC on + fixed, 31.230416 N 121.473701 E, 12 m, 60.5 km/h, 90°, T.
const LOC = '00000000 00000003 01dc8830 073d8ca5 000c 025d 005a' + T;

describe('server time and retransmission (2019)', () => {
  it('0x0004 and 0x8004', () => {
    expect(layout(MsgId.QueryServerTime, '', 2019, {}).body).toEqual({});
    layout(MsgId.ServerTime, '240101000000', 2019, { time: T_ISO });
    expect(badBody(MsgId.ServerTime, '2401010000', 2019).code).toBe('BAD_BODY');
  });

  it('0x8003 counts packages in a BYTE (2013) and a WORD (2019); 0x0005 likewise', () => {
    layout(MsgId.RetransmitRequest, '0010 02 0003 0005', 2013, { firstSerial: 16, packageIds: [3, 5] });
    layout(MsgId.RetransmitRequest, '0010 0002 0003 0005', 2019, { firstSerial: 16, packageIds: [3, 5] });
    layout(MsgId.TerminalRetransmitRequest, '0010 0001 0007', 2019, { firstSerial: 16, packageIds: [7] });
    expect(badBody(MsgId.RetransmitRequest, '0010 03 0003 0005', 2013).message).toMatch(/package id 3/);
    expect(badBody(MsgId.TerminalRetransmitRequest, '0010 0001 0007 00', 2019).message).toMatch(/after the last field/);
  });
});

describe('attributes and remote upgrade', () => {
  const ATTR_2013 =
    '0005' +
    gbkHex('70111') +
    gbkHex('FS-OBD-1').padEnd(40, '0') +
    gbkHex('T12').padEnd(14, '0') +
    '89860012345678901234' +
    '04' +
    gbkHex('H1.0') +
    '06' +
    gbkHex('V2.1.7') +
    '03' +
    '21';
  it('0x8107 empty, 0x0107 with the 2013 and 2019 field widths', () => {
    layout(MsgId.QueryAttributes, '', 2013, {});
    layout(MsgId.AttributesResponse, ATTR_2013, 2013, {
      terminalType: 5,
      makerId: '70111',
      model: 'FS-OBD-1',
      terminalId: 'T12',
      iccid: '89860012345678901234',
      hardwareVersion: 'H1.0',
      firmwareVersion: 'V2.1.7',
      gnss: 3,
      comms: 0x21,
    });
    const attr2019 =
      '0001' +
      gbkHex('70111').padEnd(22, '0') +
      gbkHex('FS').padEnd(60, '0') +
      gbkHex('T12').padEnd(60, '0') +
      '89860012345678901234' +
      '00' +
      '00' +
      '02' +
      '20';
    layout(MsgId.AttributesResponse, attr2019, 2019, { makerId: '70111', model: 'FS', terminalId: 'T12', hardwareVersion: '', gnss: 2 });
    // A 2019 body read with the 2013 widths does not fit.
    expect(badBody(MsgId.AttributesResponse, attr2019, 2013).code).toBe('BAD_BODY');
    expect(badBody(MsgId.AttributesResponse, ATTR_2013.slice(0, -4), 2013).message).toMatch(/gnss|comms/);
  });

  it('0x8108 package with its declared length, 0x0108 result', () => {
    const pkg = '00' + gbkHex('70111') + '05' + gbkHex('2.1.8') + '00000004' + 'deadbeef';
    const m = layout(MsgId.UpgradePackage, pkg, 2013, { type: 0, makerId: '70111', version: '2.1.8' });
    if (m.msgId === MsgId.UpgradePackage) expect(m.body.data.toString('hex')).toBe('deadbeef');
    layout(MsgId.UpgradePackage, '34' + gbkHex('70111').padEnd(22, '0') + '01' + gbkHex('9') + '00000001' + 'ff', 2019, {
      type: 52,
      version: '9',
    });
    // A package shorter than its declared length.
    expect(badBody(MsgId.UpgradePackage, pkg.slice(0, -2), 2013).message).toMatch(/package/);
    layout(MsgId.UpgradeResult, '00 02', 2013, { type: 0, result: 2 });
    expect(badBody(MsgId.UpgradeResult, '00', 2013).code).toBe('BAD_BODY');
  });
});

describe('tracking, alarm confirmation, link check', () => {
  it('0x8202, 0x8203, 0x8204', () => {
    layout(MsgId.TemporaryTracking, '000a 00000e10', 2013, { interval: 10, validity: 3600 });
    expect(badBody(MsgId.TemporaryTracking, '000a', 2013).message).toMatch(/validity/);
    layout(MsgId.AlarmConfirm, '0000 00000009', 2013, { alarmSerial: 0, alarmType: 9 });
    expect(badBody(MsgId.AlarmConfirm, '0000 0009', 2013).code).toBe('BAD_BODY');
    layout(MsgId.LinkCheck, '', 2019, {});
  });
});

describe('events, questions and information (2013)', () => {
  it('0x8301 and 0x0301', () => {
    layout(MsgId.EventSetting, '01 02 01 04' + gbkHex('堵车') + '02 02' + gbkHex('OK'), 2013, {
      action: 1,
      events: [
        { id: 1, text: '堵车' },
        { id: 2, text: 'OK' },
      ],
    });
    expect(decodeAs(MsgId.EventSetting, '00', 2013).body).toEqual({ action: 0, events: [] });
    expect(badBody(MsgId.EventSetting, '01 02 01 04' + gbkHex('堵车'), 2013).message).toMatch(/event id/);
    layout(MsgId.EventReport, '07', 2013, { eventId: 7 });
    expect(badBody(MsgId.EventReport, '', 2013).code).toBe('BAD_BODY');
  });

  it('0x8302 and 0x0302', () => {
    layout(MsgId.Question, '08 04' + gbkHex('到了') + '01 0002' + gbkHex('是') + '02 0002' + gbkHex('否'), 2013, {
      flag: 8,
      question: '到了',
      answers: [
        { id: 1, text: '是' },
        { id: 2, text: '否' },
      ],
    });
    expect(badBody(MsgId.Question, '08 04' + gbkHex('到了') + '01 0009' + gbkHex('是'), 2013).message).toMatch(/answer/);
    layout(MsgId.QuestionAnswer, '0021 02', 2013, { replySerial: 0x21, answerId: 2 });
    expect(badBody(MsgId.QuestionAnswer, '0021', 2013).code).toBe('BAD_BODY');
  });

  it('0x8303, 0x0303, 0x8304', () => {
    layout(MsgId.InfoMenu, '02 01 03 0004' + gbkHex('天气'), 2013, { action: 2, items: [{ type: 3, name: '天气' }] });
    expect(badBody(MsgId.InfoMenu, '02 02 03 0004' + gbkHex('天气'), 2013).code).toBe('BAD_BODY');
    layout(MsgId.InfoDemand, '03 01', 2013, { type: 3, on: 1 });
    layout(MsgId.InfoService, '03 0004' + gbkHex('晴天'), 2013, { type: 3, content: '晴天' });
    expect(badBody(MsgId.InfoService, '03 0010' + gbkHex('晴天'), 2013).message).toMatch(/content/);
  });
});

describe('call back and phone book', () => {
  it('0x8400 and 0x8401', () => {
    layout(MsgId.CallBack, '01' + gbkHex('13800138000'), 2013, { flag: 1, number: '13800138000' });
    expect(badBody(MsgId.CallBack, '00' + gbkHex('1'.repeat(21)), 2013).message).toMatch(/> 20/);
    layout(MsgId.PhoneBook, '02 01 03 0b' + gbkHex('13800138000') + '04' + gbkHex('调度'), 2013, {
      action: 2,
      contacts: [{ flag: 3, number: '13800138000', name: '调度' }],
    });
    expect(badBody(MsgId.PhoneBook, '02 01 03 0b' + gbkHex('13800138000'), 2013).message).toMatch(/name/);
  });
});

describe('vehicle control', () => {
  it('0x8500: a flag in 2013, typed items in 2019; 0x0500 carries the location', () => {
    layout(MsgId.VehicleControl, '01', 2013, { flag: 1 });
    layout(MsgId.VehicleControl, '0001 0001 00', 2019, { items: [{ type: 1, value: 0 }] });
    layout(MsgId.VehicleControl, '0002 0001 01 f001 aabb', 2019, {
      items: [
        { type: 1, value: 1 },
        { type: 0xf001, restHex: 'aabb' },
      ],
    });
    expect(badBody(MsgId.VehicleControl, '0002 0001 01', 2019).message).toMatch(/control type/);
    const m = layout(MsgId.VehicleControlResponse, '0009' + LOC, 2013, { replySerial: 9 });
    if (m.msgId === MsgId.VehicleControlResponse)
      expect(m.body.location).toMatchObject({ latitude: 31.23, longitude: 121.474213, speed: 60.5, time: T_ISO });
    expect(badBody(MsgId.VehicleControlResponse, '0009' + LOC.replace(/\s/g, '').slice(0, 40), 2013).message).toMatch(/location/);
  });
});

describe('terminal-side areas and routes', () => {
  // Bits 0 (by time) and 1 (speed limit).
  const circle2013 = '00 01 00000064 0003 01dc8830 073d8ca5 000001f4' + '000000080000' + '000000180000' + '0050 0a';
  it('0x8600 circles with time and speed; 2019 adds the night speed and the name', () => {
    layout(MsgId.SetCircleAreas, circle2013, 2013, {
      action: 0,
      areas: [
        {
          id: 100,
          attributes: 3,
          centre: { latitude: 31.23, longitude: 121.474213 },
          radius: 500,
          begin: '000000080000',
          end: '000000180000',
          maxSpeed: 80,
          overspeedSeconds: 10,
        },
      ],
    });
    const circle2019 = circle2013 + '003c' + '0004' + gbkHex('仓库');
    layout(MsgId.SetCircleAreas, circle2019, 2019, { areas: [{ id: 100, nightMaxSpeed: 60, name: '仓库' }] });
    // The 2019 tail read as 2013 is bytes after the last field.
    expect(badBody(MsgId.SetCircleAreas, circle2019, 2013).message).toMatch(/after the last field/);
    expect(badBody(MsgId.SetCircleAreas, circle2013.replace(/\s/g, '').slice(0, -2), 2013).message).toMatch(/overspeedSeconds/);
  });

  it('0x8602 rectangles, plain attributes', () => {
    layout(MsgId.SetRectangleAreas, '01 01 00000002 0000 01dc8830 073d8ca5 01dbebf0 073df160', 2013, {
      action: 1,
      areas: [{ id: 2, attributes: 0, topLeft: { latitude: 31.23 }, bottomRight: { latitude: 31.19 } }],
    });
    layout(MsgId.SetRectangleAreas, '01 01 00000002 0000 01dc8830 073d8ca5 01dbebf0 073df160 0000', 2019, { areas: [{ name: '' }] });
    expect(badBody(MsgId.SetRectangleAreas, '01 02 00000002 0000 01dc8830 073d8ca5 01dbebf0 073df160', 2013).code).toBe('BAD_BODY');
  });

  it('0x8604 polygon: the 2019 night speed follows the vertices', () => {
    const poly = '00000003 0002 0050 05 0003 01dc8830 073d8ca5 01dbebf0 073df160 01dc1300 073c6ac0';
    const m = layout(MsgId.SetPolygonArea, poly, 2013, { id: 3, maxSpeed: 80, overspeedSeconds: 5 });
    if (m.msgId === MsgId.SetPolygonArea) expect(m.body.vertices).toHaveLength(3);
    layout(MsgId.SetPolygonArea, poly + '0028 0002' + gbkHex('AB'), 2019, { nightMaxSpeed: 40, name: 'AB' });
    expect(badBody(MsgId.SetPolygonArea, poly.replace('0003 01dc', '0004 01dc'), 2013).message).toMatch(/vertex 4/);
  });

  it('0x8606 route: sections with driving-time and speed rules', () => {
    const route =
      '00000009 0000 0002' + '00000001 00000001 01dc8830 073d8ca5 14 03 0e10 003c 0050 0a' + '00000002 00000001 01dbebf0 073df160 14 00';
    const m = layout(MsgId.SetRoute, route, 2013, { id: 9, attributes: 0 });
    if (m.msgId === MsgId.SetRoute) {
      expect(m.body.points[0]).toMatchObject({ width: 20, tooLongSeconds: 3600, tooShortSeconds: 60, maxSpeed: 80, overspeedSeconds: 10 });
      expect(m.body.points[1]).toEqual({
        pointId: 2,
        sectionId: 1,
        point: { latitude: 31.19, longitude: 121.5 },
        width: 20,
        attributes: 0,
      });
    }
    const route2019 = '00000009 0000 0001' + '00000001 00000001 01dc8830 073d8ca5 14 02 0050 0a 003c' + '0002' + gbkHex('R1');
    layout(MsgId.SetRoute, route2019, 2019, { name: 'R1', points: [{ maxSpeed: 80, nightMaxSpeed: 60 }] });
    expect(badBody(MsgId.SetRoute, route.replace('0000 0002', '0000 0003'), 2013).message).toMatch(/point id/);
  });

  it('deletes (count 0: all), the 2019 query and its answer', () => {
    layout(MsgId.DeleteCircleAreas, '02 00000064 00000065', 2013, { ids: [100, 101] });
    layout(MsgId.DeleteRectangleAreas, '00', 2013, { ids: [] });
    layout(MsgId.DeletePolygonAreas, '01 00000003', 2013, { ids: [3] });
    layout(MsgId.DeleteRoutes, '01 00000009', 2013, { ids: [9] });
    expect(badBody(MsgId.DeleteRoutes, '02 00000009', 2013).message).toMatch(/id 2/);
    layout(MsgId.QueryAreas, '01 00000002 00000064 00000065', 2019, { kind: 1, ids: [100, 101] });
    // A huge count with a few bytes is refused before anything is allocated.
    expect(badBody(MsgId.QueryAreas, '01 ffffffff 00000064', 2019).message).toMatch(/for 4294967295 ids/);
    layout(MsgId.AreasResponse, '01 00000001 ' + circle2013.slice(6), 2019, { kind: 1, count: 1 });
    expect(badBody(MsgId.AreasResponse, '01 0000', 2019).code).toBe('BAD_BODY');
  });
});

describe('driving recorder and CAN data', () => {
  it('0x8700, 0x8701, 0x0700 keep the GB/T 19056 block', () => {
    layout(MsgId.RecorderCollect, '08', 2013, { command: 8, dataHex: '' });
    layout(MsgId.RecorderParams, '82 aa75', 2013, { command: 0x82, dataHex: 'aa75' });
    layout(MsgId.RecorderData, '0031 08 557a0800', 2013, { replySerial: 0x31, command: 8, dataHex: '557a0800' });
    expect(badBody(MsgId.RecorderData, '0031', 2013).message).toMatch(/command/);
    expect(badBody(MsgId.RecorderCollect, '', 2013).code).toBe('BAD_BODY');
  });

  it('0x0705: the id bits and 8 data bytes per frame', () => {
    layout(MsgId.CanData, '0002 0800001234' + 'c00000ff 0102030405060708' + '00000123 1112131415161718', 2013, {
      receivedAt: '0800001234',
      frames: [
        { channel: 1, extended: true, averaged: false, canId: 0xff, dataHex: '0102030405060708' },
        { channel: 0, extended: false, averaged: false, canId: 0x123, dataHex: '1112131415161718' },
      ],
    });
    expect(badBody(MsgId.CanData, '0002 0800001234 c00000ff 0102030405060708 00000123 11', 2013).message).toMatch(/frame 2 data/);
  });
});

describe('driver identity (0x0702, 0x8702)', () => {
  const inserted = (version: Jt808Version) =>
    '01' +
    T +
    '00' +
    gbk8Hex('张三') +
    gbkHex('QC123456').padEnd(40, '0') +
    gbk8Hex('上海运管') +
    '20271231' +
    (version === 2019 ? gbkHex('310101199001011234').padEnd(40, '0') : '');

  it('card inserted, read: 2013 and 2019 (with the ID number)', () => {
    layout(MsgId.DriverIdentity, inserted(2013), 2013, {
      status: 1,
      time: T_ISO,
      readResult: 0,
      name: '张三',
      certificate: 'QC123456',
      issuer: '上海运管',
      validUntil: '20271231',
    });
    layout(MsgId.DriverIdentity, inserted(2019), 2019, { certificate: 'QC123456', idNumber: '310101199001011234' });
    layout(MsgId.RequestDriverIdentity, '', 2013, {});
  });

  it('card removed, card unreadable, and the 2011 layout', () => {
    expect(layout(MsgId.DriverIdentity, '02' + T, 2013, {}).body).toEqual({ status: 2, time: T_ISO });
    expect(layout(MsgId.DriverIdentity, '01' + T + '02', 2019, {}).body).toEqual({ status: 1, time: T_ISO, readResult: 2 });
    const v2011 =
      gbk8Hex('张三') + gbkHex('310101199001011234').padEnd(40, '0') + gbkHex('QC123456').padEnd(80, '0') + '04' + gbkHex('运管');
    expect(layout(MsgId.DriverIdentity, v2011, 2011, {}).body).toEqual({
      name: '张三',
      idNumber: '310101199001011234',
      certificate: 'QC123456',
      issuer: '运管',
    });
  });

  it('a cut record is refused, not half-kept', () => {
    expect(badBody(MsgId.DriverIdentity, inserted(2013).slice(0, -8), 2013).message).toMatch(/validUntil/);
    expect(badBody(MsgId.DriverIdentity, inserted(2013), 2019).message).toMatch(/idNumber/);
    expect(badBody(MsgId.DriverIdentity, '01' + T, 2013).message).toMatch(/readResult/);
  });
});

describe('multimedia', () => {
  it('0x0800 event and 0x0801 data with the basic location (none in 2011)', () => {
    layout(MsgId.MediaEvent, '0000002a 00 00 03 01', 2013, { mediaId: 42, type: 0, format: 0, event: 3, channel: 1 });
    expect(badBody(MsgId.MediaEvent, '0000002a 00 00 03', 2013).message).toMatch(/channel/);
    const m = layout(MsgId.MediaData, '0000002a 00 00 00 01' + LOC + 'ffd8ffe0', 2013, { mediaId: 42, channel: 1 });
    if (m.msgId === MsgId.MediaData) {
      expect(m.body.location).toMatchObject({ latitude: 31.23, time: T_ISO });
      expect(m.body.data.toString('hex')).toBe('ffd8ffe0');
    }
    const old = layout(MsgId.MediaData, '0000002a 00 00 00 01 ffd8', 2011, {});
    if (old.msgId === MsgId.MediaData) expect([old.body.location, old.body.data.toString('hex')]).toEqual([undefined, 'ffd8']);
    expect(badBody(MsgId.MediaData, '0000002a 00 00 00 01 0000', 2013).message).toMatch(/location/);
  });

  it('0x8800 answer with the packages to send again (and the bare id some platforms send)', () => {
    layout(MsgId.MediaDataResponse, '0000002a 02 0003 0006', 2013, { mediaId: 42, missing: [3, 6] });
    layout(MsgId.MediaDataResponse, '0000002a 00', 2013, { mediaId: 42, missing: [] });
    expect(decodeAs(MsgId.MediaDataResponse, '0000002a', 2013).body).toEqual({ mediaId: 42, missing: [] });
    expect(badBody(MsgId.MediaDataResponse, '0000002a 02 0003', 2013).message).toMatch(/package id 2/);
  });

  it('0x8801 take photo and 0x0805 its answer', () => {
    layout(MsgId.TakePhoto, '01 0003 0005 00 02 05 80 40 40 80', 2013, {
      channel: 1,
      command: 3,
      interval: 5,
      save: 0,
      resolution: 2,
      quality: 5,
      brightness: 128,
      contrast: 64,
      saturation: 64,
      chroma: 128,
    });
    expect(badBody(MsgId.TakePhoto, '01 0003 0005 00 02 05 80 40 40', 2013).message).toMatch(/chroma/);
    layout(MsgId.TakePhotoResponse, '0007 00 0002 0000002a 0000002b', 2013, { replySerial: 7, result: 0, mediaIds: [42, 43] });
    layout(MsgId.TakePhotoResponse, '0007 02', 2013, { result: 2, mediaIds: [] });
    expect(badBody(MsgId.TakePhotoResponse, '0007 00 0003 0000002a', 2013).message).toMatch(/mediaId 2/);
  });

  it('0x8802 search, 0x0802 its answer, 0x8803 upload stored, 0x8804 record, 0x8805 upload one', () => {
    layout(MsgId.MediaSearch, '00 00 01 ' + T + ' 240101200000', 2013, {
      type: 0,
      channel: 0,
      event: 1,
      begin: T_ISO,
      end: '2024-01-01T12:00:00.000Z',
    });
    layout(MsgId.MediaSearch, '00 00 01 000000000000 000000000000', 2013, { begin: null, end: null });
    expect(badBody(MsgId.MediaSearch, '00 00 01 ' + T, 2013).message).toMatch(/end/);
    const m = layout(MsgId.MediaSearchResponse, '0008 0001 0000002a 00 01 03' + LOC, 2013, { replySerial: 8 });
    if (m.msgId === MsgId.MediaSearchResponse)
      expect(m.body.items[0]).toMatchObject({ mediaId: 42, channel: 1, event: 3, location: { speed: 60.5 } });
    expect(badBody(MsgId.MediaSearchResponse, '0008 0002 0000002a 00 01 03' + LOC, 2013).message).toMatch(/mediaId/);
    layout(MsgId.StoredMediaUpload, '00 01 00 ' + T + ' 240101200000 01', 2013, { channel: 1, delete: 1 });
    expect(badBody(MsgId.StoredMediaUpload, '00 01 00 ' + T + ' 240101200000', 2013).message).toMatch(/delete/);
    layout(MsgId.RecordSound, '01 001e 00 01', 2013, { command: 1, seconds: 30, save: 0, sampleRate: 1 });
    expect(badBody(MsgId.RecordSound, '01 001e', 2013).code).toBe('BAD_BODY');
    layout(MsgId.SingleMediaUpload, '0000002a 00', 2019, { mediaId: 42, delete: 0 });
    expect(badBody(MsgId.SingleMediaUpload, '0000002a', 2019).message).toMatch(/delete/);
  });
});

describe('pass-through, compressed data, RSA keys', () => {
  it('0x8900 down', () => {
    layout(MsgId.PassThroughDown, '41 24 4f 42 44', 2013, { type: 0x41, contentHex: '244f4244' });
    expect(badBody(MsgId.PassThroughDown, '', 2013).code).toBe('BAD_BODY');
  });

  it('0x0901 inflates the GZIP content; a bad stream or an inflation bomb is refused', () => {
    const inner = Buffer.from('00010000', 'hex');
    const gz = gzipSync(inner);
    layout(MsgId.Compressed, gz.length.toString(16).padStart(8, '0') + gz.toString('hex'), 2013, { contentHex: '00010000' });
    expect(badBody(MsgId.Compressed, '00000004 01020304', 2013).message).toMatch(/not GZIP/);
    expect(badBody(MsgId.Compressed, '00000009 0102', 2013).message).toMatch(/compressed data/);
    // 256 KiB of zeros compresses to a few hundred bytes: over the inflation bound.
    const bomb = gzipSync(Buffer.alloc(256 * 1024));
    expect(bomb.length).toBeLessThan(1023 - 4);
    expect(badBody(MsgId.Compressed, bomb.length.toString(16).padStart(8, '0') + bomb.toString('hex'), 2013).message).toMatch(
      /within 65536/,
    );
  });

  it('0x8A00 and 0x0A00: e and a 128-byte n', () => {
    const n = 'c1'.repeat(128);
    layout(MsgId.PlatformRsaKey, '00010001' + n, 2013, { e: 65537, nHex: n });
    layout(MsgId.TerminalRsaKey, '00000003' + n, 2019, { e: 3, nHex: n });
    expect(badBody(MsgId.TerminalRsaKey, '00010001' + n.slice(2), 2013).message).toMatch(/needs 128/);
  });
});

describe('encoder inputs', () => {
  it('build the media frames the gateway and the simulator send', () => {
    const wire = encodeMessage(
      { phone: PHONE, serial: 1 },
      {
        msgId: MsgId.MediaData,
        body: {
          mediaId: 7,
          type: 0,
          format: 0,
          event: 0,
          channel: 1,
          location: { latitude: 31.2, longitude: 121.5, time: T_ISO },
          data: Buffer.from('ffd8ffd9', 'hex'),
        },
      },
    );
    const m = decodeFrame(wire);
    expect(m.msgId === MsgId.MediaData && m.opaque === undefined && m.body.location?.latitude).toBe(31.2);
    expect(
      decodeFrame(encodeMessage({ phone: PHONE, serial: 2 }, { msgId: MsgId.Compressed, body: { contentHex: 'abcd' } })),
    ).toMatchObject({ body: { contentHex: 'abcd' } });
  });
});

const NEW_IDS = [
  0x0004, 0x8004, 0x8003, 0x0005, 0x8107, 0x0107, 0x8108, 0x0108, 0x8202, 0x8203, 0x8204, 0x8301, 0x0301, 0x8302, 0x0302, 0x8303, 0x0303,
  0x8304, 0x8400, 0x8401, 0x8500, 0x0500, 0x8600, 0x8601, 0x8602, 0x8603, 0x8604, 0x8605, 0x8606, 0x8607, 0x8608, 0x0608, 0x8700, 0x8701,
  0x0700, 0x0702, 0x8702, 0x0705, 0x0800, 0x0801, 0x8800, 0x8801, 0x0805, 0x8802, 0x0802, 0x8803, 0x8804, 0x8805, 0x8900, 0x0901, 0x8a00,
  0x0a00,
];

describe('any body of these ids', () => {
  it('is every id MsgId names beyond the first set', () => {
    for (const id of NEW_IDS) expect(Object.values(MsgId)).toContain(id);
  });

  it('decodes or raises a Jt808DecodeError, never anything else', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...NEW_IDS),
        fc.constantFrom<Jt808Version>(2013, 2019),
        fc.uint8Array({ maxLength: 300 }),
        (id, version, body) => {
          try {
            decodeFrame(encodeFrame({ msgId: id, phone: PHONE, serial: 1, version }, Buffer.from(body)));
          } catch (e) {
            if (!isJt808DecodeError(e)) throw e;
          }
        },
      ),
      { numRuns: 3000 },
    );
  });
});
