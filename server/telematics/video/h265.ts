/**
 * H.265 (HEVC) NAL units as JT/T 1078 payload type 99 carries them (Annex B, as H.264): their types,
 * which pictures are key pictures, and the HEVCDecoderConfigurationRecord (ISO/IEC 14496-15 §8.3.3)
 * the FLV sequence header carries, from the VPS, SPS and PPS.
 */

export const HevcNalType = { vps: 32, sps: 33, pps: 34, aud: 35 } as const;

export function hevcNalType(nal: Buffer): number {
  return (nal[0] >> 1) & 0x3f;
}

/** An intra random access point (BLA, IDR, CRA: types 16–21): a picture a decoder can start from. */
export function isHevcKey(type: number): boolean {
  return type >= 16 && type <= 21;
}

/** A slice of a picture (VCL NAL unit types 0–31). */
export function isHevcSlice(type: number): boolean {
  return type < 32;
}

/** The RBSP of a NAL unit: emulation prevention bytes (00 00 03) taken out. */
function rbsp(nal: Buffer): Buffer {
  const out: number[] = [];
  let zeros = 0;
  for (const b of nal) {
    if (zeros >= 2 && b === 3) {
      zeros = 0;
      continue;
    }
    out.push(b);
    zeros = b === 0 ? zeros + 1 : 0;
  }
  return Buffer.from(out);
}

/** Reads bits and Exp-Golomb numbers; past the end reads zeros. */
class Bits {
  private at = 0;
  constructor(private readonly b: Buffer) {}
  bit(): number {
    const v = this.at >> 3 < this.b.length ? (this.b[this.at >> 3] >> (7 - (this.at & 7))) & 1 : 0;
    this.at++;
    return v;
  }
  ue(): number {
    let zeros = 0;
    while (this.bit() === 0 && zeros < 32) zeros++;
    let v = 0;
    for (let i = 0; i < zeros; i++) v = v * 2 + this.bit();
    return 2 ** zeros - 1 + v;
  }
}

interface SpsFacts {
  /** general_profile_space … general_level_idc: 12 bytes of profile_tier_level. */
  profileTierLevel: Buffer;
  temporalLayers: number;
  temporalIdNested: boolean;
  chromaFormat: number;
  bitDepthLumaMinus8: number;
  bitDepthChromaMinus8: number;
}

/** What the decoder configuration repeats of an SPS (H.265 §7.3.2.2). */
function spsFacts(sps: Buffer): SpsFacts {
  const r = rbsp(sps);
  // r[0..1]: NAL header; r[2]: vps id (4), max_sub_layers_minus1 (3), temporal_id_nesting (1).
  const maxSubLayersMinus1 = (r[2] >> 1) & 7;
  const facts: SpsFacts = {
    profileTierLevel: r.subarray(3, 15),
    temporalLayers: maxSubLayersMinus1 + 1,
    temporalIdNested: (r[2] & 1) === 1,
    chromaFormat: 1,
    bitDepthLumaMinus8: 0,
    bitDepthChromaMinus8: 0,
  };
  // Sub-layers' profile and level fields sit between: not parsed, the 4:2:0 8-bit defaults stand.
  if (maxSubLayersMinus1 !== 0) return facts;
  const bits = new Bits(r.subarray(15));
  bits.ue(); // sps_seq_parameter_set_id
  facts.chromaFormat = bits.ue();
  if (facts.chromaFormat === 3) bits.bit(); // separate_colour_plane_flag
  bits.ue(); // pic_width_in_luma_samples
  bits.ue(); // pic_height_in_luma_samples
  if (bits.bit()) for (let i = 0; i < 4; i++) bits.ue(); // conformance window offsets
  facts.bitDepthLumaMinus8 = bits.ue();
  facts.bitDepthChromaMinus8 = bits.ue();
  return facts;
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}

/** HEVCDecoderConfigurationRecord of one VPS, SPS and PPS, NAL unit lengths on 4 bytes. */
export function hevcDecoderConfiguration(vps: Buffer, sps: Buffer, pps: Buffer): Buffer {
  const f = spsFacts(sps);
  const ptl = Buffer.alloc(12);
  f.profileTierLevel.copy(ptl);
  const head = Buffer.concat([
    Buffer.from([1]), // configurationVersion
    ptl, // profile space, tier, profile, compatibility flags, constraint flags, level
    Buffer.from([0xf0, 0x00]), // reserved, min_spatial_segmentation_idc 0
    Buffer.from([0xfc]), // reserved, parallelismType 0 (unknown)
    Buffer.from([0xfc | (f.chromaFormat & 3)]),
    Buffer.from([0xf8 | (f.bitDepthLumaMinus8 & 7)]),
    Buffer.from([0xf8 | (f.bitDepthChromaMinus8 & 7)]),
    u16(0), // avgFrameRate: unknown
    // constantFrameRate 0, numTemporalLayers, temporalIdNested, lengthSizeMinusOne 3
    Buffer.from([((f.temporalLayers & 7) << 3) | (f.temporalIdNested ? 4 : 0) | 3]),
    Buffer.from([3]), // numOfArrays
  ]);
  const array = (type: number, nal: Buffer) => Buffer.concat([Buffer.from([0x80 | type]), u16(1), u16(nal.length), nal]);
  return Buffer.concat([head, array(HevcNalType.vps, vps), array(HevcNalType.sps, sps), array(HevcNalType.pps, pps)]);
}
