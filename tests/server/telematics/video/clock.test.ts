/**
 * The clock messages beside a live stream (for the player's latency): a viewer who asks for them
 * (`clock=true`) gets one at most once a second, right after a frame, naming that frame's FLV time,
 * the server's time it arrived and the server's time now, as the console reads them; a viewer who
 * does not ask gets plain FLV.
 */

import { sql } from 'kysely';
import { attachCamera } from '../../../../server/simulator/camera';
import { SimTerminal } from '../../../../server/simulator/terminal';
import { CLOCK_EVERY_MS, CLOCK_MESSAGE } from '../../../../server/telematics/video/clock';
import { latencyMs, readClockMessage } from '../../../../src/components/video/latency';
import { openBinarySocket } from '../../../helpers/wsClient';
import { demoTerminal } from '../gateway/harness';
import { flvFrames, flvTags } from './flvParse';
import { startVideo, ticket, type Harness } from './harness';

const arrayBuffer = (b: Buffer): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

describe('live stream clock messages', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startVideo('pglite');
  }, 240_000);
  afterAll(() => h?.close());

  it('follows a frame at most once a second with its FLV time and arrival, on the server’s clock', async () => {
    const phone = demoTerminal(4);
    const t = new SimTerminal({ host: '127.0.0.1', port: h.gatewayPort, phone });
    attachCamera(t, phone);
    await t.connect();
    const vehicleId = (
      await sql<{ id: number }>`SELECT v.id FROM vehicle v JOIN terminal t ON v.terminal_id = t.id WHERE t.terminal_no = ${phone}`.execute(
        h.s.database.db,
      )
    ).rows[0].id;
    const began = Date.now();
    const ws = (url: string) => openBinarySocket(h.httpUrl.replace('http', 'ws') + url);
    const withClock = await ws((await ticket(h, h.admin, vehicleId, 1)).url! + '&clock=true');
    const plain = await ws((await ticket(h, h.admin, vehicleId, 1)).url!);
    try {
      const isClock = (c: Buffer) => c[0] === CLOCK_MESSAGE;
      await withClock.until(() => withClock.chunks.filter(isClock).length >= 3, 20_000);
      const received = Date.now();
      const chunks = [...withClock.chunks];
      const clocks = chunks.flatMap((c, i) => (isClock(c) ? [{ i, clock: readClockMessage(arrayBuffer(c), received)! }] : []));
      for (const { i, clock } of clocks) {
        // Right after the frame it names: that FLV tag's time.
        const before = chunks[i - 1];
        expect(before[0]).toBe(9);
        expect(before.readUIntBE(4, 3) | (before[7] << 24)).toBe(clock.flvMs);
        expect(clock.arrivedAt).toBeGreaterThanOrEqual(began);
        expect(clock.arrivedAt).toBeLessThanOrEqual(received);
        // One machine, one clock: the offset is the message's age, never ahead.
        expect(clock.offset).toBeLessThanOrEqual(0);
        expect(clock.offset).toBeGreaterThan(-20_000);
      }
      const times = clocks.map((c) => c.clock.arrivedAt);
      for (let k = 1; k < times.length; k++) expect(times[k] - times[k - 1]).toBeGreaterThanOrEqual(CLOCK_EVERY_MS - 50);
      // The rest is FLV as ever.
      expect(flvFrames(Buffer.concat(chunks.filter((c) => !isClock(c)))).length).toBeGreaterThan(25);
      // The picture of the last clock's frame, shown now: its age on the server's clock.
      const last = clocks[clocks.length - 1].clock;
      const now = Date.now();
      expect(latencyMs(last, last.flvMs / 1000, now)).toBe(Math.max(0, Math.round(now + last.offset - last.arrivedAt)));
      // An earlier picture shown is that much older.
      expect(latencyMs(last, (last.flvMs - 400) / 1000, now)).toBe(latencyMs(last, last.flvMs / 1000, now) + 400);
      // Asked for nothing: nothing but FLV.
      const bytes = await plain.until((b) => flvFrames(b).length > 10);
      expect(plain.chunks.some(isClock)).toBe(false);
      expect(flvTags(bytes)[0]).toMatchObject({ type: 9, avcPacketType: 0 });
    } finally {
      withClock.close();
      plain.close();
      t.destroy();
    }
  }, 60_000);
});
