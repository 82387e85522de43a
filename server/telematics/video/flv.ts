/**
 * FLV muxing of H.264 without transcoding (Adobe FLV 10.1, annex E): a file header, then tags
 * (type, 24-bit size, timestamp, stream id 0, the data, the previous tag's size). Video tags carry
 * the AVC decoder configuration once (AVCPacketType 0), then each frame's NAL units, each after a
 * 4-byte length (AVCPacketType 1).
 */

const TAG_VIDEO = 9;
const CODEC_AVC = 7;

/** "FLV", version 1, video only, header size 9, and the zero size of the tag before the first. */
export function flvHeader(): Buffer {
  return Buffer.from([0x46, 0x4c, 0x56, 0x01, 0x01, 0x00, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00, 0x00]);
}

function tag(type: number, timestampMs: number, data: Buffer): Buffer {
  const out = Buffer.alloc(11 + data.length + 4);
  out[0] = type;
  out.writeUIntBE(data.length, 1, 3);
  const ts = timestampMs >>> 0;
  out.writeUIntBE(ts & 0xffffff, 4, 3);
  out[7] = (ts >>> 24) & 0xff;
  // Stream id: 3 zero bytes.
  data.copy(out, 11);
  out.writeUInt32BE(11 + data.length, 11 + data.length);
  return out;
}

/** AVCDecoderConfigurationRecord (ISO/IEC 14496-15) from one SPS and one PPS. */
export function avcDecoderConfiguration(sps: Buffer, pps: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from([1, sps[1], sps[2], sps[3], 0xff, 0xe1]),
    u16(sps.length),
    sps,
    Buffer.from([1]),
    u16(pps.length),
    pps,
  ]);
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}

export function avcSequenceHeaderTag(sps: Buffer, pps: Buffer): Buffer {
  return tag(TAG_VIDEO, 0, Buffer.concat([Buffer.from([0x10 | CODEC_AVC, 0, 0, 0, 0]), avcDecoderConfiguration(sps, pps)]));
}

/** A frame's NAL units (without parameter sets or delimiters) as one video tag. */
export function avcFrameTag(keyFrame: boolean, timestampMs: number, nals: Buffer[]): Buffer {
  const parts: Buffer[] = [Buffer.from([(keyFrame ? 0x10 : 0x20) | CODEC_AVC, 1, 0, 0, 0])];
  for (const n of nals) {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(n.length);
    parts.push(len, n);
  }
  return tag(TAG_VIDEO, timestampMs, Buffer.concat(parts));
}
