/** H.264 Annex B byte streams: NAL units between start codes, their types, the parameter sets. */

export const NalType = { nonIdr: 1, idr: 5, sei: 6, sps: 7, pps: 8, aud: 9 } as const;

/** The NAL units of an Annex B buffer (start codes 00 00 01 or 00 00 00 01 removed). */
export function splitAnnexB(b: Buffer): Buffer[] {
  const starts: Array<{ at: number; code: number }> = [];
  for (let i = 0; i + 2 < b.length; i++) {
    if (b[i] === 0 && b[i + 1] === 0) {
      if (b[i + 2] === 1) {
        starts.push({ at: i, code: 3 });
        i += 2;
      } else if (b[i + 2] === 0 && i + 3 < b.length && b[i + 3] === 1) {
        starts.push({ at: i, code: 4 });
        i += 3;
      }
    }
  }
  const out: Buffer[] = [];
  for (let k = 0; k < starts.length; k++) {
    const from = starts[k].at + starts[k].code;
    const to = k + 1 < starts.length ? starts[k + 1].at : b.length;
    if (to > from) out.push(b.subarray(from, to));
  }
  return out;
}

export function nalType(nal: Buffer): number {
  return nal[0] & 0x1f;
}

/** Access units of a whole Annex B stream: each starts at an AUD, SPS, SEI or a slice after a slice. */
export function accessUnits(stream: Buffer): Buffer[][] {
  const units: Buffer[][] = [];
  let current: Buffer[] = [];
  let hasSlice = false;
  for (const nal of splitAnnexB(stream)) {
    const t = nalType(nal);
    const isSlice = t === NalType.idr || t === NalType.nonIdr;
    // A new picture: a non-slice unit after a slice, or a slice starting a new frame (first_mb_in_slice 0: the top bit set).
    if (hasSlice && (!isSlice || (nal[1] & 0x80) !== 0)) {
      units.push(current);
      current = [];
      hasSlice = false;
    }
    current.push(nal);
    if (isSlice) hasSlice = true;
  }
  if (current.length) units.push(current);
  return units;
}

/** Annex B bytes of NAL units (4-byte start codes). */
export function annexB(nals: Buffer[]): Buffer {
  const parts: Buffer[] = [];
  for (const n of nals) parts.push(Buffer.from([0, 0, 0, 1]), n);
  return Buffer.concat(parts);
}
