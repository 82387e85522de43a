/**
 * H.265 (JT/T 1078 payload type 99) remuxed into enhanced FLV as mpegts.js reads it, on a real HEVC
 * stream ffmpeg's libx265 makes of its test pattern: the sequence start carries an
 * HEVCDecoderConfigurationRecord of the stream's VPS, SPS and PPS (Main profile, 4:2:0, 8 bits), each
 * picture is one `hvc1` tag (key pictures marked), and the NAL units the tags carry decode, by
 * ffmpeg, to exactly the pictures of the stream the terminal sent.
 */

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AV_CODING } from '../../../../server/telematics/jt808/codec';
import { FrameAssembler } from '../../../../server/telematics/video/frameAssembler';
import { annexB, splitAnnexB } from '../../../../server/telematics/video/h264';
import { hevcNalType, isHevcSlice } from '../../../../server/telematics/video/h265';
import { LiveChannels } from '../../../../server/telematics/video/liveChannels';
import { DataType, packetsOfFrame } from '../../../../server/telematics/video/rtpPacket';

const FRAMES = 50;

/** The pictures of an HEVC Annex B stream: a new one at a parameter set or SEI after a slice, or at a picture's first slice. */
function accessUnits(stream: Buffer): Buffer[][] {
  const units: Buffer[][] = [];
  let current: Buffer[] = [];
  let hasSlice = false;
  for (const nal of splitAnnexB(stream)) {
    const t = hevcNalType(nal);
    const slice = isHevcSlice(t);
    // Suffix SEI (40) stays with its picture.
    if (hasSlice && ((slice && (nal[2] & 0x80) !== 0) || (!slice && t !== 40))) {
      units.push(current);
      current = [];
      hasSlice = false;
    }
    current.push(nal);
    if (slice) hasSlice = true;
  }
  if (current.length) units.push(current);
  return units;
}

/** The whole FLV tags of a byte stream after its 13-byte header: their type, time and data. */
function tags(b: Buffer): Array<{ type: number; timestamp: number; data: Buffer }> {
  const out = [];
  for (let o = 13; o + 11 <= b.length;) {
    const size = b.readUIntBE(o + 1, 3);
    out.push({ type: b[o], timestamp: b.readUIntBE(o + 4, 3), data: b.subarray(o + 11, o + 11 + size) });
    o += 11 + size + 4;
  }
  return out;
}

describe('H.265 into FLV', () => {
  let dir: string;
  let stream: Buffer;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hevc-'));
    const file = path.join(dir, 'in.h265');
    execFileSync('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=160x120:rate=25:duration=${FRAMES / 25}`],
      ...['-c:v', 'libx265', '-pix_fmt', 'yuv420p', '-preset', 'ultrafast', '-threads', '1'],
      ...['-x265-params', 'keyint=25:min-keyint=25:scenecut=0:bframes=0:repeat-headers=1:log-level=error:pools=1'],
      ...['-f', 'hevc', file],
    ]);
    stream = fs.readFileSync(file);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes the decoder configuration and each picture as enhanced FLV that decodes to the same pictures', async () => {
    const units = accessUnits(stream);
    expect(units).toHaveLength(FRAMES);
    const chunks: Buffer[] = [];
    const channels = new LiveChannels({ open: async () => undefined, close: () => undefined });
    const key = { terminalId: 1, channel: 1 };
    const leave = channels.watch(key, { send: (c) => chunks.push(c), end: () => undefined });
    const assembler = new FrameAssembler();
    let seq = 0;
    for (const [i, unit] of units.entries()) {
      const irap = unit.some((n) => hevcNalType(n) >= 16 && hevcNalType(n) <= 21);
      const packets = packetsOfFrame(
        annexB(unit),
        {
          payloadType: AV_CODING.h265,
          sim: '013800000001',
          channel: 1,
          dataType: irap ? DataType.iFrame : DataType.pFrame,
          timestamp: 1_000_000 + i * 40,
          lastIFrameIntervalMs: 0,
          lastFrameIntervalMs: 40,
        },
        seq,
      );
      seq += packets.length;
      for (const p of packets) {
        const f = assembler.push(p);
        if (f) channels.frame(key, f);
      }
    }
    leave();
    channels.close();

    const flv = Buffer.concat(chunks);
    expect(flv.subarray(0, 3).toString('latin1')).toBe('FLV');
    const [head, ...frames] = tags(flv);
    // The sequence start: an extended header (0x80), a key frame (0x10), packet type 0, `hvc1`.
    expect(head.type).toBe(9);
    expect(head.data[0]).toBe(0x90);
    expect(head.data.subarray(1, 5).toString('latin1')).toBe('hvc1');
    const record = head.data.subarray(5);
    expect(record[0]).toBe(1); // configurationVersion
    expect(record[1] & 0x1f).toBe(1); // Main profile
    expect(record[16] & 3).toBe(1); // 4:2:0
    expect([record[17] & 7, record[18] & 7]).toEqual([0, 0]); // 8 bits
    expect(record[21] & 3).toBe(3); // NAL unit lengths on 4 bytes
    expect(record[22]).toBe(3);
    const sets: Buffer[] = [];
    for (let o = 23, k = 0; k < 3; k++) {
      expect(record.readUInt16BE(o + 1)).toBe(1);
      const len = record.readUInt16BE(o + 3);
      sets.push(record.subarray(o + 5, o + 5 + len));
      o += 5 + len;
    }
    expect(sets.map(hevcNalType)).toEqual([32, 33, 34]);
    expect(sets.map((s) => s.toString('hex'))).toEqual(
      units[0].filter((n) => hevcNalType(n) >= 32 && hevcNalType(n) <= 34).map((n) => n.toString('hex')),
    );

    // Each picture one tag, coded frames without composition time (packet type 3), a key picture each second.
    expect(frames).toHaveLength(FRAMES);
    expect(frames.map((f) => f.data[0])).toEqual(frames.map((_, i) => (i % 25 === 0 ? 0x93 : 0xa3)));
    expect(frames.map((f) => f.timestamp)).toEqual(frames.map((_, i) => i * 40));
    // Back to Annex B: the record's parameter sets, then each tag's length-prefixed NAL units.
    const nals: Buffer[] = [...sets];
    for (const f of frames) {
      expect(f.data.subarray(1, 5).toString('latin1')).toBe('hvc1');
      for (let o = 5; o < f.data.length;) {
        const len = f.data.readUInt32BE(o);
        nals.push(f.data.subarray(o + 4, o + 4 + len));
        o += 4 + len;
      }
    }
    const back = path.join(dir, 'back.h265');
    fs.writeFileSync(back, annexB(nals));
    const md5 = (file: string) =>
      execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'hevc', '-i', file, '-f', 'framemd5', '-'], { encoding: 'utf8' })
        .split('\n')
        .filter((l) => l && !l.startsWith('#'));
    const original = md5(path.join(dir, 'in.h265'));
    expect(original).toHaveLength(FRAMES);
    expect(md5(back)).toEqual(original);
  });
});
