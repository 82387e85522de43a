/**
 * A simulated camera terminal answers 0x9101 by streaming the shipped clip in real time to the
 * media server, which a viewer receives as FLV; 0x9102 (the last viewer gone) stops it.
 */

import { sql } from 'kysely';
import { attachCamera } from '../../../server/simulator/camera';
import { SimTerminal } from '../../../server/simulator/terminal';
import { demoTerminal, until } from '../telematics/gateway/harness';
import { flvFrames } from '../telematics/video/flvParse';
import { startVideo, watch, type Harness } from '../telematics/video/harness';

describe('a simulated camera terminal', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startVideo('pglite');
  }, 240_000);
  afterAll(() => h?.close());

  it('streams the clip when asked and stops when the channel closes', async () => {
    const phone = demoTerminal(12);
    const t = new SimTerminal({ host: '127.0.0.1', port: h.gatewayPort, phone });
    const camera = attachCamera(t, phone);
    await t.connect();
    const r = await sql<{ id: number }>`
      SELECT v.id FROM vehicle v JOIN terminal t ON t.id = v.terminal_id WHERE t.terminal_no = ${phone}`.execute(h.s.database.db);
    const began = Date.now();
    const viewer = await watch(h, r.rows[0].id, 2);
    // Real time: 30 frames (1.2 s of the clip) take more than a second, starting at an I frame.
    const got = flvFrames(await viewer.until((b) => flvFrames(b).length >= 30));
    expect(Date.now() - began).toBeGreaterThanOrEqual(1000);
    expect(got[0]).toMatchObject({ frameType: 1, timestamp: 0 });
    expect(got.slice(0, 30).map((f) => f.timestamp)).toEqual(Array.from({ length: 30 }, (_, i) => i * 40));
    const stream = camera.streams.get(2)!;
    expect(stream.running).toBe(true);
    viewer.close();
    await until(() => !stream.running, 5000);
    expect(camera.streams.size).toBe(0);
    expect(h.channels.list()).toEqual([]);
    t.destroy();
  });
});
