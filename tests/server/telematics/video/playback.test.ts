/**
 * Recorded playback end to end over real TCP with the simulator's camera terminal: the records
 * query goes down as 0x9205 and the terminal's 0x1205 comes back as the list; a playback ticket
 * opens the viewer's own playback (0x9201), which the terminal streams to the media server on a
 * connection of its own, coming out as FLV from an I frame; pause, speed and seek go down as
 * 0x9202 and the terminal obeys them; the viewer leaving ends the playback (0x9202 end); the sound
 * comes too for a viewer who asks. Another
 * organisation's member gets neither the list nor a ticket, and nobody else controls a playback.
 */

import { sql } from 'kysely';
import { attachCamera } from '../../../../server/simulator/camera';
import { FILE_EVERY_MS, FILE_MS } from '../../../../server/simulator/cameraPlayback';
import { SimTerminal } from '../../../../server/simulator/terminal';
import { MsgId, type DecodedMessage } from '../../../../server/telematics/jt808/codec';
import { AUDIO_MESSAGE } from '../../../../server/telematics/video/audio';
import { openBinarySocket } from '../../../helpers/wsClient';
import { demoTerminal, until } from '../gateway/harness';
import { flvFrames, flvTags } from './flvParse';
import { startVideo, type Harness } from './harness';

async function camera(h: Harness, n: number) {
  const phone = demoTerminal(n);
  const t = new SimTerminal({ host: '127.0.0.1', port: h.gatewayPort, phone });
  const got: DecodedMessage[] = [];
  t.on('command', (m: DecodedMessage) => got.push(m));
  const cam = attachCamera(t, phone);
  await t.connect();
  const r = await sql<{ id: number }>`
    SELECT v.id FROM vehicle v JOIN terminal t ON t.id = v.terminal_id WHERE t.terminal_no = ${phone}`.execute(h.s.database.db);
  return { t, got, cam, vehicleId: r.rows[0].id };
}

const controls = (got: DecodedMessage[]) =>
  got.flatMap((m) => (m.opaque === undefined && m.msgId === MsgId.PlaybackControl ? [m.body] : []));

describe('recorded playback', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startVideo('pglite');
  }, 240_000);
  afterAll(() => h?.close());

  it('lists the terminal’s recordings of a range, as its 0x1205 answers the 0x9205', async () => {
    const c = await camera(h, 20);
    const end = new Date(Math.floor(Date.now() / FILE_EVERY_MS) * FILE_EVERY_MS);
    const begin = new Date(end.getTime() - 2 * FILE_EVERY_MS);
    const r = await h.s.call(h.admin, 'POST', '/api/video/records', {
      vehicleId: c.vehicleId,
      channel: 2,
      begin: begin.toISOString(),
      end: end.toISOString(),
    });
    expect(r.status).toBe(200);
    const query = c.got.find((m) => m.msgId === MsgId.ResourceQuery)!;
    expect(query.opaque === undefined && query.msgId === MsgId.ResourceQuery && query.body).toMatchObject({
      channel: 2,
      begin: begin.toISOString(),
      end: end.toISOString(),
    });
    // Two files of 25 minutes, one each half hour.
    expect(r.body.records).toEqual([
      expect.objectContaining({ channel: 2, begin: begin.toISOString(), size: expect.any(Number) }),
      expect.objectContaining({ channel: 2, begin: new Date(begin.getTime() + FILE_EVERY_MS).toISOString() }),
    ]);
    expect(Date.parse(r.body.records[0].end) - Date.parse(r.body.records[0].begin)).toBe(FILE_MS);
    // A range the wrong way round: refused before the terminal is asked.
    const bad = await h.s.call(h.admin, 'POST', '/api/video/records', {
      vehicleId: c.vehicleId,
      channel: 2,
      begin: end.toISOString(),
      end: begin.toISOString(),
    });
    expect(bad.status).toBe(400);
    c.t.destroy();
  });

  it('plays a recording back from its time, obeying pause, speed and seek, and ends it when the viewer leaves', async () => {
    const c = await camera(h, 21);
    const begin = new Date(Math.floor(Date.now() / FILE_EVERY_MS) * FILE_EVERY_MS - FILE_EVERY_MS);
    const t = await h.s.call(h.admin, 'POST', '/api/video/playback', { vehicleId: c.vehicleId, channel: 3, begin: begin.toISOString() });
    expect(t.status).toBe(200);
    const viewer = await openBinarySocket(h.httpUrl.replace('http', 'ws') + t.body.url);
    const control = (body: object) => h.s.call(h.admin, 'POST', `/api/video/playback/${t.body.playbackId}/control`, body);

    // 0x9201 to the media server, from the chosen time; the stream starts at an I frame.
    await until(() => c.got.some((m) => m.msgId === MsgId.PlaybackRequest));
    const req = c.got.find((m) => m.msgId === MsgId.PlaybackRequest)!;
    expect(req.opaque === undefined && req.msgId === MsgId.PlaybackRequest && req.body).toMatchObject({
      host: '127.0.0.1',
      tcpPort: h.mediaPort,
      channel: 3,
      begin: begin.toISOString(),
    });
    const first = await viewer.until((b) => flvFrames(b).length >= 10);
    expect(flvTags(first)[0]).toMatchObject({ type: 9, avcPacketType: 0 });
    expect(flvFrames(first)[0]).toMatchObject({ frameType: 1, timestamp: 0 });
    expect(
      flvFrames(first)
        .slice(0, 10)
        .map((f) => f.timestamp),
    ).toEqual(Array.from({ length: 10 }, (_, i) => i * 40));
    const stream = c.cam.playbacks.get(3)!;
    expect(h.playbacks.list()).toEqual([expect.objectContaining({ channel: 3, fed: true })]);
    expect(h.playbacks.list()[0].at).toBeGreaterThanOrEqual(begin.getTime());

    // Pause: the terminal stops sending; nothing more reaches the viewer.
    expect((await control({ command: 'pause' })).status).toBe(200);
    await until(() => stream.paused);
    expect(controls(c.got).at(-1)).toMatchObject({ channel: 3, command: 1 });
    const sentAtPause = stream.sent;
    const pausedAt = Date.now();
    await viewer.until((b) => flvFrames(b).length === sentAtPause);
    // Ten frames' time (400 ms) later, still the same frames.
    await until(() => Date.now() - pausedAt >= 400);
    expect(stream.sent).toBe(sentAtPause);
    expect(flvFrames(Buffer.concat(viewer.chunks))).toHaveLength(sentAtPause);

    // Faster: 0x9202 fast forward ×4 (speed code 3); the picture's time runs at 10 ms a frame.
    expect((await control({ command: 'speed', speed: 4 })).status).toBe(200);
    await until(() => stream.speed === 4 && !stream.paused);
    expect(controls(c.got).at(-1)).toMatchObject({ command: 3, speed: 3 });
    const fast = flvFrames(await viewer.until((b) => flvFrames(b).length >= sentAtPause + 20));
    const steps = fast.slice(sentAtPause + 1, sentAtPause + 20).map((f, i) => f.timestamp - fast[sentAtPause + i].timestamp);
    expect(new Set(steps)).toEqual(new Set([10]));

    // Seek ten minutes on: the terminal goes there (from an I frame) and the picture's time runs on.
    const to = new Date(begin.getTime() + 10 * 60_000);
    expect((await control({ command: 'seek', at: to.toISOString() })).status).toBe(200);
    expect((await control({ command: 'speed', speed: 1 })).status).toBe(200);
    await until(() => (h.playbacks.list()[0].at ?? 0) >= to.getTime());
    expect(controls(c.got).find((b) => b.command === 5)).toMatchObject({ seekTo: to.toISOString() });
    expect(h.playbacks.list()[0].at).toBeLessThan(to.getTime() + 60_000);
    const all = flvFrames(Buffer.concat(viewer.chunks));
    for (let i = 1; i < all.length; i++) expect(all[i].timestamp).toBeGreaterThan(all[i - 1].timestamp);

    // Nobody else controls it; bad controls are refused.
    const vehicleOrg = await sql<{ code: string }>`
      SELECT o.code FROM vehicle v JOIN organisation o ON o.id = v.org_id WHERE v.id = ${c.vehicleId}`.execute(h.s.database.db);
    const colleague = await h.s.memberToken(vehicleOrg.rows[0].code, 'orgUser', ['video-playback']);
    const theirs = await h.s.call(colleague, 'POST', `/api/video/playback/${t.body.playbackId}/control`, { command: 'pause' });
    expect(theirs.status).toBe(404);
    expect((await control({ command: 'speed', speed: 3 })).status).toBe(400);
    expect((await control({ command: 'seek' })).status).toBe(400);

    // The viewer leaves: 0x9202 end, the terminal stops, the playback is forgotten; both audited.
    viewer.close();
    await until(() => !stream.running);
    expect(controls(c.got).at(-1)).toMatchObject({ command: 2 });
    await until(() => h.playbacks.list().length === 0);
    await until(async () => (await sql`SELECT 1 FROM audit_log WHERE action = 'playbackClose'`.execute(h.s.database.db)).rows.length > 0);
    const audit = await sql<{ action: string; detail: string }>`
      SELECT action, detail FROM audit_log WHERE action LIKE 'playback%' ORDER BY id`.execute(h.s.database.db);
    expect(audit.rows.map((r) => r.action)).toEqual(['playbackOpen', 'playbackClose']);
    expect(JSON.parse(audit.rows[0].detail)).toMatchObject({ begin: begin.toISOString() });
    expect(JSON.parse(audit.rows[1].detail).durationMs).toBeGreaterThan(0);
    c.t.destroy();
  });

  it('plays the recording’s sound too, as PCM beside the picture, for a viewer who asks', async () => {
    const c = await camera(h, 24);
    const begin = new Date(Math.floor(Date.now() / FILE_EVERY_MS) * FILE_EVERY_MS - FILE_EVERY_MS);
    const body = { vehicleId: c.vehicleId, channel: 1, begin: begin.toISOString(), audio: true };
    const t = await h.s.call(h.admin, 'POST', '/api/video/playback', body);
    const viewer = await openBinarySocket(h.httpUrl.replace('http', 'ws') + t.body.url);
    const audio = () => viewer.chunks.filter((m) => m[0] === AUDIO_MESSAGE);
    await viewer.until(() => audio().length >= 5);
    const req = c.got.find((m) => m.msgId === MsgId.PlaybackRequest)!;
    expect(req.opaque === undefined && req.msgId === MsgId.PlaybackRequest && req.body.resourceType).toBe(0); // audio and video
    expect(audio()[0].length).toBe(6 + 320 * 2);
    expect(flvFrames(Buffer.concat(viewer.chunks.filter((m) => m[0] !== AUDIO_MESSAGE))).length).toBeGreaterThan(0);
    viewer.close();
    await until(() => h.playbacks.list().length === 0);
    c.t.destroy();
  });

  it('refuses the list and the playback of another organisation’s vehicle, and a caller without the code', async () => {
    const c = await camera(h, 22);
    const body = {
      vehicleId: c.vehicleId,
      channel: 1,
      begin: new Date(Date.now() - 3_600_000).toISOString(),
      end: new Date().toISOString(),
    };
    const org = await sql<{ code: string }>`
      SELECT o.code FROM organisation o, vehicle v JOIN organisation vo ON vo.id = v.org_id
      WHERE v.id = ${c.vehicleId} AND o.parent_id IS NOT NULL AND vo.path NOT LIKE o.path || '%' LIMIT 1`.execute(h.s.database.db);
    const stranger = await h.s.memberToken(org.rows[0].code, 'orgUser', ['video-playback']);
    expect((await h.s.call(stranger, 'POST', '/api/video/records', body)).status).toBe(404);
    expect((await h.s.call(stranger, 'POST', '/api/video/playback', body)).status).toBe(404);
    const vehicleOrg = await sql<{ code: string }>`
      SELECT o.code FROM vehicle v JOIN organisation o ON o.id = v.org_id WHERE v.id = ${c.vehicleId}`.execute(h.s.database.db);
    // The live code is not the playback code.
    const liveOnly = await h.s.memberToken(vehicleOrg.rows[0].code, 'orgUser', ['video-live']);
    expect((await h.s.call(liveOnly, 'POST', '/api/video/records', body)).status).toBe(403);
    expect((await h.s.call(liveOnly, 'POST', '/api/video/playback', body)).status).toBe(403);
    const allowed = await h.s.memberToken(vehicleOrg.rows[0].code, 'orgUser', ['video-playback']);
    expect((await h.s.call(allowed, 'POST', '/api/video/records', body)).status).toBe(200);
    expect(c.got.filter((m) => m.msgId === MsgId.ResourceQuery)).toHaveLength(1);
    c.t.destroy();
  });
});
