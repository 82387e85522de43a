/**
 * JT/T 1078 media packets from the standard's layout (table 19): a video packet's bytes written out
 * by hand decode to its fields; audio and pass-through packets are shorter; a TCP stream cut
 * anywhere gives the same packets; bad fields are refused with the reason, bad framing as fatal.
 */

import fc from 'fast-check';
import { DataType, encodeRtpPacket, RtpStreamReader, Subpackage, type MediaPacket } from '../../../../server/telematics/video/rtpPacket';
import { FrameAssembler } from '../../../../server/telematics/video/frameAssembler';

// "01cd", V=2 CC=1, M=1 PT=98, seq 0x0102, SIM 013912345678, channel 1, I frame first packet,
// timestamp 1000 ms, last I frame 0 ms, last frame 40 ms, 3 body bytes.
const VIDEO = '30316364 81 e2 0102 013912345678 01 01 00000000000003e8 0000 0028 0003 000001';

describe('media packets', () => {
  it('decode from the layout and encode back', () => {
    const bytes = Buffer.from(VIDEO.replace(/ /g, ''), 'hex');
    const [p] = new RtpStreamReader().push(bytes);
    const expected: MediaPacket = {
      marker: true,
      payloadType: 98,
      seq: 0x0102,
      sim: '13912345678',
      channel: 1,
      dataType: DataType.iFrame,
      subpackage: Subpackage.first,
      timestamp: 1000,
      lastIFrameIntervalMs: 0,
      lastFrameIntervalMs: 40,
      body: Buffer.from('000001', 'hex'),
    };
    expect(p).toEqual(expected);
    expect(encodeRtpPacket(expected).toString('hex')).toBe(bytes.toString('hex'));
    // Audio: no frame intervals (26-byte header); pass-through: no timestamp either (18).
    const audio = encodeRtpPacket({ ...expected, dataType: DataType.audio, subpackage: Subpackage.atomic, payloadType: 6 });
    expect(audio.length).toBe(26 + 3);
    expect(new RtpStreamReader().push(audio)).toEqual([
      { ...expected, dataType: DataType.audio, subpackage: Subpackage.atomic, payloadType: 6, lastFrameIntervalMs: 0 },
    ]);
    const through = encodeRtpPacket({ ...expected, dataType: DataType.passThrough, subpackage: Subpackage.atomic });
    expect(through.length).toBe(18 + 3);
    expect(new RtpStreamReader().push(through)).toEqual([
      { ...expected, dataType: DataType.passThrough, subpackage: Subpackage.atomic, timestamp: 0, lastFrameIntervalMs: 0 },
    ]);
  });

  it('come out the same however TCP cuts the stream', () => {
    const base = Buffer.from(VIDEO.replace(/ /g, ''), 'hex');
    const stream = Buffer.concat(
      [0, 1, 2, 3, 4].map((i) => encodeRtpPacket({ ...(new RtpStreamReader().push(base)[0] as MediaPacket), seq: i })),
    );
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: stream.length }), { maxLength: 12 }), (cuts) => {
        const r = new RtpStreamReader();
        const at = [...new Set(cuts)].sort((a, b) => a - b);
        const out = [];
        let from = 0;
        for (const c of [...at, stream.length]) {
          out.push(...r.push(stream.subarray(from, c)));
          from = c;
        }
        expect(out.map((p) => ('seq' in p ? p.seq : p.reason))).toEqual([0, 1, 2, 3, 4]);
        expect(r.pending).toBe(0);
      }),
    );
  });

  it('refuse bad fields one by one and bad framing for good', () => {
    const good = Buffer.from(VIDEO.replace(/ /g, ''), 'hex');
    const withByte = (at: number, v: number) => Buffer.from(good.map((b, i) => (i === at ? v : b)));
    const reasons = (b: Buffer) =>
      new RtpStreamReader().push(Buffer.concat([b, good])).map((p) => ('seq' in p ? 'ok' : `${p.reason}${p.fatal ? ' (fatal)' : ''}`));
    expect(reasons(withByte(4, 0x41))).toEqual(['RTP version 1, not 2', 'ok']);
    expect(reasons(withByte(15, 0x51))).toEqual(['unknown data type 5 (fatal)']);
    expect(reasons(withByte(15, 0x04))).toEqual(['unknown subpackage flag 4', 'ok']);
    expect(reasons(withByte(14, 0))).toEqual(['logical channel 0', 'ok']);
    expect(reasons(withByte(0, 0x31))).toEqual(['no frame header 30316364 (got 31316364) (fatal)']);
    expect(reasons(Buffer.concat([good.subarray(0, 28), Buffer.from([0x03, 0xb7])]))).toEqual(['body length 951 above 950 (fatal)']);
  });
});

describe('frame assembly', () => {
  const packet = (seq: number, dataType: MediaPacket['dataType'], subpackage: MediaPacket['subpackage'], body: string): MediaPacket => ({
    marker: subpackage === Subpackage.atomic || subpackage === Subpackage.last,
    payloadType: 98,
    seq,
    sim: '1',
    channel: 1,
    dataType,
    subpackage,
    timestamp: seq * 40,
    lastIFrameIntervalMs: 0,
    lastFrameIntervalMs: 40,
    body: Buffer.from(body, 'hex'),
  });

  it('joins first, middle and last; waits for an I frame; drops a frame with a gap and what follows it', () => {
    const a = new FrameAssembler();
    const data = (f: ReturnType<FrameAssembler['push']>) => f?.data.toString('hex') ?? null;
    expect(data(a.push(packet(1, DataType.pFrame, Subpackage.atomic, 'aa')))).toBeNull(); // no I frame yet
    expect(data(a.push(packet(2, DataType.iFrame, Subpackage.first, '01')))).toBeNull();
    expect(data(a.push(packet(3, DataType.iFrame, Subpackage.middle, '02')))).toBeNull();
    expect(data(a.push(packet(4, DataType.iFrame, Subpackage.last, '03')))).toBe('010203');
    expect(data(a.push(packet(5, DataType.pFrame, Subpackage.atomic, 'bb')))).toBe('bb');
    expect(data(a.push(packet(6, DataType.audio, Subpackage.atomic, 'cc')))).toBe('cc');
    // Packet 7 lost: the P frame at 8 is dropped, and so is the next; audio goes on.
    expect(data(a.push(packet(8, DataType.pFrame, Subpackage.atomic, 'dd')))).toBeNull();
    expect(data(a.push(packet(9, DataType.audio, Subpackage.atomic, 'ee')))).toBe('ee');
    // A late packet (behind the sequence) is dropped.
    expect(data(a.push(packet(7, DataType.pFrame, Subpackage.atomic, 'ff')))).toBeNull();
    expect(data(a.push(packet(10, DataType.iFrame, Subpackage.first, '04')))).toBeNull();
    // The I frame's middle is missing: its last packet completes nothing.
    expect(data(a.push(packet(12, DataType.iFrame, Subpackage.last, '06')))).toBeNull();
    expect(data(a.push(packet(13, DataType.iFrame, Subpackage.atomic, '07')))).toBe('07');
    // The sequence wraps at 65536.
    const b = new FrameAssembler();
    expect(data(b.push(packet(65535, DataType.iFrame, Subpackage.atomic, '08')))).toBe('08');
    expect(data(b.push(packet(0, DataType.pFrame, Subpackage.atomic, '09')))).toBe('09');
    expect(a.stats).toMatchObject({ lost: 2, late: 1 });
  });
});
