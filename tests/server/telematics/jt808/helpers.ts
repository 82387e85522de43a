/** Test helpers for the JT/T 808 codec tests. */

import { escapeFrame, unframe, xorChecksum } from '../../../../server/telematics/jt808/codec';

/** Edit the unescaped packet of a wire frame, then fix the checksum and escape it again. */
export function patchPacket(wire: Buffer, edit: (packet: Buffer) => void): Buffer {
  const p = Buffer.from(unframe(wire));
  edit(p);
  p[p.length - 1] = xorChecksum(p, 0, p.length - 1);
  return escapeFrame(p);
}

/** The unescaped packet of a wire frame, with its checksum recomputed (for building bad input). */
export function withChecksum(packet: Buffer): Buffer {
  const p = Buffer.from(packet);
  p[p.length - 1] = xorChecksum(p, 0, p.length - 1);
  return p;
}
