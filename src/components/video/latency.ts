/**
 * A live stream's latency, from the server's clock messages (server/telematics/video/clock.ts:
 * byte 0 0xa1, the FLV time of a frame as uint32 BE at 2, the server's time it arrived and the
 * server's time it was sent as float64 BE at 6 and 14): how long ago the frame on screen reached
 * the server, on the server's clock.
 */

export interface StreamClock {
  /** FLV time of the frame the message came with, ms. */
  flvMs: number;
  /** When the server had that frame, on its clock, ms since 1970. */
  arrivedAt: number;
  /** The server's clock minus this browser's, ms (the message's transit counts as none). */
  offset: number;
}

const BYTES = 22;
const CLOCK_MESSAGE = 0xa1;

/** The clock of a message, null when the message is none. */
export function readClockMessage(m: ArrayBuffer, receivedAt = Date.now()): StreamClock | null {
  if (m.byteLength !== BYTES) return null;
  const v = new DataView(m);
  if (v.getUint8(0) !== CLOCK_MESSAGE) return null;
  return { flvMs: v.getUint32(2), arrivedAt: v.getFloat64(6), offset: v.getFloat64(14) - receivedAt };
}

/**
 * How long ago, ms, the frame shown at `currentTimeS` (the video element's time: FLV time) reached
 * the server: the clock's frame arrived at `arrivedAt`, and the frames before it by their FLV time earlier.
 */
export function latencyMs(clock: StreamClock, currentTimeS: number, now = Date.now()): number {
  const shownArrivedAt = clock.arrivedAt - (clock.flvMs - currentTimeS * 1000);
  return Math.max(0, Math.round(now + clock.offset - shownArrivedAt));
}
