/**
 * FLV muxing of H.264 and H.265 without transcoding (Adobe FLV 10.1, annex E): a file header, then tags
 * (type, 24-bit size, timestamp, stream id 0, the data, the previous tag's size). Video tags carry
 * the AVC decoder configuration once (AVCPacketType 0), then each frame's NAL units, each after a
 * 4-byte length (AVCPacketType 1). H.265 goes as enhanced RTMP/FLV has it (veovera's
 * enhanced-rtmp v1, as mpegts.js 1.8 reads it): the first byte's top bit set (an extended header),
 * the frame type, the packet type (0 sequence start: the HEVCDecoderConfigurationRecord; 3 coded
 * frames without composition time), then the FourCC `hvc1`.
 */

const TAG_VIDEO = 9;
const CODEC_AVC = 7;
const EX_HEADER = 0x80;
const HVC1 = Buffer.from('hvc1', 'latin1');
const PACKET_SEQUENCE_START = 0;
/** Coded frames without a composition time offset (the terminals send no B frames out of order). */
const PACKET_CODED_FRAMES_X = 3;

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

/** NAL units each after its 4-byte length. */
function lengthPrefixed(head: Buffer, nals: Buffer[]): Buffer {
  const parts: Buffer[] = [head];
  for (const n of nals) {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(n.length);
    parts.push(len, n);
  }
  return Buffer.concat(parts);
}

/** A frame's NAL units (without parameter sets or delimiters) as one video tag. */
export function avcFrameTag(keyFrame: boolean, timestampMs: number, nals: Buffer[]): Buffer {
  return tag(TAG_VIDEO, timestampMs, lengthPrefixed(Buffer.from([(keyFrame ? 0x10 : 0x20) | CODEC_AVC, 1, 0, 0, 0]), nals));
}

/** The H.265 sequence start: an HEVCDecoderConfigurationRecord (h265.ts). */
export function hevcSequenceHeaderTag(configuration: Buffer): Buffer {
  return tag(TAG_VIDEO, 0, Buffer.concat([Buffer.from([EX_HEADER | 0x10 | PACKET_SEQUENCE_START]), HVC1, configuration]));
}

/** An H.265 frame's NAL units (without parameter sets or delimiters) as one video tag. */
export function hevcFrameTag(keyFrame: boolean, timestampMs: number, nals: Buffer[]): Buffer {
  const head = Buffer.concat([Buffer.from([EX_HEADER | (keyFrame ? 0x10 : 0x20) | PACKET_CODED_FRAMES_X]), HVC1]);
  return tag(TAG_VIDEO, timestampMs, lengthPrefixed(head, nals));
}
