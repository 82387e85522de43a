import {
  decodeFrame,
  decodePacket,
  encodeFrame,
  encodeMessage,
  encodePacket,
  Jt808DecodeError,
  Jt808EncodeError,
  MsgId,
  parseHeader,
  PROP_VERSION,
  unframe,
} from '../../../../server/telematics/jt808/codec';
import { hex } from './fixtures';
import { withChecksum } from './helpers';

describe('header layouts', () => {
  it('2019: version flag, protocol-version byte, BCD[10] phone trimmed', () => {
    const wire = encodeMessage(
      { phone: '00000012345678901234', serial: 300, version: 2019, protocolVersion: 1 },
      { msgId: MsgId.Heartbeat },
    );
    const packet = unframe(wire);
    expect(packet.length).toBe(17 + 1);
    expect(packet.readUInt16BE(2) & PROP_VERSION).toBe(PROP_VERSION);
    expect(packet[4]).toBe(1);
    expect(packet.subarray(5, 15).toString('hex')).toBe('00000012345678901234');
    expect(decodeFrame(wire)).toMatchObject({ version: 2019, protocolVersion: 1, phone: '12345678901234', serial: 300 });
  });

  it('2013: 12-byte header, BCD[6] phone', () => {
    const packet = unframe(encodeMessage({ phone: '012345678900', serial: 1 }, { msgId: MsgId.Logout }));
    expect(packet.length).toBe(13);
    expect(parseHeader(packet)).toMatchObject({ msgId: 3, version: 2013, phone: '12345678900', bodyOffset: 12, bodyLength: 0 });
  });

  it('bit 14 on a 2013 layout (SmallChi JTT2013Force case) is recognised by length', () => {
    const packet = Buffer.from(encodePacket({ msgId: 0x0200, phone: '13912345678', serial: 7 }, Buffer.alloc(28)));
    packet.writeUInt16BE(packet.readUInt16BE(2) | PROP_VERSION, 2);
    const m = decodePacket(withChecksum(packet));
    expect(m).toMatchObject({ msgId: 0x0200, version: 2013, phone: '13912345678', serial: 7 });
    expect(m.protocolVersion).toBeUndefined();
  });

  it('all-zero phone reads as "0"; non-decimal BCD nibbles are kept as hex digits', () => {
    expect(decodeFrame(encodeMessage({ phone: '0', serial: 1 }, { msgId: MsgId.Heartbeat })).phone).toBe('0');
    expect(decodeFrame(encodeMessage({ phone: '4e5de66fba22', serial: 1 }, { msgId: MsgId.Heartbeat })).phone).toBe('4e5de66fba22');
  });

  it('body-property bits: length, encryption, subpackage, version, reserved bit 15', () => {
    const packet = encodePacket(
      { msgId: 0x0900, phone: '1', serial: 1, encryption: 1, reservedBit: true, packet: { count: 2, index: 2 } },
      Buffer.alloc(5),
    );
    const props = packet.readUInt16BE(2);
    expect(props & 0x3ff).toBe(5);
    expect((props >> 10) & 7).toBe(1);
    expect(props & 0x2000).toBe(0x2000);
    expect(props & 0x4000).toBe(0);
    expect(props & 0x8000).toBe(0x8000);
    expect(parseHeader(packet)).toMatchObject({ encryption: 1, packet: { count: 2, index: 2 }, bodyOffset: 16, properties: props });
  });

  it('rejects impossible packet numbers', () => {
    const packet = Buffer.from(encodePacket({ msgId: 0x0900, phone: '1', serial: 1, packet: { count: 2, index: 1 } }, Buffer.alloc(1)));
    packet.writeUInt16BE(3, 14); // index 3 of 2
    expect(() => decodePacket(withChecksum(packet))).toThrow(Jt808DecodeError);
    packet.writeUInt16BE(0, 12); // count 0
    expect(() => decodePacket(withChecksum(packet))).toThrow(/BAD_PACKET/);
  });

  it('the 2011 hint applies to sessions known to speak 2011', () => {
    const wire = encodeMessage({ phone: '1', serial: 1, version: 2011 }, { msgId: MsgId.Heartbeat });
    expect(decodeFrame(wire).version).toBe(2013);
    expect(decodeFrame(wire, { assume2011: true }).version).toBe(2011);
  });

  it('2011 register layout: 5/8/7 field sizes', () => {
    const body = { province: 1, city: 2, makerId: 'ABCDE', model: 'M8', terminalId: 'ID7', plateColor: 2, plate: '京A1' };
    const wire = encodeMessage({ phone: '1', serial: 1, version: 2011 }, { msgId: MsgId.Register, body });
    const packet = unframe(wire);
    expect(packet.length).toBe(12 + 25 + 4 + 1);
    expect(decodeFrame(wire)).toMatchObject({ version: 2011, body: { ...body, layout: 2011 } });
  });

  it('encoders refuse fields that do not fit', () => {
    expect(() => encodeMessage({ phone: '1234567890123', serial: 1 }, { msgId: MsgId.Heartbeat })).toThrow(Jt808EncodeError);
    expect(() => encodeMessage({ phone: '12x', serial: 1 }, { msgId: MsgId.Heartbeat })).toThrow(/BAD_FIELD/);
    expect(() => encodeMessage({ phone: '1', serial: 70000 }, { msgId: MsgId.Heartbeat })).toThrow(/BAD_FIELD/);
    expect(() => encodeFrame({ msgId: 1, phone: '1', serial: 1, packet: { count: 1, index: 1 } }, Buffer.alloc(1024))).toThrow(/TOO_LONG/);
    expect(() =>
      encodeMessage(
        { phone: '1', serial: 1 },
        { msgId: MsgId.Register, body: { province: 1, city: 1, makerId: 'TOO-LONG', model: '', terminalId: '', plateColor: 0, plate: '' } },
      ),
    ).toThrow(/TOO_LONG/);
  });

  it('decodes the same header the reference frame carries', () => {
    expect(parseHeader(unframe(hex('7E00020000012345678900000A817E')))).toMatchObject({
      msgId: 2,
      phone: '12345678900',
      serial: 10,
      bodyLength: 0,
    });
  });
});
