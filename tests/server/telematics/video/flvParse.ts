/** Reads the FLV a video WebSocket sends, for the tests: the header and each tag. */

export interface FlvTag {
  type: number;
  timestamp: number;
  /** Video: 1 key frame, 2 inter frame. */
  frameType: number;
  /** Video: 0 decoder configuration, 1 NAL units. */
  avcPacketType: number;
  size: number;
}

/** The tags of an FLV byte stream (whole tags only); throws on a malformed stream. */
export function flvTags(b: Buffer): FlvTag[] {
  if (b.length < 13) return [];
  if (b.toString('latin1', 0, 3) !== 'FLV' || b[3] !== 1 || b.readUInt32BE(5) !== 9 || b.readUInt32BE(9) !== 0)
    throw new Error('no FLV header');
  const tags: FlvTag[] = [];
  let o = 13;
  while (o + 11 <= b.length) {
    const size = b.readUIntBE(o + 1, 3);
    if (o + 11 + size + 4 > b.length) break;
    const timestamp = b.readUIntBE(o + 4, 3) | (b[o + 7] << 24);
    if (b.readUInt32BE(o + 11 + size) !== 11 + size) throw new Error(`bad previous tag size at ${o}`);
    tags.push({ type: b[o], timestamp, frameType: b[o + 11] >> 4, avcPacketType: b[o + 12], size });
    o += 11 + size + 4;
  }
  return tags;
}

/** The frames (video tags with NAL units) of a stream. */
export function flvFrames(b: Buffer): FlvTag[] {
  return flvTags(b).filter((t) => t.type === 9 && t.avcPacketType === 1);
}
