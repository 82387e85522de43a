import { decodeFrame, encodeMessage, formatMsgId, messageToJson, MsgId } from '../../../../server/telematics/jt808/codec';
import { errorToJson } from '../../../../server/telematics/jt808/toJson';
import { hex, REAL } from './fixtures';

describe('toJson', () => {
  it('formats message ids as 0x hex', () => {
    expect(formatMsgId(0x200)).toBe('0x0200');
    expect(formatMsgId(0x8a01)).toBe('0x8A01');
  });

  it('shapes locations for the console and is plain JSON', () => {
    const j = messageToJson(decodeFrame(hex(REAL.batch8)));
    expect(JSON.parse(JSON.stringify(j))).toEqual(j);
    expect(j).toMatchObject({ msgId: '0x0704', body: { count: 8, type: 1, blindArea: true } });
    const items = (j.body as { items: Record<string, unknown>[] }).items;
    expect(items).toHaveLength(8);
    expect(Object.keys(items[0])).toEqual(['alarm', 'status', 'latitude', 'longitude', 'altitude', 'speed', 'direction', 'time', 'extras']);
  });

  it('writes buffers as hex and marks opaque bodies', () => {
    const m = decodeFrame(
      encodeMessage({ phone: '1', serial: 1, version: 2019, encryption: 1 }, { msgId: MsgId.Heartbeat, body: { extraHex: 'abcd' } }),
    );
    expect(messageToJson(m)).toEqual({
      msgId: '0x0002',
      version: 2019,
      phone: '1',
      serial: 1,
      protocolVersion: 1,
      encryption: 1,
      opaque: 'encrypted',
      body: { hex: 'abcd' },
    });
  });

  it('reports errors with their code', () => {
    let err: unknown;
    try {
      decodeFrame(hex(REAL.badChecksum));
    } catch (e) {
      err = e;
    }
    expect(errorToJson(err)).toEqual({ error: expect.stringMatching(/^BAD_CHECKSUM: /), code: 'BAD_CHECKSUM' });
    expect(errorToJson(new Error('x'))).toEqual({ error: 'x' });
  });
});
