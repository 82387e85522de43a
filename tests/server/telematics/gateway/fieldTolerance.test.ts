/**
 * Frames that field terminals send and Traccar accepts, over real TCP against the gateway: each
 * is decoded or kept raw, and none ends the session.
 */
import {
  encodeGbk,
  escapeFrame,
  encodeMessage,
  unframe,
  xorChecksum,
  MsgId,
  type DecodedMessage,
  type Jt808BodyInput,
  type LocationInput,
} from '../../../../server/telematics/jt808/codec';
import { loadConfig } from '../../../../server/config';
import { BACKENDS } from '../../../helpers/testServer';
import { demoTerminal, RawClient, startGateway, terminalIdOf, type GatewayHarness } from './harness';

const T0 = Date.parse('2026-11-21T08:00:00Z');
const at = (i: number): LocationInput => ({
  latitude: 31.2 + i * 1e-4,
  longitude: 121.4,
  speed: 30,
  direction: 0,
  status: { accOn: true, fixed: true },
  time: T0 + i * 1000,
  extras: { mileageKm: 500 + i },
});

/** A well-formed frame with its packet (header..checksum) changed by `edit` before escaping. */
function tampered(phone: string, serial: number, m: Jt808BodyInput, edit: (p: Buffer) => void): Buffer {
  const p = Buffer.from(unframe(encodeMessage({ phone, serial }, m)));
  edit(p);
  return escapeFrame(p);
}
/** A platform answer as [answered id, answered serial, result]; null for anything else. */
const answer = (r: DecodedMessage) =>
  r.msgId === MsgId.PlatformResponse && r.opaque === undefined ? [r.body.replyMsgId, r.body.replySerial, r.body.result] : null;

const flipChecksum = (p: Buffer) => void (p[p.length - 1] ^= 0x5a);
/** Announce `delta` more (or fewer) body bytes than there are, with a checksum that matches. */
const misdeclare = (delta: number) => (p: Buffer) => {
  const props = p.readUInt16BE(2);
  p.writeUInt16BE((props & ~0x3ff) | (((props & 0x3ff) + delta) & 0x3ff), 2);
  p[p.length - 1] = xorChecksum(p, 0, p.length - 1);
};

describe.each(BACKENDS)('field tolerance on %s', (backend) => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGateway(backend, {
      gateway: { checksum: { default: 'refuse', models: { 'SLOPPY-1': 'accept' } }, limits: { maxBadFrames: 4 } },
    });
  });
  afterAll(() => h.close());

  /** Registers with `model` and authenticates on a raw connection. */
  async function online(phone: string, model: string): Promise<RawClient> {
    const raw = await RawClient.open(h.port);
    raw.send(phone, {
      msgId: MsgId.Register,
      body: { province: 1, city: 1, makerId: 'VEND', model, terminalId: phone.slice(-7), plateColor: 1, plate: '' },
    });
    const [reg] = await raw.waitFor(1);
    if (reg.msgId !== MsgId.RegisterResponse || reg.opaque !== undefined || !reg.body.authCode)
      throw new Error(`not registered: ${JSON.stringify(reg.body)}`);
    raw.send(phone, { msgId: MsgId.Auth, body: { code: reg.body.authCode } });
    expect((await raw.waitFor(2))[1]).toMatchObject({ body: { replyMsgId: MsgId.Auth, result: 0 } });
    return raw;
  }

  const extrasAt = async (terminalId: number, i: number) =>
    await h.s.database.db
      .selectFrom('position')
      .select(['extras', 'mileage_km'])
      .where('terminal_id', '=', terminalId)
      .where('device_time', '=', new Date(T0 + i * 1000))
      .executeTakeFirst();

  it('accepts and flags a bad checksum from a model configured so, refuses it from others, and keeps both sessions', async () => {
    const sloppy = demoTerminal(2);
    const strict = demoTerminal(3);
    const a = await online(sloppy, 'SLOPPY-1');
    const b = await online(strict, 'CAREFUL-2');
    a.sendBytes(tampered(sloppy, 10, { msgId: MsgId.Location, body: at(1) }, flipChecksum));
    expect((await a.waitFor(3))[2]).toMatchObject({ body: { replyMsgId: MsgId.Location, replySerial: 10, result: 0 } });
    const stored = await extrasAt(await terminalIdOf(h.s, sloppy), 1);
    expect(stored?.extras).toMatchObject({ frame: { checksumMismatch: true } });

    // More refused frames than maxBadFrames: the strict terminal's session stays.
    for (let k = 0; k < 6; k++) b.sendBytes(tampered(strict, 20 + k, { msgId: MsgId.Location, body: at(2) }, flipChecksum));
    const replies = await b.waitFor(8);
    expect(replies.slice(2).map((r) => answer(r)?.[2])).toEqual([2, 2, 2, 2, 2, 2]);
    expect(await extrasAt(await terminalIdOf(h.s, strict), 2)).toBeUndefined();
    b.send(strict, { msgId: MsgId.Heartbeat });
    expect((await b.waitFor(9))[8]).toMatchObject({ body: { replyMsgId: MsgId.Heartbeat, result: 0 } });
    expect(b.closed).toBe(false);
    a.destroy();
    b.destroy();
  });

  it('reads a body whose declared length disagrees with the bytes, either way', async () => {
    const phone = demoTerminal(4);
    const raw = await online(phone, 'ANY');
    raw.sendBytes(tampered(phone, 30, { msgId: MsgId.Location, body: at(3) }, misdeclare(-5)));
    raw.sendBytes(tampered(phone, 31, { msgId: MsgId.Location, body: at(4) }, misdeclare(+7)));
    const replies = await raw.waitFor(4);
    expect(replies.slice(2).map(answer)).toEqual([
      [MsgId.Location, 30, 0],
      [MsgId.Location, 31, 0],
    ]);
    const id = await terminalIdOf(h.s, phone);
    const three = await extrasAt(id, 3);
    expect(Number(three?.mileage_km)).toBeCloseTo(503);
    expect(three?.extras).toMatchObject({ frame: { declaredLength: expect.any(Number) } });
    expect(await extrasAt(id, 4)).toBeDefined();
    expect(h.gateway.stats.lengthMismatches).toBeGreaterThanOrEqual(2);
    raw.destroy();
  });

  it('decodes vendor battery, power and signal items and keeps unknown ones raw', async () => {
    const phone = demoTerminal(5);
    const raw = await online(phone, 'ANY');
    // Built item by item as the vendors send them: 0xD4 level, 0x69 battery, 0x61 power, 0xE4
    // charging + level, 0x30 signal, and 0xFA that nobody documents.
    const body = Buffer.from(unframe(encodeMessage({ phone, serial: 40 }, { msgId: MsgId.Location, body: { ...at(5), extras: {} } })));
    const items = Buffer.from('d40155' + '69020190' + '610204d8' + 'e402014b' + '300117' + 'fa03010203', 'hex');
    const p = Buffer.concat([body.subarray(0, body.length - 1), items, Buffer.alloc(1)]);
    p.writeUInt16BE((p.readUInt16BE(2) & ~0x3ff) | (p.length - 13), 2);
    p[p.length - 1] = xorChecksum(p, 0, p.length - 1);
    raw.sendBytes(escapeFrame(p));
    expect((await raw.waitFor(3))[2]).toMatchObject({ body: { replySerial: 40, result: 0 } });
    const stored = await extrasAt(await terminalIdOf(h.s, phone), 5);
    expect(stored?.extras).toMatchObject({
      batteryLevel: 75, // 0xE4 came last
      batteryV: 4,
      powerV: 12.4,
      charging: true,
      signalStrength: 0x17,
      // Vendor items stay as sent too, in wire order; 0xFA is only that.
      unknown: [
        { id: 0xd4, hex: '55' },
        { id: 0x69, hex: '0190' },
        { id: 0x61, hex: '04d8' },
        { id: 0xe4, hex: '014b' },
        { id: 0xfa, hex: '010203' },
      ],
    });
    raw.destroy();
  });

  it('keeps a 0x0701 waybill as text and a vendor message id raw, acknowledging both', async () => {
    const phone = demoTerminal(6);
    const raw = await online(phone, 'ANY');
    const waybill = '运单 WB-2026-11-21 货物: 钢材 12t';
    raw.send(phone, { msgId: MsgId.Waybill, body: { text: waybill } });
    // A vendor id the codec does not know (Traccar's 0x5501 family), then a heartbeat: still served.
    raw.send(phone, { msgId: MsgId.Heartbeat });
    const vendor = Buffer.from(unframe(encodeMessage({ phone, serial: 50 }, { msgId: MsgId.Heartbeat, body: { extraHex: 'a1b2c3' } })));
    vendor.writeUInt16BE(0x5501, 0);
    vendor[vendor.length - 1] = xorChecksum(vendor, 0, vendor.length - 1);
    raw.sendBytes(escapeFrame(vendor));
    const replies = await raw.waitFor(5);
    expect(replies.slice(2).map((r) => answer(r)?.filter((_, k) => k !== 1))).toEqual([
      [MsgId.Waybill, 0],
      [MsgId.Heartbeat, 0],
      [0x5501, 0],
    ]);
    const id = await terminalIdOf(h.s, phone);
    const kept = await h.s.database.db.selectFrom('terminal_message').selectAll().where('terminal_id', '=', id).orderBy('id').execute();
    expect(kept.map((k) => [k.kind, k.msg_id, k.text, k.body_hex])).toEqual([
      ['waybill', MsgId.Waybill, waybill, encodeGbk(waybill).toString('hex')],
      ['vendor', 0x5501, null, 'a1b2c3'],
    ]);
    expect(raw.closed).toBe(false);
    raw.destroy();
  });
});

describe('the checksum policy from the environment', () => {
  it('reads a default and per-model actions, and refuses bad values naming the setting', () => {
    expect(loadConfig({}).jt808Checksum).toEqual({ default: 'refuse', models: {} });
    expect(loadConfig({ JT808_BAD_CHECKSUM: 'accept', JT808_BAD_CHECKSUM_MODELS: 'BSJ-A6=refuse, C5 = accept' }).jt808Checksum).toEqual({
      default: 'accept',
      models: { 'BSJ-A6': 'refuse', C5: 'accept' },
    });
    expect(() => loadConfig({ JT808_BAD_CHECKSUM: 'maybe' })).toThrow('JT808_BAD_CHECKSUM: "maybe" must be accept or refuse');
    expect(() => loadConfig({ JT808_BAD_CHECKSUM_MODELS: 'C5' })).toThrow(
      'JT808_BAD_CHECKSUM_MODELS: "C5" must be model=accept or model=refuse',
    );
    expect(() => loadConfig({ JT808_BAD_CHECKSUM_MODELS: 'C5=skip' })).toThrow(
      'JT808_BAD_CHECKSUM_MODELS: "skip" must be accept or refuse',
    );
  });
});
