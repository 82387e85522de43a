/**
 * Active safety items over real TCP: the standard is chosen per registered terminal model
 * (JT808_SAFETY_STANDARD_MODELS), as the checksum policy is. A 粤标 model's items are stored decoded;
 * the same bytes from a 苏标 terminal stay hex in `unknown`; either way the report is stored.
 */
import { encodeMessage, MsgId, type DecodedMessage, type LocationInput } from '../../../../server/telematics/jt808/codec';
import type { AdasInput } from '../../../../server/telematics/jt808/messages/activeSafety';
import { BACKENDS } from '../../../helpers/testServer';
import { demoTerminal, RawClient, startGateway, terminalIdOf, type GatewayHarness } from './harness';

const T0 = Date.parse('2026-11-21T08:00:00Z');

const adas = (terminalId: string, standard: 'jsatl12' | 'guangdong'): AdasInput => ({
  alarmId: 41,
  flag: 1,
  type: 2,
  level: 1,
  frontSpeed: 50,
  frontDistance: 0,
  departure: 1,
  roadSign: 0,
  roadSignValue: 0,
  speed: 62,
  altitude: 10,
  latitude: 31.2,
  longitude: 121.4,
  time: new Date(T0).toISOString(),
  vehicleStatus: 1,
  identification: { terminalId, timeBcd: '261121160000', sequence: 2, attachments: 1 },
  standard,
});

const report = (extras: LocationInput['extras']): LocationInput => ({
  latitude: 31.2,
  longitude: 121.4,
  speed: 62,
  status: { accOn: true, fixed: true },
  time: T0,
  extras,
});

const answered = (r: DecodedMessage) => (r.msgId === MsgId.PlatformResponse && r.opaque === undefined ? r.body.result : null);

describe.each(BACKENDS)('active safety standard per model on %s', (backend) => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGateway(backend, { gateway: { safety: { default: 'jsatl12', models: { 'GD-ADAS1': 'guangdong' } } } });
  });
  afterAll(() => h.close());

  async function online(phone: string, model: string): Promise<RawClient> {
    const raw = await RawClient.open(h.port);
    raw.send(phone, {
      msgId: MsgId.Register,
      body: { province: 44, city: 100, makerId: 'VEND', model, terminalId: phone.slice(-7), plateColor: 1, plate: '' },
    });
    const [reg] = await raw.waitFor(1);
    if (reg.msgId !== MsgId.RegisterResponse || reg.opaque !== undefined || !reg.body.authCode) throw new Error('not registered');
    raw.send(phone, { msgId: MsgId.Auth, body: { code: reg.body.authCode } });
    expect(answered((await raw.waitFor(2))[1])).toBe(0);
    return raw;
  }

  const storedExtras = async (phone: string) =>
    (
      await h.s.database.db
        .selectFrom('position')
        .select('extras')
        .where('terminal_id', '=', await terminalIdOf(h.s, phone))
        .where('device_time', '=', new Date(T0))
        .executeTakeFirst()
    )?.extras as Record<string, unknown> | undefined;

  it('decodes a 粤标 model’s 40-byte identification, and keeps the same bytes hex from a 苏标 terminal', async () => {
    const gd = demoTerminal(6);
    const su = demoTerminal(7);
    const a = await online(gd, 'GD-ADAS1');
    const b = await online(su, 'SU-ADAS2');
    a.sendBytes(encodeMessage({ phone: gd, serial: 9 }, { msgId: MsgId.Location, body: report({ adas: adas('GD06', 'guangdong') }) }));
    b.sendBytes(encodeMessage({ phone: su, serial: 9 }, { msgId: MsgId.Location, body: report({ adas: adas('SU07', 'guangdong') }) }));
    expect(answered((await a.waitFor(3))[2])).toBe(0);
    expect(answered((await b.waitFor(3))[2])).toBe(0);
    expect(await storedExtras(gd)).toMatchObject({
      adas: {
        alarmId: 41,
        typeName: 'laneDeparture',
        departure: 1,
        standard: 'guangdong',
        identification: { terminalId: 'GD06', timeBcd: '261121160000', sequence: 2, attachments: 1 },
      },
    });
    const plain = await storedExtras(su);
    expect(plain?.adas).toBeUndefined();
    expect(plain?.unknown).toEqual([{ id: 0x64, hex: expect.stringMatching(/^00000029/) }]);
    a.destroy();
    b.destroy();
  });

  it('reads 苏标 from a terminal of any other model', async () => {
    const su = demoTerminal(8);
    const c = await online(su, 'SU-ADAS3');
    c.sendBytes(encodeMessage({ phone: su, serial: 9 }, { msgId: MsgId.Location, body: report({ adas: adas('SU08', 'jsatl12') }) }));
    expect(answered((await c.waitFor(3))[2])).toBe(0);
    expect(await storedExtras(su)).toMatchObject({
      adas: { typeName: 'laneDeparture', standard: 'jsatl12', identification: { terminalId: 'SU08' } },
    });
    c.destroy();
  });
});
