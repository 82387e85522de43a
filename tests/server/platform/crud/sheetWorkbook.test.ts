import crypto from 'node:crypto';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { entities } from '../../../../schemas/generated/registry';
import { translator } from '../../../../schemas/kit/catalogue';
import { buildModel } from '../../../../server/platform/crud/model';
import { exportColumns } from '../../../../server/platform/crud/sheet/columns';
import { abortedMessage, streamWorkbook, whenWritable } from '../../../../server/platform/crud/sheet/workbook';

/** The streaming writer on its own: back-pressure, a reader that goes away, and no listener left behind. */
const brands = buildModel(entities.vehicleBrand, entities);
const cols = exportColumns(brands);
const t = translator('zh-CN');

/** `count` batches of `size` brand rows; `closed` tells whether the consumer closed the generator. */
function batches(count: number, size: number) {
  const state = { yielded: 0, closed: false };
  async function* gen() {
    try {
      for (let b = 0; b < count; b++) {
        state.yielded++;
        await new Promise((r) => setTimeout(r, 1)); // the database query each batch waits for
        // Random text: compressed output as large as a real export's, so the stream really fills.
        yield Array.from({ length: size }, (_, i) => ({
          name: `B${b}-${i}-${crypto.randomBytes(16).toString('hex')}`,
          manufacturer: `M${(b * size + i) % 97}`,
          enabled: i % 2 === 0,
        }));
      }
    } finally {
      state.closed = true;
    }
  }
  return { state, rows: gen() };
}

const LISTENED = ['close', 'drain', 'error', 'finish'] as const;
const counts = (s: PassThrough) => Object.fromEntries(LISTENED.map((e) => [e, s.listenerCount(e)]));

describe('streamWorkbook', () => {
  it('waits for a slow reader batch after batch without adding listeners per batch', async () => {
    const out = new PassThrough({ highWaterMark: 4096 });
    const peak: Record<string, number> = Object.fromEntries(LISTENED.map((e) => [e, 0]));
    let drainWaits = 0;
    const on = out.on.bind(out);
    // Record the most listeners ever attached at once, whatever adds them.
    out.on = ((event: string, fn: (...a: unknown[]) => void) => {
      on(event, fn);
      if (event === 'drain') drainWaits++;
      if (event in peak) peak[event] = Math.max(peak[event], out.listenerCount(event));
      return out;
    }) as typeof out.on;
    const chunks: Buffer[] = [];
    const reader = (async () => {
      for await (const c of out) {
        chunks.push(c as Buffer);
        // Slow enough that the writer waits ~20 times on a quiet machine and still ~19 with the
        // cores saturated (5 ms gave 16, and 5 under a loaded CI run).
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const { state, rows } = batches(30, 300);
    const n = await streamWorkbook(out, brands, cols, t, rows);
    await reader;
    expect(n).toBe(9000);
    expect(state).toEqual({ yielded: 30, closed: true });
    // The reader really was slower than the writer: enough waits that a listener left per wait
    // would break the peak bound below.
    expect(drainWaits).toBeGreaterThanOrEqual(6);
    // Batches that each waited for 'drain': a listener left per batch would show here.
    expect(Math.max(...Object.values(peak))).toBeLessThan(6);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
    expect(wb.worksheets[0].rowCount).toBe(9001);
    expect(wb.worksheets[0].getRow(1).values).toEqual(expect.arrayContaining(['品牌名称', '制造商', '启用']));
    expect(String(wb.worksheets[0].getRow(9001).getCell(1).value)).toMatch(/^B29-299-/);
  });

  it('stops, closes its batches and settles when the reader goes away while it waits', async () => {
    const out = new PassThrough(); // nobody reads: the writer soon waits for 'drain'
    const { state, rows } = batches(1000, 500);
    const done = streamWorkbook(out, brands, cols, t, rows);
    const settled = done.then(
      () => 'resolved',
      (e: Error) => e.message,
    );
    // Wait for the state itself (the writer blocked on a full buffer), however slow the machine.
    while (!out.writableNeedDrain) await new Promise((r) => setTimeout(r, 10));
    expect(out.writableNeedDrain).toBe(true);
    const before = counts(out);
    out.destroy(); // the client went away
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([settled, new Promise((r) => (timer = setTimeout(() => r('still waiting'), 3000)))]);
    clearTimeout(timer);
    expect(outcome).toBe(abortedMessage);
    expect(state.closed).toBe(true);
    expect(state.yielded).toBeLessThan(1000);
    expect(counts(out).drain).toBeLessThanOrEqual(before.drain);
  });
});

describe('whenWritable', () => {
  it('resolves at once when there is room, on drain otherwise, and removes what it added', async () => {
    const out = new PassThrough({ highWaterMark: 4 });
    await expect(whenWritable(out)).resolves.toBeUndefined();
    out.write('more than four bytes');
    expect(out.writableNeedDrain).toBe(true);
    const base = counts(out);
    const waiting = whenWritable(out);
    expect(counts(out).drain).toBe(base.drain + 1);
    out.read();
    await expect(waiting).resolves.toBeUndefined();
    expect(counts(out)).toEqual(base);
  });

  it('rejects when the stream closes or fails instead of draining, and on a stream already gone', async () => {
    const closing = new PassThrough({ highWaterMark: 4 });
    closing.write('more than four bytes');
    const base = counts(closing);
    const w1 = whenWritable(closing);
    closing.destroy();
    await expect(w1).rejects.toThrow(abortedMessage);
    expect(counts(closing).drain).toBe(base.drain);

    const failing = new PassThrough({ highWaterMark: 4 });
    failing.on('error', () => undefined);
    failing.write('more than four bytes');
    const w2 = whenWritable(failing);
    failing.destroy(new Error('socket reset'));
    await expect(w2).rejects.toThrow('socket reset');

    await expect(whenWritable(closing)).rejects.toThrow(abortedMessage);
  });
});
