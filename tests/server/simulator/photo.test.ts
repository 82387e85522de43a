/**
 * The simulator's photos: real JPEGs read back with the same library, at the size the 0x8801
 * resolution asks for, a few KB at 320×240, showing the colour bars, the licence-like strip in blue
 * and the time stamp strip, and the same bytes for the same shot.
 */
import { decode } from 'jpeg-js';
import { drawPhoto, jpegSize, stampOf } from '../../../server/simulator/photo';

const shot = { label: 'FS 0000012', time: Date.parse('2026-12-07T10:11:12Z'), channel: 1 };

describe('the simulator’s photos', () => {
  it('draws a JPEG of a few KB with the test pattern, the label strip and the time stamp', () => {
    const jpeg = drawPhoto(shot);
    expect(jpeg.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(jpeg.length).toBeGreaterThan(2_000);
    expect(jpeg.length).toBeLessThan(20_000);
    const { width, height, data } = decode(jpeg, { useTArray: true });
    expect([width, height]).toEqual([320, 240]);
    const at = (x: number, y: number) => [...data.subarray((y * width + x) * 4, (y * width + x) * 4 + 3)];
    const near = (got: number[], want: number[]) => got.every((v, i) => Math.abs(v - want[i]) < 40);
    expect(near(at(60, 50), [235, 235, 16])).toBe(true); // the yellow bar
    expect(near(at(300, 50), [16, 16, 16])).toBe(true); // the black bar
    expect(near(at(40, 185), [0, 60, 170])).toBe(true); // the licence-like strip's blue
    expect(near(at(315, 235), [0, 0, 0])).toBe(true); // the time stamp strip
    // The stamp's white text lies somewhere in the bottom strip.
    const stampRow = Array.from({ length: 200 }, (_, x) => at(x + 4, 235 - 4));
    expect(stampRow.some((p) => p.every((v) => v > 180))).toBe(true);
    expect(stampOf(shot.time)).toBe('2026-12-07 18:11:12');
  });

  it('draws the size the resolution asks for, and the same bytes for the same shot', () => {
    expect(jpegSize(drawPhoto({ ...shot, resolution: 2 }))).toEqual({ width: 640, height: 480 });
    expect(jpegSize(drawPhoto({ ...shot, resolution: 5 }))).toEqual({ width: 176, height: 144 });
    expect(jpegSize(drawPhoto({ ...shot, resolution: 99 }))).toEqual({ width: 320, height: 240 });
    expect(drawPhoto(shot).equals(drawPhoto(shot))).toBe(true);
    expect(drawPhoto({ ...shot, quality: 1 }).length).toBeGreaterThan(drawPhoto({ ...shot, quality: 10 }).length);
  });
});
