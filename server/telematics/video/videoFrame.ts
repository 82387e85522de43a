/**
 * A reassembled H.264 or H.265 frame as FLV carries it: the parameter sets taken out (they go once, in
 * the decoder configuration), delimiters dropped, the rest of the NAL units kept. Live channels and
 * playbacks both remux through here: `sequenceHeaderOf` and `frameTagOf` write the codec's FLV.
 */

import { AV_CODING } from '../jt808/codec';
import { avcFrameTag, avcSequenceHeaderTag, hevcFrameTag, hevcSequenceHeaderTag } from './flv';
import type { MediaFrame } from './frameAssembler';
import { nalType, NalType, splitAnnexB } from './h264';
import { hevcDecoderConfiguration, HevcNalType, hevcNalType, isHevcKey } from './h265';
import { DataType } from './rtpPacket';

export type VideoCodec = 'h264' | 'h265';

export interface VideoFrame {
  codec: VideoCodec;
  key: boolean;
  /** The terminal's timestamp, ms. */
  timestamp: number;
  nals: Buffer[];
  bytes: number;
  /** When the server had the whole frame, ms since 1970 (the live latency is measured from it). */
  arrivedAt: number;
}

/** The latest parameter sets of a stream, and its codec (from its last frame). */
export interface ParameterSets {
  sps: Buffer | null;
  pps: Buffer | null;
  /** H.265 only. */
  vps?: Buffer | null;
  codec?: VideoCodec;
}

/** The video frame of a media frame (null for audio, pass-through or a frame of parameter sets only); updates `ps`. */
export function videoFrameOf(f: MediaFrame, ps: ParameterSets): VideoFrame | null {
  if (f.dataType > DataType.bFrame) return null;
  const codec: VideoCodec = f.payloadType === AV_CODING.h265 ? 'h265' : 'h264';
  if (ps.codec !== codec) {
    // A stream that changed its coding: the other codec's parameter sets no longer apply.
    ps.codec = codec;
    ps.sps = ps.pps = ps.vps = null;
  }
  const nals: Buffer[] = [];
  let key = f.dataType === DataType.iFrame;
  for (const nal of splitAnnexB(f.data)) {
    if (codec === 'h265') {
      const t = hevcNalType(nal);
      if (t === HevcNalType.vps) ps.vps = Buffer.from(nal);
      else if (t === HevcNalType.sps) ps.sps = Buffer.from(nal);
      else if (t === HevcNalType.pps) ps.pps = Buffer.from(nal);
      else if (t !== HevcNalType.aud) nals.push(nal);
      if (isHevcKey(t)) key = true;
      continue;
    }
    const t = nalType(nal);
    if (t === NalType.sps) ps.sps = Buffer.from(nal);
    else if (t === NalType.pps) ps.pps = Buffer.from(nal);
    else if (t !== NalType.aud) nals.push(nal);
    if (t === NalType.idr) key = true;
  }
  return nals.length ? { codec, key, timestamp: f.timestamp, nals, bytes: f.data.length, arrivedAt: Date.now() } : null;
}

/** The FLV decoder configuration tag of a stream, null until it has every parameter set its codec needs. */
export function sequenceHeaderOf(ps: ParameterSets): Buffer | null {
  if (!ps.sps || !ps.pps) return null;
  if (ps.codec !== 'h265') return avcSequenceHeaderTag(ps.sps, ps.pps);
  return ps.vps ? hevcSequenceHeaderTag(hevcDecoderConfiguration(ps.vps, ps.sps, ps.pps)) : null;
}

/** Whether a stream has the parameter sets for its decoder configuration. */
export function hasParameterSets(ps: ParameterSets): boolean {
  return !!ps.sps && !!ps.pps && (ps.codec !== 'h265' || !!ps.vps);
}

/** A frame as an FLV video tag at `timestampMs`. */
export function frameTagOf(f: VideoFrame, timestampMs: number): Buffer {
  return f.codec === 'h265' ? hevcFrameTag(f.key, timestampMs, f.nals) : avcFrameTag(f.key, timestampMs, f.nals);
}
