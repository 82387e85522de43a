/**
 * The 2019 messages the gateway decodes and keeps, over real TCP on both databases: each is
 * acknowledged once written, its decoded body kept as JSON beside its bytes; a body that does not
 * decode is kept raw with the reason and answered "message error"; 0x0004 gets the server's time.
 * (0x0702 driver identity has a table of its own: tests/server/drivers/driverSessions.test.ts.)
 */
import {
  encodeFrame,
  encodeMessage,
  encodeMessageFrames,
  MsgId,
  type DecodedMessage,
  type Jt808BodyInput,
} from '../../../../server/telematics/jt808/codec';
import { BACKENDS } from '../../../helpers/testServer';
import { demoTerminal, RawClient, startGateway, terminalIdOf, type GatewayHarness } from './harness';

/** A platform answer as [answered id, answered serial, result]; null for anything else. */
const answer = (r: DecodedMessage) =>
  r.msgId === MsgId.PlatformResponse && r.opaque === undefined ? [r.body.replyMsgId, r.body.replySerial, r.body.result] : null;

const T = '2026-11-21T08:00:00.000Z';

describe.each(BACKENDS)('the 2019 message set through the gateway on %s', (backend) => {
  let h: GatewayHarness;
  // Opening PGlite takes a while on a loaded machine.
  beforeAll(async () => {
    h = await startGateway(backend);
  }, 240_000);
  afterAll(() => h.close());

  async function online(phone: string): Promise<RawClient> {
    const raw = await RawClient.open(h.port);
    raw.send(phone, {
      msgId: MsgId.Register,
      body: { province: 1, city: 1, makerId: 'VEND', model: 'ANY', terminalId: phone.slice(-7), plateColor: 1, plate: '' },
    });
    const [reg] = await raw.waitFor(1);
    if (reg.msgId !== MsgId.RegisterResponse || reg.opaque !== undefined || !reg.body.authCode) throw new Error('not registered');
    raw.send(phone, { msgId: MsgId.Auth, body: { code: reg.body.authCode } });
    expect((await raw.waitFor(2))[1]).toMatchObject({ body: { replyMsgId: MsgId.Auth, result: 0 } });
    return raw;
  }

  const kept = async (phone: string) =>
    await h.s.database.db
      .selectFrom('terminal_message')
      .select(['kind', 'msg_id', 'text', 'body_hex'])
      .where('terminal_id', '=', await terminalIdOf(h.s, phone))
      .orderBy('id')
      .execute();

  it('keeps events, media events, attributes and CAN data decoded, acknowledging each once written', async () => {
    const phone = demoTerminal(7);
    const raw = await online(phone);
    const messages: Jt808BodyInput[] = [
      { msgId: MsgId.EventReport, body: { eventId: 7 } },
      { msgId: MsgId.MediaEvent, body: { mediaId: 42, type: 0, format: 0, event: 3, channel: 1 } },
      {
        msgId: MsgId.AttributesResponse,
        body: {
          terminalType: 5,
          makerId: 'VEND',
          model: 'ANY',
          terminalId: 'T1',
          iccid: '89860012345678901234',
          hardwareVersion: 'H1',
          firmwareVersion: 'V2',
          gnss: 3,
          comms: 1,
        },
      },
      {
        msgId: MsgId.CanData,
        body: {
          receivedAt: '0800001234',
          frames: [{ channel: 0, extended: false, averaged: false, canId: 0x123, dataHex: '0102030405060708' }],
        },
      },
    ];
    const serials = messages.map((m) => raw.send(phone, m));
    const replies = await raw.waitFor(2 + messages.length);
    // Each is answered once written; concurrent writes finish in any order.
    const bySerial = (a: (number | null)[] | null, b: (number | null)[] | null) => Number(a?.[1]) - Number(b?.[1]);
    expect(replies.slice(2).map(answer).sort(bySerial)).toEqual(messages.map((m, i) => [m.msgId, serials[i], 0]));
    const rows = new Map((await kept(phone)).map((r) => [r.msg_id, r]));
    expect([...rows.values()].map((r) => r.kind)).toEqual(messages.map(() => 'decoded'));
    expect(JSON.parse(rows.get(MsgId.EventReport)!.text!)).toEqual({ eventId: 7 });
    expect(JSON.parse(rows.get(MsgId.MediaEvent)!.text!)).toEqual({ mediaId: 42, type: 0, format: 0, event: 3, channel: 1 });
    expect(rows.get(MsgId.MediaEvent)!.body_hex).toBe('0000002a00000301');
    expect(JSON.parse(rows.get(MsgId.AttributesResponse)!.text!)).toMatchObject({ model: 'ANY', iccid: '89860012345678901234' });
    expect(JSON.parse(rows.get(MsgId.CanData)!.text!)).toMatchObject({ frames: [{ canId: 0x123 }] });
    raw.destroy();
  });

  it('keeps the JT/T 1078 answers and reports decoded: attributes, passenger counts, resource list, FTP upload end', async () => {
    const phone = demoTerminal(11);
    const raw = await online(phone);
    const messages: Jt808BodyInput[] = [
      {
        msgId: MsgId.VideoAttributes,
        body: {
          audioCoding: 6,
          audioChannels: 1,
          audioSampleRate: 0,
          audioSampleBits: 1,
          audioFrameLength: 320,
          audioOutput: false,
          videoCoding: 98,
          maxAudioChannels: 1,
          maxVideoChannels: 4,
        },
      },
      { msgId: MsgId.PassengerCounts, body: { begin: T, end: T, boarded: 12, alighted: 3 } },
      {
        msgId: MsgId.ResourceList,
        body: {
          replySerial: 4,
          resources: [
            { channel: 1, begin: T, end: T, alarmFlags: 0, videoAlarmFlags: 0, resourceType: 2, stream: 1, storage: 1, size: 1024 },
          ],
        },
      },
      { msgId: MsgId.FtpUploadDone, body: { replySerial: 5, result: 0 } },
    ];
    const serials = messages.map((m) => raw.send(phone, m));
    const replies = await raw.waitFor(2 + messages.length);
    const bySerial = (a: (number | null)[] | null, b: (number | null)[] | null) => Number(a?.[1]) - Number(b?.[1]);
    expect(replies.slice(2).map(answer).sort(bySerial)).toEqual(messages.map((m, i) => [m.msgId, serials[i], 0]));
    const rows = new Map((await kept(phone)).map((r) => [r.msg_id, r]));
    expect([...rows.values()].map((r) => r.kind)).toEqual(messages.map(() => 'decoded'));
    expect(JSON.parse(rows.get(MsgId.VideoAttributes)!.text!)).toMatchObject({ videoCoding: 98, maxVideoChannels: 4 });
    expect(JSON.parse(rows.get(MsgId.PassengerCounts)!.text!)).toEqual({ begin: T, end: T, boarded: 12, alighted: 3 });
    expect(JSON.parse(rows.get(MsgId.ResourceList)!.text!)).toMatchObject({ replySerial: 4, resources: [{ channel: 1, size: 1024 }] });
    expect(rows.get(MsgId.FtpUploadDone)!.body_hex).toBe('000500');
    raw.destroy();
  });

  it('reassembles a photo sent in packages and keeps it with the payload given as its size', async () => {
    const phone = demoTerminal(8);
    const raw = await online(phone);
    const jpeg = Buffer.alloc(3000, 0xab);
    const frames = encodeMessageFrames(
      { phone, serial: 100 },
      {
        msgId: MsgId.MediaData,
        body: { mediaId: 9, type: 0, format: 0, event: 0, channel: 1, location: { latitude: 31.2, longitude: 121.4, time: T }, data: jpeg },
      },
      { maxPacketBody: 512 },
    );
    expect(frames.length).toBe(6);
    for (const f of frames) raw.sendBytes(f);
    const replies = await raw.waitFor(3);
    expect(answer(replies[2])).toEqual([MsgId.MediaData, 100, 0]);
    const [row] = await kept(phone);
    expect(row.kind).toBe('decoded');
    expect(JSON.parse(row.text!)).toMatchObject({ mediaId: 9, channel: 1, location: { latitude: 31.2, time: T }, data: { bytes: 3000 } });
    expect(row.body_hex.length).toBe(2 * (36 + 3000));
    raw.destroy();
  });

  it('keeps a body that does not decode raw with the reason, answers "message error", and carries on', async () => {
    const phone = demoTerminal(9);
    const raw = await online(phone);
    // A media event cut before its event code.
    const cut = encodeFrame({ msgId: MsgId.MediaEvent, phone, serial: 60 }, Buffer.from('0000002a0000', 'hex'));
    raw.sendBytes(cut);
    raw.send(phone, { msgId: MsgId.Heartbeat });
    const replies = await raw.waitFor(4);
    // The heartbeat is answered at once, the kept body once written: in either order.
    expect(replies.slice(2).map(answer)).toEqual(
      expect.arrayContaining([
        [MsgId.MediaEvent, 60, 2],
        [MsgId.Heartbeat, 3, 0],
      ]),
    );
    expect(await kept(phone)).toEqual([
      {
        kind: 'malformed',
        msg_id: MsgId.MediaEvent,
        text: expect.stringMatching(/BAD_BODY: 0x0800: event needs 1 bytes/),
        body_hex: '0000002a0000',
      },
    ]);
    expect(raw.closed).toBe(false);
    raw.destroy();
  });

  it('answers 0x0004 with the server time (UTC) and refuses platform messages sent up as unsupported', async () => {
    const phone = demoTerminal(10);
    const raw = await online(phone);
    const before = Date.now() - 1000;
    raw.send(phone, { msgId: MsgId.QueryServerTime }, 2013);
    raw.socket.write(
      encodeMessage(
        { phone, serial: 77 },
        {
          msgId: MsgId.TakePhoto,
          body: {
            channel: 1,
            command: 1,
            interval: 0,
            save: 0,
            resolution: 1,
            quality: 5,
            brightness: 1,
            contrast: 1,
            saturation: 1,
            chroma: 1,
          },
        },
      ),
    );
    const replies = await raw.waitFor(4);
    const time = replies[2];
    if (time.msgId !== MsgId.ServerTime || time.opaque !== undefined) throw new Error(`expected 0x8004, got ${time.msgId}`);
    const t = Date.parse(time.body.time ?? '');
    expect(t).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(t).toBeLessThanOrEqual(Date.now());
    expect(answer(replies[3])).toEqual([MsgId.TakePhoto, 77, 3]);
    expect(await kept(phone)).toEqual([]);
    raw.destroy();
  });
});
