/**
 * Terminal audio to PCM, so a browser plays it without a codec of its own (Web Audio): G.711 A-law
 * and µ-law (ITU-T G.711) and IMA ADPCM (JT/T 1078 "ADPCMA"), 8 kHz mono, as 16-bit samples.
 * Many terminals put HiSilicon's 4-byte frame header (00 01, the payload's length in 16-bit words,
 * 00) in front of each audio frame: it is recognised and dropped.
 *
 * A viewer that asked for audio gets each frame as one binary WebSocket message beside the FLV:
 *   0   BYTE    0xA0 (no FLV message starts so: FLV's start with "F" or a tag type 8, 9 or 18)
 *   1   BYTE    0 (version)
 *   2   DWORD   sample rate, Hz (big-endian)
 *   6   …       samples, 16-bit little-endian, mono
 */

import { AV_CODING } from '../jt808/codec';

export const AUDIO_MESSAGE = 0xa0;
export const AUDIO_SAMPLE_RATE = 8000;

/** A G.711 A-law byte as a 16-bit sample. */
export function alawSample(byte: number): number {
  const a = byte ^ 0x55;
  let t = (a & 0x0f) << 4;
  const seg = (a & 0x70) >> 4;
  if (seg === 0) t += 8;
  else {
    t += 0x108;
    if (seg > 1) t <<= seg - 1;
  }
  return a & 0x80 ? t : -t;
}

/** A G.711 µ-law byte as a 16-bit sample. */
export function ulawSample(byte: number): number {
  const u = ~byte & 0xff;
  let t = ((u & 0x0f) << 3) + 0x84;
  t <<= (u & 0x70) >> 4;
  return u & 0x80 ? 0x84 - t : t - 0x84;
}

const ALAW = Int16Array.from({ length: 256 }, (_, b) => alawSample(b));
const ULAW = Int16Array.from({ length: 256 }, (_, b) => ulawSample(b));

const IMA_STEPS = [
  7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 19, 21, 23, 25, 28, 31, 34, 37, 41, 45, 50, 55, 60, 66, 73, 80, 88, 97, 107, 118, 130, 143, 157, 173,
  190, 209, 230, 253, 279, 307, 337, 371, 408, 449, 494, 544, 598, 658, 724, 796, 876, 963, 1060, 1166, 1282, 1411, 1552, 1707, 1878, 2066,
  2272, 2499, 2749, 3024, 3327, 3660, 4026, 4428, 4871, 5358, 5894, 6484, 7132, 7845, 8630, 9493, 10442, 11487, 12635, 13899, 15289, 16818,
  18500, 20350, 22385, 24623, 27086, 29794, 32767,
];
const IMA_INDEX = [-1, -1, -1, -1, 2, 4, 6, 8];

/**
 * An IMA ADPCM frame: its state (the first sample, 16-bit little-endian, the step index, a reserved
 * byte), then two samples a byte, the low nibble first.
 */
export function imaAdpcm(frame: Buffer): Int16Array {
  if (frame.length < 4) return new Int16Array(0);
  let sample = frame.readInt16LE(0);
  let index = Math.min(88, frame[2]);
  const out = new Int16Array((frame.length - 4) * 2);
  let n = 0;
  for (let i = 4; i < frame.length; i++) {
    for (const nibble of [frame[i] & 0x0f, frame[i] >> 4]) {
      const step = IMA_STEPS[index];
      let diff = step >> 3;
      if (nibble & 4) diff += step;
      if (nibble & 2) diff += step >> 1;
      if (nibble & 1) diff += step >> 2;
      sample = Math.max(-32768, Math.min(32767, nibble & 8 ? sample - diff : sample + diff));
      index = Math.max(0, Math.min(88, index + IMA_INDEX[nibble & 7]));
      out[n++] = sample;
    }
  }
  return out;
}

/** The frame without HiSilicon's header, when it has one that matches its length. */
export function withoutHisiHeader(b: Buffer): Buffer {
  if (b.length > 4 && b[0] === 0 && b[1] === 1 && b[3] === 0 && b[2] * 2 === b.length - 4) return b.subarray(4);
  return b;
}

/** The PCM of an audio frame of this coding (JT/T 1078 table 12), or null for a coding not decoded. */
export function decodeAudio(payloadType: number, body: Buffer): Int16Array | null {
  const b = withoutHisiHeader(body);
  switch (payloadType) {
    case AV_CODING.g711a:
      return Int16Array.from(b, (x) => ALAW[x]);
    case AV_CODING.g711u:
      return Int16Array.from(b, (x) => ULAW[x]);
    case AV_CODING.adpcma:
      return imaAdpcm(b);
    default:
      return null;
  }
}

/** The WebSocket message of PCM samples (the layout above). */
export function audioMessage(pcm: Int16Array, sampleRate = AUDIO_SAMPLE_RATE): Buffer {
  const out = Buffer.alloc(6 + pcm.length * 2);
  out[0] = AUDIO_MESSAGE;
  out.writeUInt32BE(sampleRate, 2);
  for (let i = 0; i < pcm.length; i++) out.writeInt16LE(pcm[i], 6 + i * 2);
  return out;
}
