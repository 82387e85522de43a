/**
 * Terminal parameter read-back: 0x8104 (query all), 0x8106 (query chosen ids) and the terminal's
 * answer 0x0104, both ways, and the malformed bodies a terminal may send (refused as BAD_BODY,
 * never thrown as anything else).
 */
import {
  decodeFrame,
  encodeFrame,
  encodeMessage,
  MsgId,
  PARAM,
  type Jt808BodyInput,
  type KnownMessage,
} from '../../../../server/telematics/jt808/codec';

function roundTrip(message: Jt808BodyInput): KnownMessage {
  const wire = encodeMessage({ phone: '13912345678', serial: 5 }, message);
  const m = decodeFrame(wire);
  if (m.opaque !== undefined) throw new Error(`opaque ${m.opaque}`);
  expect(m.msgId).toBe(message.msgId);
  expect(encodeMessage({ phone: '13912345678', serial: 5, version: m.version }, m).equals(wire)).toBe(true);
  return m;
}
const raw = (msgId: number, body: string) => () =>
  decodeFrame(encodeFrame({ msgId, phone: '13912345678', serial: 5 }, Buffer.from(body.replace(/ /g, ''), 'hex')));

describe('terminal parameter queries', () => {
  it('0x8104 query all: an empty body', () => {
    expect(roundTrip({ msgId: MsgId.QueryAllParams }).body).toEqual({});
    expect(encodeMessage({ phone: '1', serial: 1 }, { msgId: MsgId.QueryAllParams }).length).toBe(15);
  });

  it('0x8106 query chosen ids: count then the ids', () => {
    const m = roundTrip({ msgId: MsgId.QueryParams, body: { ids: [PARAM.heartbeatInterval, PARAM.apn, 0xf001] } });
    expect(m.body).toEqual({ ids: [1, 0x10, 0xf001] });
    expect(raw(0x8106, '02 00000001 00000055')()).toMatchObject({ body: { ids: [1, 0x55] } });
  });

  it('0x0104 answer: the serial it answers and the parameters, typed as 0x8103 types them', () => {
    const params = [
      { id: PARAM.heartbeatInterval, type: 'u32' as const, value: 30 },
      { id: PARAM.apn, type: 'string' as const, value: 'cmnet' },
      { id: PARAM.plate, type: 'string' as const, value: '京A12345' },
      { id: PARAM.province, type: 'u16' as const, value: 44 },
      { id: PARAM.plateColor, type: 'u8' as const, value: 2 },
      { id: 0xf001, type: 'bytes' as const, value: '010203' },
    ];
    expect(roundTrip({ msgId: MsgId.ParamsResponse, body: { replySerial: 0xbeef, params } }).body).toEqual({ replySerial: 0xbeef, params });
    // Bytes as a terminal sends them: serial 7, one parameter 0x0001 = 60 (DWORD).
    expect(raw(0x0104, '0007 01 00000001 04 0000003c')()).toMatchObject({
      body: { replySerial: 7, params: [{ id: 1, type: 'u32', value: 60 }] },
    });
    // A terminal with nothing to tell: no parameters.
    expect(raw(0x0104, '0007 00')()).toMatchObject({ body: { replySerial: 7, params: [] } });
  });

  it.each([
    ['0x0104 without its count', 0x0104, '0007'],
    ['0x0104 empty', 0x0104, ''],
    ['0x0104 a parameter header cut short', 0x0104, '0007 01 000000'],
    ['0x0104 a value longer than the body', 0x0104, '0007 01 00000001 04 0000'],
    ['0x0104 fewer parameters than counted', 0x0104, '0007 02 00000001 01 05'],
    ['0x0104 bytes after the counted parameters', 0x0104, '0007 01 00000001 01 05 ff'],
    ['0x8106 empty', 0x8106, ''],
    ['0x8106 fewer ids than counted', 0x8106, '02 00000001'],
    ['0x8106 a partial id', 0x8106, '01 000001'],
    ['0x8106 bytes after the ids', 0x8106, '01 00000001 00'],
  ])('refuses %s as a bad body', (_what, msgId, body) => {
    expect(raw(msgId, body)).toThrow(expect.objectContaining({ code: 'BAD_BODY' }));
  });

  it('refuses to encode more than 255 ids', () => {
    expect(() =>
      encodeMessage({ phone: '1', serial: 1 }, { msgId: MsgId.QueryParams, body: { ids: Array.from({ length: 256 }, (_, i) => i) } }),
    ).toThrow(expect.objectContaining({ code: 'TOO_LONG' }));
  });
});
