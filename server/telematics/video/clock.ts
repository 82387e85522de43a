/**
 * The clock messages of a live stream, for the player's latency: beside the FLV, at most once a
 * second, a viewer who asked for them gets the FLV time of the frame just sent, the server's time
 * that frame arrived from the terminal, and the server's time now (the browser's clock may differ
 * from the server's: it measures its offset from the last). Layout: byte 0 CLOCK_MESSAGE, byte 1
 * zero, then the FLV time (uint32 BE, ms), the arrival and the send time (float64 BE, ms since
 * 1970). The browser's loader takes them out before the FLV demuxer (src/components/video/splitLoader.ts)
 * and reads them (latency.ts there).
 */

/** The first byte of a clock message; FLV's never start so (nor do the audio messages, 0xa0). */
export const CLOCK_MESSAGE = 0xa1;
/** A viewer gets a clock message at most this often, ms. */
export const CLOCK_EVERY_MS = 1000;
export const CLOCK_MESSAGE_BYTES = 22;

export function clockMessage(flvMs: number, arrivedAt: number, now = Date.now()): Buffer {
  const out = Buffer.alloc(CLOCK_MESSAGE_BYTES);
  out[0] = CLOCK_MESSAGE;
  out.writeUInt32BE(flvMs >>> 0, 2);
  out.writeDoubleBE(arrivedAt, 6);
  out.writeDoubleBE(now, 14);
  return out;
}
