/**
 * The simulated cameras' photos: small real JPEGs (jpeg-js) of a test pattern (colour bars and a
 * grey ramp), a licence-like strip with the terminal's label, and a time stamp strip with the
 * channel, as a dash camera overlays them. A few KB at 320×240; the same input draws the same bytes.
 */

import { decode, encode } from 'jpeg-js';
import { PHOTO_RESOLUTIONS } from '../telematics/jt808/codec';

export interface PhotoShot {
  /** Shown on the licence-like strip (letters, digits, '-', '.', ':', '/', space; others drawn blank). */
  label: string;
  /** When it was taken, stamped as YYYY-MM-DD hh:mm:ss at GMT+8 (the terminal's clock). */
  time: number;
  channel: number;
  /** 0x8801 resolution code (1 = 320×240; unknown codes draw at 320×240). */
  resolution?: number;
  /** 0x8801 quality, 1 (best) to 10. */
  quality?: number;
}

type Rgb = readonly [number, number, number];

/** 5×7 glyphs, one byte per column, bit 0 the top row (the classic LCD font). */
const GLYPHS: Readonly<Record<string, readonly number[]>> = {
  '-': [0x08, 0x08, 0x08, 0x08, 0x08],
  '.': [0x00, 0x60, 0x60, 0x00, 0x00],
  '/': [0x20, 0x10, 0x08, 0x04, 0x02],
  ':': [0x00, 0x36, 0x36, 0x00, 0x00],
  '0': [0x3e, 0x51, 0x49, 0x45, 0x3e],
  '1': [0x00, 0x42, 0x7f, 0x40, 0x00],
  '2': [0x42, 0x61, 0x51, 0x49, 0x46],
  '3': [0x21, 0x41, 0x45, 0x4b, 0x31],
  '4': [0x18, 0x14, 0x12, 0x7f, 0x10],
  '5': [0x27, 0x45, 0x45, 0x45, 0x39],
  '6': [0x3c, 0x4a, 0x49, 0x49, 0x30],
  '7': [0x01, 0x71, 0x09, 0x05, 0x03],
  '8': [0x36, 0x49, 0x49, 0x49, 0x36],
  '9': [0x06, 0x49, 0x49, 0x29, 0x1e],
  A: [0x7e, 0x11, 0x11, 0x11, 0x7e],
  B: [0x7f, 0x49, 0x49, 0x49, 0x36],
  C: [0x3e, 0x41, 0x41, 0x41, 0x22],
  D: [0x7f, 0x41, 0x41, 0x22, 0x1c],
  E: [0x7f, 0x49, 0x49, 0x49, 0x41],
  F: [0x7f, 0x09, 0x09, 0x09, 0x01],
  G: [0x3e, 0x41, 0x49, 0x49, 0x7a],
  H: [0x7f, 0x08, 0x08, 0x08, 0x7f],
  I: [0x00, 0x41, 0x7f, 0x41, 0x00],
  J: [0x20, 0x40, 0x41, 0x3f, 0x01],
  K: [0x7f, 0x08, 0x14, 0x22, 0x41],
  L: [0x7f, 0x40, 0x40, 0x40, 0x40],
  M: [0x7f, 0x02, 0x0c, 0x02, 0x7f],
  N: [0x7f, 0x04, 0x08, 0x10, 0x7f],
  O: [0x3e, 0x41, 0x41, 0x41, 0x3e],
  P: [0x7f, 0x09, 0x09, 0x09, 0x06],
  Q: [0x3e, 0x41, 0x51, 0x21, 0x5e],
  R: [0x7f, 0x09, 0x19, 0x29, 0x46],
  S: [0x46, 0x49, 0x49, 0x49, 0x31],
  T: [0x01, 0x01, 0x7f, 0x01, 0x01],
  U: [0x3f, 0x40, 0x40, 0x40, 0x3f],
  V: [0x1f, 0x20, 0x40, 0x20, 0x1f],
  W: [0x3f, 0x40, 0x38, 0x40, 0x3f],
  X: [0x63, 0x14, 0x08, 0x14, 0x63],
  Y: [0x07, 0x08, 0x70, 0x08, 0x07],
  Z: [0x61, 0x51, 0x49, 0x45, 0x43],
};

/** White, yellow, cyan, green, magenta, red, blue, black: the broadcast bars. */
const BARS: readonly Rgb[] = [
  [235, 235, 235],
  [235, 235, 16],
  [16, 235, 235],
  [16, 235, 16],
  [235, 16, 235],
  [235, 16, 16],
  [16, 16, 235],
  [16, 16, 16],
];
const PLATE_BLUE: Rgb = [0, 60, 170];
const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [0, 0, 0];

class Canvas {
  readonly data: Buffer;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.data = Buffer.alloc(width * height * 4, 0xff);
  }

  fill(x0: number, y0: number, w: number, h: number, c: Rgb): void {
    for (let y = Math.max(0, y0); y < Math.min(this.height, y0 + h); y++)
      for (let x = Math.max(0, x0); x < Math.min(this.width, x0 + w); x++) this.data.set(c, (y * this.width + x) * 4);
  }

  /** Text `scale` pixels per font dot, centred on the row (x, y): its top-left corner when not centred. */
  text(s: string, x: number, y: number, scale: number, c: Rgb, centred = false): void {
    const advance = 6 * scale;
    let at = centred ? Math.round(x - (s.length * advance - scale) / 2) : x;
    for (const ch of s.toUpperCase()) {
      const glyph = GLYPHS[ch];
      if (glyph)
        glyph.forEach((column, cx) => {
          for (let cy = 0; cy < 7; cy++) if (column & (1 << cy)) this.fill(at + cx * scale, y + cy * scale, scale, scale, c);
        });
      at += advance;
    }
  }
}

const two = (n: number) => String(n).padStart(2, '0');

/** YYYY-MM-DD hh:mm:ss at GMT+8. */
export function stampOf(ms: number): string {
  const d = new Date(ms + 8 * 3_600_000);
  return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

/** The size a resolution code asks for (unknown codes: 320×240). */
export function photoSize(resolution = 1): { width: number; height: number } {
  const [width, height] = (PHOTO_RESOLUTIONS[resolution] ?? PHOTO_RESOLUTIONS[1]).split('x').map(Number);
  return { width, height };
}

/** The photo of a shot, as JPEG bytes. */
export function drawPhoto(shot: PhotoShot): Buffer {
  const { width, height } = photoSize(shot.resolution);
  const c = new Canvas(width, height);
  const scale = Math.max(1, Math.round(height / 120));
  const stampHeight = 11 * scale;
  const barsHeight = Math.round(height * 0.55);
  BARS.forEach((colour, i) => c.fill(Math.round((i * width) / BARS.length), 0, Math.ceil(width / BARS.length), barsHeight, colour));
  // A grey ramp under the bars: 16 steps from black to white.
  const rampHeight = Math.round(height * 0.12);
  for (let i = 0; i < 16; i++) {
    const v = Math.round((i * 255) / 15);
    c.fill(Math.round((i * width) / 16), barsHeight, Math.ceil(width / 16), rampHeight, [v, v, v]);
  }
  // The licence-like strip: white text on blue with a white rim, centred.
  const plateTop = barsHeight + rampHeight + 2 * scale;
  const plateHeight = height - stampHeight - plateTop - 2 * scale;
  const plateWidth = Math.round(width * 0.8);
  const plateLeft = Math.round((width - plateWidth) / 2);
  c.fill(plateLeft, plateTop, plateWidth, plateHeight, WHITE);
  c.fill(plateLeft + scale, plateTop + scale, plateWidth - 2 * scale, plateHeight - 2 * scale, PLATE_BLUE);
  const labelScale = Math.max(
    1,
    Math.min(Math.floor((plateHeight - 4 * scale) / 7), Math.floor((plateWidth - 4 * scale) / (6 * shot.label.length || 1))),
  );
  c.text(shot.label, width / 2, plateTop + Math.round((plateHeight - 7 * labelScale) / 2), labelScale, WHITE, true);
  // The time stamp strip.
  c.fill(0, height - stampHeight, width, stampHeight, BLACK);
  c.text(`${stampOf(shot.time)} CH${shot.channel}`, 2 * scale, height - stampHeight + 2 * scale, scale, WHITE);
  // 0x8801 quality 1 is the best: 1..10 maps to 80..26.
  const quality = 86 - 6 * Math.min(10, Math.max(1, shot.quality ?? 5));
  return encode({ data: c.data, width, height }, quality).data;
}

/** Width and height of JPEG bytes, read back with the same library (tests, the bench's check). */
export function jpegSize(jpeg: Buffer): { width: number; height: number } {
  const { width, height } = decode(jpeg, { useTArray: true });
  return { width, height };
}
