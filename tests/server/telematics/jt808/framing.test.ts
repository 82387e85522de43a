import {
  decodeFrame,
  decodePacket,
  encodeMessage,
  escapeFrame,
  FrameSplitter,
  Jt808DecodeError,
  MAX_FRAME_BYTES,
  MsgId,
  unframe,
  xorChecksum,
  type Jt808ErrorCode,
} from '../../../../server/telematics/jt808/codec';
import { hex, REAL } from './fixtures';
import { withChecksum } from './helpers';

function codeOf(fn: () => unknown): Jt808ErrorCode {
  try {
    fn();
  } catch (e) {
    if (e instanceof Jt808DecodeError) return e.code;
    throw e;
  }
  throw new Error('expected a Jt808DecodeError');
}

const heartbeat = (serial: number): Buffer => encodeMessage({ phone: '13912345678', serial }, { msgId: MsgId.Heartbeat });

describe('escaping and checksum', () => {
  it('escapes 7e and 7d and unescapes back', () => {
    const packet = Buffer.from([0x7e, 0x00, 0x7d, 0x7d, 0x02, 0x01, 0x7e]);
    const wire = escapeFrame(packet);
    expect(wire.toString('hex')).toBe('7e7d02007d017d0102017d027e');
    expect(unframe(wire).equals(packet)).toBe(true);
  });

  it('the checksum is the XOR from message id to the end of the body, on unescaped bytes', () => {
    const wire = encodeMessage({ phone: '7e7d', serial: 0x7e7d }, { msgId: MsgId.TerminalControl, body: { command: 0x7e, params: '}~' } });
    const packet = unframe(wire);
    expect(packet[packet.length - 1]).toBe(xorChecksum(packet, 0, packet.length - 1));
    expect(decodeFrame(wire)).toMatchObject({ phone: '7e7d', serial: 0x7e7d, body: { command: 0x7e, params: '}~' } });
  });

  it('accepts a frame without its flags (pasted from a log)', () => {
    const wire = heartbeat(5);
    expect(decodeFrame(wire.subarray(1, wire.length - 1)).serial).toBe(5);
  });
});

describe('decode errors are typed', () => {
  const wire = heartbeat(1);

  it.each<[string, () => unknown, Jt808ErrorCode]>([
    [
      'bad checksum',
      () => decodeFrame(Buffer.concat([wire.subarray(0, wire.length - 2), Buffer.from([wire[wire.length - 2] ^ 1, 0x7e])])),
      'BAD_CHECKSUM',
    ],
    ['missing closing flag', () => decodeFrame(wire.subarray(0, wire.length - 1)), 'TRUNCATED'],
    ['missing opening flag', () => decodeFrame(wire.subarray(1)), 'BAD_FLAG'],
    ['flag inside', () => decodeFrame(hex(REAL.strayFlag)), 'BAD_FLAG'],
    ['7d 03', () => decodeFrame(hex('7e00027d03007e')), 'BAD_ESCAPE'],
    ['7d at the end', () => decodeFrame(hex('7e0002000001234567890000007d7e')), 'BAD_ESCAPE'],
    ['shorter than a header', () => decodeFrame(hex('7e0002000001237e')), 'TRUNCATED'],
    ['empty', () => decodeFrame(Buffer.alloc(0)), 'TRUNCATED'],
    ['flags only', () => decodeFrame(hex('7e7e')), 'TRUNCATED'],
    ['too long', () => decodeFrame(Buffer.concat([hex('7e'), Buffer.alloc(MAX_FRAME_BYTES + 1, 1), hex('7e')])), 'TOO_LONG'],
    ['too long, escaped', () => decodeFrame(Buffer.concat([hex('7e'), Buffer.alloc(3 * MAX_FRAME_BYTES, 0x7d), hex('7e')])), 'TOO_LONG'],
    ['body shorter than announced', () => decodePacket(withChecksum(hex('0002000501234567890000010000'))), 'TRUNCATED'],
    ['body longer than announced', () => decodePacket(withChecksum(hex('00020000012345678900000100000000'))), 'BAD_LENGTH'],
    ['location body too short', () => decodePacket(withChecksum(hex('020000020123456789000001000000'))), 'BAD_BODY'],
  ])('%s', (_name, fn, code) => {
    expect(codeOf(fn)).toBe(code);
  });
});

describe('FrameSplitter', () => {
  const frames = [
    heartbeat(1),
    encodeMessage({ phone: '57', serial: 0x2b }, { msgId: MsgId.Heartbeat }),
    hex(REAL.locationObdFlat),
    heartbeat(4),
  ];
  const stream = Buffer.concat(frames);
  const expected = frames.map((f) => unframe(f).toString('hex'));

  it('splits several frames from one chunk', () => {
    const s = new FrameSplitter();
    expect(s.push(stream).map((p) => p.toString('hex'))).toEqual(expected);
    expect(s.stats.frames).toBe(4);
    expect(s.bufferedBytes).toBe(0);
  });

  it('gives the same packets for every split point, including inside an escape', () => {
    for (let cut = 0; cut <= stream.length; cut++) {
      const s = new FrameSplitter();
      const out = [...s.push(stream.subarray(0, cut)), ...s.push(stream.subarray(cut))];
      expect(out.map((p) => p.toString('hex'))).toEqual(expected);
    }
  });

  it('works byte by byte', () => {
    const s = new FrameSplitter();
    const out: Buffer[] = [];
    for (const b of stream) out.push(...s.push(Buffer.from([b])));
    expect(out.map((p) => p.toString('hex'))).toEqual(expected);
  });

  it('handles shared flags (7e A 7e B 7e) and skips junk before the first flag', () => {
    const a = heartbeat(1);
    const b = heartbeat(2);
    const shared = Buffer.concat([hex('2424ff'), a, b.subarray(1)]);
    const s = new FrameSplitter();
    expect(s.push(shared).map((p) => decodePacket(p).serial)).toEqual([1, 2]);
    expect(s.stats.junkBytes).toBe(3);
  });

  it('drops and counts an oversized frame without growing past the limit, then recovers', () => {
    const drops: [Jt808ErrorCode, number][] = [];
    const s = new FrameSplitter({ maxFrameBytes: 1024, onDrop: (code, bytes) => drops.push([code, bytes]) });
    const big = Buffer.alloc(5000, 0x11);
    const out = [...s.push(hex('7e')), ...s.push(big.subarray(0, 2500))];
    expect(s.capacity).toBeLessThanOrEqual(1024);
    expect(s.bufferedBytes).toBe(0);
    out.push(...s.push(big.subarray(2500)), ...s.push(heartbeat(9)));
    expect(out.map((p) => decodePacket(p).serial)).toEqual([9]);
    expect(s.stats.oversized).toBe(1);
    expect(drops).toEqual([['TOO_LONG', 5000]]);
    expect(s.capacity).toBeLessThanOrEqual(1024);
  });

  it('drops a frame with a bad escape and recovers at the next flag', () => {
    const s = new FrameSplitter();
    const out = s.push(Buffer.concat([hex('7e00027d0300000000007e'), heartbeat(3), hex('7e11223344557d7e'), heartbeat(4)]));
    expect(out.map((p) => decodePacket(p).serial)).toEqual([3, 4]);
    expect(s.stats.badEscape).toBe(2);
  });

  it('counts runts (too short for a header) and ignores empty 7e7e pairs', () => {
    const s = new FrameSplitter();
    const out = s.push(Buffer.concat([hex('7e7e7e0102037e'), heartbeat(6)]));
    expect(out.map((p) => decodePacket(p).serial)).toEqual([6]);
    expect(s.stats.runts).toBe(1);
  });

  it('goes back to a small buffer after a large frame', () => {
    const s = new FrameSplitter();
    // Beyond any one package (a vendor's oversized frame): 3,000 bytes between flags.
    const big = Buffer.concat([hex('7e'), Buffer.alloc(3000, 0x11), hex('7e')]);
    expect(s.push(big.subarray(0, 2100))).toHaveLength(0);
    expect(s.capacity).toBeGreaterThan(2048);
    expect(s.push(big.subarray(2100))).toHaveLength(1);
    expect(s.capacity).toBeLessThanOrEqual(256);
  });

  it('keeps its buffer across frames of a full package (a media upload), not growing it each time', () => {
    const s = new FrameSplitter();
    const frame = (serial: number) =>
      encodeMessage({ phone: '1', serial }, { msgId: MsgId.Transparent, body: { type: 0xf1, content: 'ab'.repeat(1022) } });
    expect(s.push(frame(1))).toHaveLength(1);
    const kept = s.capacity;
    expect(kept).toBeGreaterThan(1024);
    expect(s.push(frame(2))).toHaveLength(1);
    expect(s.capacity).toBe(kept);
  });
});
