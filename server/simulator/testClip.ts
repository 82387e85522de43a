/**
 * The simulator's video: the short H.264 clip and G.711A tone the project ships
 * (server/simulator/clip/, made once by scripts/make-test-clip.sh), cut into the frames a camera
 * terminal sends, each with its time in the clip.
 */

import fs from 'node:fs';
import path from 'node:path';
import { accessUnits, annexB, nalType, NalType } from '../telematics/video/h264';

export const CLIP_DIR = path.join(__dirname, 'clip');
export const CLIP_FPS = 25;
/** G.711A at 8 kHz: 8 bytes a millisecond; the tone goes out in frames of 40 ms. */
export const TONE_FRAME_BYTES = 320;

export interface ClipFrame {
  /** An IDR picture (with its SPS and PPS in front). */
  key: boolean;
  /** ms from the clip's start. */
  at: number;
  /** Annex B bytes of the access unit. */
  data: Buffer;
}

export interface TestClip {
  video: ClipFrame[];
  /** 40 ms frames of G.711A. */
  audio: Array<{ at: number; data: Buffer }>;
  durationMs: number;
}

let cached: TestClip | null = null;

export function loadTestClip(): TestClip {
  if (cached) return cached;
  const stream = fs.readFileSync(path.join(CLIP_DIR, 'testClip.h264'));
  const video = accessUnits(stream).map((nals, i) => ({
    key: nals.some((n) => nalType(n) === NalType.idr),
    at: Math.round((i * 1000) / CLIP_FPS),
    data: annexB(nals),
  }));
  const tone = fs.readFileSync(path.join(CLIP_DIR, 'testTone.g711a'));
  const audio: TestClip['audio'] = [];
  for (let o = 0; o < tone.length; o += TONE_FRAME_BYTES) audio.push({ at: o / 8, data: tone.subarray(o, o + TONE_FRAME_BYTES) });
  cached = { video, audio, durationMs: Math.round((video.length * 1000) / CLIP_FPS) };
  return cached;
}
