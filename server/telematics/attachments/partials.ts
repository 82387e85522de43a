/**
 * Files under way on the attachment link: each is written at its offsets into a part file under
 * DATA_DIR/media/partial (never the media store) with the byte ranges received so far, kept across
 * connections so an upload cut in the middle resumes where it stopped (0x9212 lists what is
 * missing). A part idle for `ttlMs` is dropped with its file.
 */

import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Range } from '../jt808/messages/attachmentUpload';

export interface Part {
  key: string;
  size: number;
  type: number;
  file: string;
  /** Received [offset, end) ranges, sorted and merged. */
  ranges: Array<[number, number]>;
  touched: number;
  handle?: FileHandle;
}

/** Ranges merged with [a, b). */
export function addRange(ranges: Array<[number, number]>, a: number, b: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let cur: [number, number] = [a, b];
  for (const r of ranges) {
    if (r[1] < cur[0] || r[0] > cur[1]) out.push(r);
    else cur = [Math.min(r[0], cur[0]), Math.max(r[1], cur[1])];
  }
  out.push(cur);
  return out.sort((x, y) => x[0] - y[0]);
}

/** What [0, size) lacks of the ranges. */
export function missingOf(ranges: ReadonlyArray<[number, number]>, size: number): Range[] {
  const out: Range[] = [];
  let at = 0;
  for (const [a, b] of ranges) {
    if (a > at) out.push({ offset: at, length: a - at });
    at = Math.max(at, b);
  }
  if (at < size) out.push({ offset: at, length: size - at });
  return out;
}

export class Partials {
  private readonly parts = new Map<string, Part>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly dir: string,
    private readonly ttlMs: number,
  ) {
    this.timer = setInterval(() => void this.sweep(), Math.min(ttlMs, 60_000));
    this.timer.unref();
  }

  get size(): number {
    return this.parts.size;
  }

  /** The part of a request's file, made (empty) when new; a size that changed starts it afresh. */
  async open(requestId: string, name: string, size: number, type: number): Promise<Part> {
    const key = `${requestId}/${name}`;
    const known = this.parts.get(key);
    if (known && known.size === size) {
      known.type = type;
      known.touched = Date.now();
      return known;
    }
    if (known) await this.drop(key);
    await mkdir(this.dir, { recursive: true });
    const file = path.join(this.dir, `${createHash('sha256').update(key).digest('hex')}.part`);
    const part: Part = { key, size, type, file, ranges: [], touched: Date.now() };
    part.handle = await open(file, 'w+');
    this.parts.set(key, part);
    return part;
  }

  get(requestId: string, name: string): Part | undefined {
    return this.parts.get(`${requestId}/${name}`);
  }

  async write(part: Part, offset: number, data: Buffer): Promise<void> {
    part.handle ??= await open(part.file, 'r+');
    await part.handle.write(data, 0, data.length, offset);
    part.ranges = addRange(part.ranges, offset, offset + data.length);
    part.touched = Date.now();
  }

  /** The whole file's bytes (the caller checked nothing is missing). */
  async read(part: Part): Promise<Buffer> {
    await part.handle?.close();
    part.handle = undefined;
    return readFile(part.file);
  }

  async drop(key: string): Promise<void> {
    const part = this.parts.get(key);
    if (!part) return;
    this.parts.delete(key);
    await part.handle?.close().catch(() => undefined);
    await rm(part.file, { force: true });
  }

  private async sweep(): Promise<void> {
    const now = Date.now();
    for (const p of [...this.parts.values()]) if (now - p.touched > this.ttlMs) await this.drop(p.key);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    for (const p of this.parts.values()) await p.handle?.close().catch(() => undefined);
  }
}
