/**
 * The shipped test clip is what the simulator and the video tests need: H.264 baseline 320x240,
 * 4 s at 25 fps with an IDR and its parameter sets each second, and 4 s of G.711A at 8 kHz; and
 * the generator script still makes such a clip (ffmpeg installed, as for the CI).
 */

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLIP_DIR, loadTestClip } from '../../../server/simulator/testClip';
import { accessUnits, nalType, NalType, splitAnnexB } from '../../../server/telematics/video/h264';

/** profile_idc of the stream's first SPS. */
function spsProfile(stream: Buffer): number {
  const sps = splitAnnexB(stream).find((n) => nalType(n) === NalType.sps);
  if (!sps) throw new Error('no SPS');
  return sps[1];
}

function checkClip(dir: string): void {
  const h264 = fs.readFileSync(path.join(dir, 'testClip.h264'));
  expect(h264.length).toBeLessThan(150_000);
  expect(spsProfile(h264)).toBe(66); // baseline
  const units = accessUnits(h264);
  expect(units).toHaveLength(100);
  units.forEach((nals, i) => {
    const types = nals.map(nalType);
    if (i % 25 === 0) expect(types.slice(0, 2)).toEqual([NalType.sps, NalType.pps]);
    expect(types.includes(NalType.idr)).toBe(i % 25 === 0);
  });
  const tone = fs.readFileSync(path.join(dir, 'testTone.g711a'));
  expect(tone.length).toBe(32_000);
  // A tone, not silence (one code repeated): a 1 kHz sine at 8 kHz takes a handful of codes.
  expect(new Set(tone).size).toBeGreaterThan(2);
}

describe('the test clip', () => {
  it('is shipped as H.264 baseline, 100 frames with an IDR each second, and a G.711A tone', () => {
    checkClip(CLIP_DIR);
    const clip = loadTestClip();
    expect(clip.durationMs).toBe(4000);
    expect(clip.video.filter((f) => f.key).map((f) => f.at)).toEqual([0, 1000, 2000, 3000]);
    expect(clip.audio).toHaveLength(100);
  });

  it('is what the generator script makes', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clip-'));
    try {
      execFileSync('sh', [path.join(__dirname, '../../../scripts/make-test-clip.sh'), dir], { stdio: 'pipe' });
      checkClip(dir);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
