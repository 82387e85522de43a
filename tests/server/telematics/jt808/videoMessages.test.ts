/**
 * JT/T 1078-2016 signalling over the 808 session: for each message, the body bytes written out by
 * hand from the standard's layout decode to the named fields, the decoded body re-encodes to the
 * same bytes, and a malformed body is refused with BAD_BODY, never half-read.
 */

import fc from 'fast-check';
import {
  decodeFrame,
  encodeFrame,
  encodeMessage,
  isJt808DecodeError,
  Jt808DecodeError,
  MsgId,
  type DecodedMessage,
  type Jt808BodyInput,
  type KnownMessage,
} from '../../../../server/telematics/jt808/codec';

const PHONE = '13912345678';

function frameOf(msgId: number, bodyHex: string): Buffer {
  return encodeFrame({ msgId, phone: PHONE, serial: 5, version: 2013 }, Buffer.from(bodyHex.replace(/\s+/g, ''), 'hex'));
}

function decodeAs(msgId: number, bodyHex: string): KnownMessage {
  const m: DecodedMessage = decodeFrame(frameOf(msgId, bodyHex));
  if (m.opaque !== undefined) throw new Error(`opaque ${m.opaque}`);
  expect(m.msgId).toBe(msgId);
  return m;
}

function badBody(msgId: number, bodyHex: string): Jt808DecodeError {
  try {
    decodeAs(msgId, bodyHex);
  } catch (e) {
    if (e instanceof Jt808DecodeError) return e;
    throw e;
  }
  throw new Error(`0x${msgId.toString(16)} decoded a malformed body`);
}

/** Decode the layout bytes, compare, re-encode the decoded body: the same bytes. */
function layout(msgId: number, bodyHex: string, expected: object): KnownMessage {
  const m = decodeAs(msgId, bodyHex);
  expect(m.body).toEqual(expected);
  const again = encodeMessage({ phone: PHONE, serial: 5, version: m.version }, m as Jt808BodyInput);
  expect(again.toString('hex')).toBe(frameOf(msgId, bodyHex).toString('hex'));
  return m;
}

// "10.0.0.5" as a BYTE length and its ASCII.
const HOST = '08' + Buffer.from('10.0.0.5').toString('hex');
// BCD 24 01 01 08 00 00 and 08 10 00 in GMT+8.
const T1 = '240101080000';
const T1_ISO = '2024-01-01T00:00:00.000Z';
const T2 = '240101081000';
const T2_ISO = '2024-01-01T00:10:00.000Z';

describe('live audio and video', () => {
  it('0x9003 query attributes: an empty body', () => {
    layout(MsgId.QueryVideoAttributes, '', {});
  });

  it('0x1003 attributes: G.711A mono 8 kHz 16 bit, 320-byte frames, speaker, H.264, 2 audio and 4 video channels', () => {
    layout(MsgId.VideoAttributes, '06 01 00 01 0140 01 62 02 04', {
      audioCoding: 6,
      audioChannels: 1,
      audioSampleRate: 0,
      audioSampleBits: 1,
      audioFrameLength: 320,
      audioOutput: true,
      videoCoding: 98,
      maxAudioChannels: 2,
      maxVideoChannels: 4,
    });
    expect(badBody(MsgId.VideoAttributes, '06 01 00 01 0140 01 62 02').message).toMatch(/0x1003: maxVideoChannels needs 1/);
    expect(badBody(MsgId.VideoAttributes, '06 01 00 01 0140 01 62 02 04 00').message).toMatch(/1 bytes after the last field/);
  });

  it('0x9101 live request: host, TCP 7612, no UDP, channel 2, video only, sub stream', () => {
    layout(MsgId.LiveVideoRequest, HOST + '1dbc 0000 02 01 01', {
      host: '10.0.0.5',
      tcpPort: 7612,
      udpPort: 0,
      channel: 2,
      dataType: 1,
      stream: 1,
    });
    // The host length says 9 bytes where 8 are the address: everything after shifts and the body runs short.
    expect(badBody(MsgId.LiveVideoRequest, '09' + HOST.slice(2) + '1dbc 0000 02 01 01').message).toMatch(/0x9101: stream needs 1/);
    expect(badBody(MsgId.LiveVideoRequest, '').message).toMatch(/host length/);
  });

  it('0x9102 control: close video only on channel 3, switch channel 1 to the main stream', () => {
    layout(MsgId.LiveVideoControl, '03 00 02 00', { channel: 3, command: 0, closeWhat: 2, stream: 0 });
    layout(MsgId.LiveVideoControl, '01 01 00 00', { channel: 1, command: 1, closeWhat: 0, stream: 0 });
    expect(badBody(MsgId.LiveVideoControl, '03 00 02').message).toMatch(/0x9102: stream needs 1/);
  });

  it('0x9105 status: channel 1 lost 12 %', () => {
    layout(MsgId.LiveVideoStatus, '01 0c', { channel: 1, lossRate: 12 });
    expect(badBody(MsgId.LiveVideoStatus, '01').message).toMatch(/0x9105: lossRate/);
  });

  it('0x1005 passenger counts: 12 boarded and 3 alighted in ten minutes', () => {
    layout(MsgId.PassengerCounts, T1 + T2 + '000c 0003', { begin: T1_ISO, end: T2_ISO, boarded: 12, alighted: 3 });
    expect(badBody(MsgId.PassengerCounts, T1 + T2 + '000c').message).toMatch(/0x1005: alighted/);
    // Zeros are no time: null, and written back as zeros.
    layout(MsgId.PassengerCounts, '000000000000' + T2 + '0000 0000', { begin: null, end: T2_ISO, boarded: 0, alighted: 0 });
  });
});

// Channel 1, T1–T2, video alarm bit 0 (video signal lost) and 808 bit 0 (emergency).
const FILTER = '01' + T1 + T2 + '00000001 00000001' + '02 01 01';
const FILTER_FIELDS = {
  channel: 1,
  begin: T1_ISO,
  end: T2_ISO,
  alarmFlags: 1,
  videoAlarmFlags: 1,
  resourceType: 2,
  stream: 1,
  storage: 1,
};

describe('recorded audio and video', () => {
  it('0x9205 query resources: channel 1, a time window, alarm bits, video, main stream and storage', () => {
    layout(MsgId.ResourceQuery, FILTER, FILTER_FIELDS);
    // Every channel, no bounds, any alarm, any resource.
    layout(MsgId.ResourceQuery, '00' + '0'.repeat(24) + '0'.repeat(16) + '03 00 00', {
      channel: 0,
      begin: null,
      end: null,
      alarmFlags: 0,
      videoAlarmFlags: 0,
      resourceType: 3,
      stream: 0,
      storage: 0,
    });
    expect(badBody(MsgId.ResourceQuery, FILTER.slice(0, -2)).message).toMatch(/0x9205: storage/);
  });

  it('0x1205 resource list: the answer to serial 9 with two files, and a list whose count does not match', () => {
    const second = '02' + T1 + T2 + '00000000 80000000' + '00 02 02' + '00001000';
    layout(MsgId.ResourceList, '0009 00000002' + FILTER + '00a00000' + second, {
      replySerial: 9,
      resources: [
        { ...FILTER_FIELDS, size: 0xa00000 },
        {
          channel: 2,
          begin: T1_ISO,
          end: T2_ISO,
          alarmFlags: 0x80000000,
          videoAlarmFlags: 0,
          resourceType: 0,
          stream: 2,
          storage: 2,
          size: 4096,
        },
      ],
    });
    layout(MsgId.ResourceList, '0009 00000000', { replySerial: 9, resources: [] });
    expect(badBody(MsgId.ResourceList, '0009 00000002' + FILTER + '00a00000').message).toMatch(
      /0x1205: 2 resources need 56 bytes, 28 left/,
    );
    expect(badBody(MsgId.ResourceList, '0009 ffffffff').message).toMatch(/0x1205: 4294967295 resources/);
    expect(badBody(MsgId.ResourceList, '0009').message).toMatch(/0x1205: count/);
  });

  it('0x9201 playback: channel 1, video, main stream, fast forward ×4, T1 to the end', () => {
    layout(MsgId.PlaybackRequest, HOST + '1dbc 0000 01 02 01 01 01 03' + T1 + '000000000000', {
      host: '10.0.0.5',
      tcpPort: 7612,
      udpPort: 0,
      channel: 1,
      resourceType: 2,
      stream: 1,
      storage: 1,
      mode: 1,
      speed: 3,
      begin: T1_ISO,
      end: null,
    });
    expect(badBody(MsgId.PlaybackRequest, HOST + '1dbc 0000 01 02 01 01 01 03' + T1).message).toMatch(/0x9201: end needs 6/);
  });

  it('0x9202 playback control: seek channel 1 to T2, pause', () => {
    layout(MsgId.PlaybackControl, '01 05 00' + T2, { channel: 1, command: 5, speed: 0, seekTo: T2_ISO });
    layout(MsgId.PlaybackControl, '01 01 00 000000000000', { channel: 1, command: 1, speed: 0, seekTo: null });
    expect(badBody(MsgId.PlaybackControl, '01 05 00' + T2 + '00').message).toMatch(/after the last field/);
  });

  it('0x9206 upload by FTP and 0x1206 its end', () => {
    const text = (s: string): string => s.length.toString(16).padStart(2, '0') + Buffer.from(s).toString('hex');
    layout(MsgId.FtpUpload, text('ftp.example.com') + '0015' + text('fleet') + text('pw') + text('/video/') + FILTER + '05', {
      server: 'ftp.example.com',
      port: 21,
      user: 'fleet',
      password: 'pw',
      path: '/video/',
      ...FILTER_FIELDS,
      conditions: 5,
    });
    expect(
      badBody(MsgId.FtpUpload, text('ftp.example.com') + '0015' + text('fleet') + text('pw') + text('/video/') + FILTER).message,
    ).toMatch(/0x9206: conditions/);
    layout(MsgId.FtpUploadDone, '0007 01', { replySerial: 7, result: 1 });
    expect(badBody(MsgId.FtpUploadDone, '0007').message).toMatch(/0x1206: result/);
  });
});

const VIDEO_IDS = [0x9003, 0x1003, 0x1005, 0x9101, 0x9102, 0x9105, 0x9201, 0x9202, 0x9205, 0x1205, 0x9206, 0x1206];

describe('any body of these ids', () => {
  it('decodes or raises a Jt808DecodeError, never anything else', () => {
    for (const id of VIDEO_IDS) expect(Object.values(MsgId)).toContain(id);
    fc.assert(
      fc.property(fc.constantFrom(...VIDEO_IDS), fc.uint8Array({ maxLength: 120 }), (id, body) => {
        try {
          decodeFrame(encodeFrame({ msgId: id, phone: PHONE, serial: 1, version: 2019 }, Buffer.from(body)));
        } catch (e) {
          if (!isJt808DecodeError(e)) throw e;
        }
      }),
      { numRuns: 2000 },
    );
  });
});
