/**
 * A simulated camera terminal answers 0x9101 by streaming the shipped clip in real time to the
 * media server, which a viewer receives as FLV (and its tone, as PCM, when the viewer asks for
 * audio); 0x9102 (the last viewer gone) stops it.
 */

import { sql } from 'kysely';
import { attachCamera } from '../../../server/simulator/camera';
import { SimTerminal } from '../../../server/simulator/terminal';
import { demoTerminal, until } from '../telematics/gateway/harness';
import { flvFrames } from '../telematics/video/flvParse';
import { startVideo, watch, type Harness } from '../telematics/video/harness';
import { loadTestClip } from '../../../server/simulator/testClip';
import { alawSample, AUDIO_MESSAGE } from '../../../server/telematics/video/audio';
import { openBinarySocket } from '../../helpers/wsClient';

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

  it('sends its tone with the picture when audio is asked, decoded to PCM for a viewer who wants it', async () => {
    const phone = demoTerminal(13);
    const t = new SimTerminal({ host: '127.0.0.1', port: h.gatewayPort, phone });
    attachCamera(t, phone);
    await t.connect();
    const r = await sql<{ id: number }>`
      SELECT v.id FROM vehicle v JOIN terminal t ON t.id = v.terminal_id WHERE t.terminal_no = ${phone}`.execute(h.s.database.db);
    const quiet = await watch(h, r.rows[0].id, 1);
    const ticket = await h.s.call(h.admin, 'POST', '/api/video/live', { vehicleId: r.rows[0].id, channel: 1, audio: true });
    const listener = await openBinarySocket(h.httpUrl.replace('http', 'ws') + ticket.body.url);
    const audio = () => listener.chunks.filter((c) => c[0] === AUDIO_MESSAGE);
    await listener.until(() => audio().length >= 5);
    // Each 40 ms frame of the tone: 320 samples at 8 kHz, the A-law bytes decoded.
    const tone = loadTestClip().audio;
    const first = audio()[0];
    expect(first.readUInt32BE(2)).toBe(8000);
    expect(first.length).toBe(6 + 320 * 2);
    const k = tone.findIndex((a) => alawSample(a.data[0]) === first.readInt16LE(6) && alawSample(a.data[1]) === first.readInt16LE(8));
    expect(k).toBeGreaterThanOrEqual(0);
    expect(Array.from({ length: 320 }, (_, i) => first.readInt16LE(6 + i * 2))).toEqual(Array.from(tone[k].data, alawSample));
    // The picture goes on beside it; a viewer who did not ask gets none.
    expect(flvFrames(Buffer.concat(listener.chunks.filter((c) => c[0] !== AUDIO_MESSAGE))).length).toBeGreaterThan(0);
    expect(quiet.chunks.some((c) => c[0] === AUDIO_MESSAGE)).toBe(false);
    expect(flvFrames(Buffer.concat(quiet.chunks)).length).toBeGreaterThan(0);
    quiet.close();
    listener.close();
    t.destroy();
  });
});
