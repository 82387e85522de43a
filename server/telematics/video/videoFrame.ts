/**
 * A reassembled H.264 frame as FLV carries it: the parameter sets taken out (they go once, in the
 * decoder configuration), delimiters dropped, the rest of the NAL units kept. Live channels and
 * playbacks both remux through here.
 */

import type { MediaFrame } from './frameAssembler';
import { nalType, NalType, splitAnnexB } from './h264';
import { DataType } from './rtpPacket';

export interface VideoFrame {
  key: boolean;
  /** The terminal's timestamp, ms. */
  timestamp: number;
  nals: Buffer[];
  bytes: number;
  /** When the server had the whole frame, ms since 1970 (the live latency is measured from it). */
  arrivedAt: number;
}

/** The latest SPS and PPS of a stream. */
export interface ParameterSets {
  sps: Buffer | null;
  pps: Buffer | null;
}

/** The video frame of a media frame (null for audio, pass-through or a frame of parameter sets only); updates `ps`. */
export function videoFrameOf(f: MediaFrame, ps: ParameterSets): VideoFrame | null {
  if (f.dataType > DataType.bFrame) return null;
  const nals: Buffer[] = [];
  let key = f.dataType === DataType.iFrame;
  for (const nal of splitAnnexB(f.data)) {
    const t = nalType(nal);
    if (t === NalType.sps) ps.sps = Buffer.from(nal);
    else if (t === NalType.pps) ps.pps = Buffer.from(nal);
    else if (t !== NalType.aud) nals.push(nal);
    if (t === NalType.idr) key = true;
  }
  return nals.length ? { key, timestamp: f.timestamp, nals, bytes: f.data.length, arrivedAt: Date.now() } : null;
}
