/**
 * Live video end to end over real TCP: a terminal's 808 session gets 0x9101 when the first viewer
 * opens a channel (with a stream ticket), its media connection's JT/T 1078 packets come out as FLV
 * on every viewer's WebSocket from an I frame, one upstream however many viewers; lost and
 * reordered packets cost their frames until the next I frame; a terminal that stops ends its
 * viewers; the last viewer leaving closes the channel (0x9102) after the grace time; bad packets
 * and connections are refused with the reason logged; tickets are single-use, short-lived and
 * scoped to the caller's organisation subtree, and every opening is audited.
 */

import net from 'node:net';
import { sql } from 'kysely';
import { MsgId, type DecodedMessage } from '../../../../server/telematics/jt808/codec';
import { encodeRtpPacket, RTP_MAGIC, type MediaPacket } from '../../../../server/telematics/video/rtpPacket';
import { clipPackets } from '../../../../server/simulator/camera';
import { SimTerminal } from '../../../../server/simulator/terminal';
import { BACKENDS } from '../../../helpers/testServer';
import { openBinarySocket } from '../../../helpers/wsClient';
import { demoTerminal, until } from '../gateway/harness';
import { flvFrames, flvTags } from './flvParse';
import { GRACE_MS, startVideo, ticket, watch, type Harness } from './harness';

/** A demo terminal online over the gateway, recording the platform's messages to it. */
async function cameraTerminal(
  h: Harness,
  n: number,
): Promise<{ t: SimTerminal; phone: string; got: DecodedMessage[]; vehicleId: number; terminalId: number }> {
  const phone = demoTerminal(n);
  const t = new SimTerminal({ host: '127.0.0.1', port: h.gatewayPort, phone });
  const got: DecodedMessage[] = [];
  t.on('command', (m: DecodedMessage) => got.push(m));
  await t.connect();
  const r = await sql<{ vehicle_id: number; terminal_id: number }>`
    SELECT v.id AS vehicle_id, t.id AS terminal_id FROM terminal t JOIN vehicle v ON v.terminal_id = t.id
    WHERE t.terminal_no = ${phone}`.execute(h.s.database.db);
  return { t, phone, got, vehicleId: r.rows[0].vehicle_id, terminalId: r.rows[0].terminal_id };
}

async function mediaSocket(h: Harness): Promise<net.Socket & { closedFlag?: boolean }> {
  const socket: net.Socket & { closedFlag?: boolean } = net.connect({ host: '127.0.0.1', port: h.mediaPort });
  socket.on('close', () => (socket.closedFlag = true));
  socket.on('error', () => undefined);
  await new Promise((r) => socket.once('connect', r));
  return socket;
}

function send(socket: net.Socket, packets: MediaPacket[]): void {
  socket.write(Buffer.concat(packets.map(encodeRtpPacket)));
}

const requests = (got: DecodedMessage[], id: number) => got.filter((m) => m.msgId === id);

describe.each(BACKENDS)('live video on %s', (backend) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startVideo(backend);
  }, 240_000);
  afterAll(() => h?.close());

  it('asks the terminal once, and every viewer gets FLV from an I frame; the last to leave closes the channel after the grace time', async () => {
    const cam = await cameraTerminal(h, 3);
    const first = await watch(h, cam.vehicleId, 1);
    await until(() => requests(cam.got, MsgId.LiveVideoRequest).length === 1);
    const req = requests(cam.got, MsgId.LiveVideoRequest)[0];
    expect(req.msgId === MsgId.LiveVideoRequest && req.opaque === undefined && req.body).toMatchObject({
      host: '127.0.0.1',
      tcpPort: h.mediaPort,
      channel: 1,
    });
    const frames = clipPackets({ sim: cam.phone, channel: 1 });
    const socket = await mediaSocket(h);
    // The first second (an I frame and 24 P frames), then a second viewer joins mid-way.
    for (const f of frames.slice(0, 30)) send(socket, f);
    const one = await first.until((b) => flvFrames(b).length === 30);
    const tags = flvTags(one);
    expect(tags[0]).toMatchObject({ type: 9, frameType: 1, avcPacketType: 0 }); // the decoder configuration
    expect(flvFrames(one)[0]).toMatchObject({ frameType: 1, timestamp: 0 });
    expect(flvFrames(one)[25]).toMatchObject({ frameType: 1, timestamp: 1000 });
    expect(flvFrames(one)[29].timestamp).toBe(1160);
    const second = await watch(h, cam.vehicleId, 1);
    // It starts with the current group of pictures: the I frame at 1 s and the 4 frames after it.
    const two = await second.until((b) => flvFrames(b).length === 5);
    expect(flvFrames(two).map((f) => f.frameType)).toEqual([1, 2, 2, 2, 2]);
    expect(flvFrames(two)[0].timestamp).toBe(0);
    for (const f of frames.slice(30)) send(socket, f);
    await first.until((b) => flvFrames(b).length === 100);
    await second.until((b) => flvFrames(b).length === 75);
    expect(requests(cam.got, MsgId.LiveVideoRequest)).toHaveLength(1);
    expect(h.channels.list()).toEqual([expect.objectContaining({ terminalId: cam.terminalId, channel: 1, viewers: 2, frames: 100 })]);

    first.close();
    await first.closed;
    // Taken before the last viewer leaves: the server's grace time cannot start before it.
    const left = Date.now();
    second.close();
    await second.closed;
    await until(() => requests(cam.got, MsgId.LiveVideoControl).length === 1);
    expect(Date.now() - left).toBeGreaterThanOrEqual(GRACE_MS - 50);
    const close = requests(cam.got, MsgId.LiveVideoControl)[0];
    expect(close.opaque === undefined && close.body).toEqual({ channel: 1, command: 0, closeWhat: 0, stream: 0 });
    expect(h.channels.list()).toEqual([]);
    // A terminal that goes on sending a closed channel is refused.
    send(socket, frames[0]);
    await until(() => socket.closedFlag === true);
    expect(h.logs.some((l) => l.reason === 'no stream was asked of this channel')).toBe(true);
    const audit = await h.s.database.db
      .selectFrom('audit_log')
      .select(['action', 'target', 'detail'])
      .where('action', 'in', ['videoOpen', 'videoClose'])
      .execute();
    expect(audit.filter((a) => a.action === 'videoOpen')).toHaveLength(2);
    const closes = audit
      .filter((a) => a.action === 'videoClose')
      .map((a) => JSON.parse(a.detail!) as { channel: number; durationMs: number });
    expect(closes).toHaveLength(2);
    for (const c of closes) expect(c).toMatchObject({ channel: 1, durationMs: expect.any(Number) });
    cam.t.destroy();
  });

  it('drops a frame with a lost or reordered packet and the frames after it until the next I frame', async () => {
    const cam = await cameraTerminal(h, 4);
    const viewer = await watch(h, cam.vehicleId, 2);
    await until(() => requests(cam.got, MsgId.LiveVideoRequest).length === 1);
    const frames = clipPackets({ sim: cam.phone, channel: 2 });
    // First second: P frame 10 is lost whole.
    const lost = 10;
    expect(frames[lost][0].dataType).toBe(1);
    const socket = await mediaSocket(h);
    for (const [i, f] of frames.slice(0, 25).entries()) if (i !== lost) send(socket, f);
    // Second second: the I frame's packets go out of order (two swapped).
    const key = frames[25];
    expect(key.length).toBeGreaterThanOrEqual(2);
    send(socket, [key[1], key[0], ...key.slice(2)]);
    for (const f of frames.slice(26, 50)) send(socket, f);
    // Third second as sent.
    for (const f of frames.slice(50, 75)) send(socket, f);
    // What was shown: frames 0–9, then nothing until the I frame at 2 s and the second after it.
    const shown = flvFrames(await viewer.until((b) => flvFrames(b).length === lost + 25));
    expect(shown.slice(0, lost).map((f) => f.timestamp)).toEqual([0, 40, 80, 120, 160, 200, 240, 280, 320, 360]);
    expect(shown[lost]).toMatchObject({ frameType: 1, timestamp: 2000 });
    expect(shown[lost + 24].timestamp).toBe(2960);
    expect(h.media.stats.lostPackets).toBeGreaterThanOrEqual(1);
    viewer.close();
    socket.destroy();
    cam.t.destroy();
  });

  it('ends the viewers of a terminal that stops mid-stream, and tells the terminal', async () => {
    const cam = await cameraTerminal(h, 5);
    const viewer = await watch(h, cam.vehicleId, 1);
    await until(() => requests(cam.got, MsgId.LiveVideoRequest).length === 1);
    const frames = clipPackets({ sim: cam.phone, channel: 1 });
    const socket = await mediaSocket(h);
    for (const f of frames.slice(0, 10)) send(socket, f);
    await viewer.until((b) => flvFrames(b).length === 10);
    // Half a frame, then the connection drops.
    socket.write(encodeRtpPacket(frames[10][0]));
    socket.destroy();
    expect(await viewer.closed).toEqual({ code: 4000, reason: 'the terminal closed the media connection' });
    await until(() => requests(cam.got, MsgId.LiveVideoControl).length === 1);
    expect(h.channels.list().filter((c) => c.terminalId === cam.terminalId)).toEqual([]);
    cam.t.destroy();
  });

  it('refuses bad packets and connections with the reason logged', async () => {
    const cam = await cameraTerminal(h, 6);
    const viewer = await watch(h, cam.vehicleId, 1);
    await until(() => requests(cam.got, MsgId.LiveVideoRequest).length === 1);
    const frames = clipPackets({ sim: cam.phone, channel: 1 });
    const socket = await mediaSocket(h);
    // An unknown subpackage flag: that packet is dropped, the connection carries on.
    const bad = encodeRtpPacket(frames[0][0]);
    bad[15] = (bad[15] & 0xf0) | 0x07;
    socket.write(bad);
    for (const f of frames.slice(0, 5)) send(socket, f);
    await viewer.until((b) => flvFrames(b).length === 5);
    expect(h.logs.some((l) => l.msg === 'jt1078 media packet refused' && l.reason === 'unknown subpackage flag 7')).toBe(true);
    expect(socket.closedFlag).toBeFalsy();
    // Another SIM on the same connection: refused.
    send(socket, clipPackets({ sim: demoTerminal(7), channel: 1 })[5]);
    await until(() => socket.closedFlag === true);
    expect(h.logs.some((l) => l.reason === 'the SIM number changed')).toBe(true);

    // Bytes that are no media packet.
    const garbage = await mediaSocket(h);
    garbage.write(Buffer.from('GET / HTTP/1.1\r\n\r\n'));
    await until(() => garbage.closedFlag === true);
    expect(h.logs.some((l) => l.reason === 'no frame header 30316364 (got 47455420)')).toBe(true);
    // A body length above 950.
    const long = await mediaSocket(h);
    const p = encodeRtpPacket(frames[5][0]);
    p.writeUInt16BE(2000, 28);
    long.write(p);
    await until(() => long.closedFlag === true);
    expect(h.logs.some((l) => l.reason === 'body length 2000 above 950')).toBe(true);
    // A SIM no terminal has.
    const stranger = await mediaSocket(h);
    send(stranger, clipPackets({ sim: '19999999999', channel: 1 })[0]);
    await until(() => stranger.closedFlag === true);
    expect(h.logs.some((l) => l.reason === 'unknown SIM number')).toBe(true);
    expect(RTP_MAGIC).toBe(0x30316364);
    viewer.close();
    cam.t.destroy();
  });

  it('gives tickets for the caller’s subtree only, with the permission, each opening one stream while it lasts', async () => {
    const cam = await cameraTerminal(h, 8);
    const t = await ticket(h, h.admin, cam.vehicleId, 1);
    const url = h.httpUrl.replace('http', 'ws') + t.url!;
    const viewer = await openBinarySocket(url);
    // The same ticket again: refused.
    await expect(openBinarySocket(url)).rejects.toThrow('HTTP 401');
    // A changed byte: refused.
    const forged = url.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    await expect(openBinarySocket(forged)).rejects.toThrow('HTTP 401');
    viewer.close();
    // A member of another organisation does not see the vehicle; one without the code may not ask.
    const org = await sql<{ code: string }>`
      SELECT o.code FROM organisation o, vehicle v JOIN organisation vo ON vo.id = v.org_id
      WHERE v.id = ${cam.vehicleId} AND o.parent_id IS NOT NULL AND vo.path NOT LIKE o.path || '%' LIMIT 1`.execute(h.s.database.db);
    const stranger = await h.s.memberToken(org.rows[0].code, 'orgUser', ['video-live']);
    expect((await ticket(h, stranger, cam.vehicleId, 1)).status).toBe(404);
    const vehicleOrg = await sql<{ code: string }>`
      SELECT o.code FROM vehicle v JOIN organisation o ON o.id = v.org_id WHERE v.id = ${cam.vehicleId}`.execute(h.s.database.db);
    const without = await h.s.memberToken(vehicleOrg.rows[0].code, 'orgUser', []);
    expect((await ticket(h, without, cam.vehicleId, 1)).status).toBe(403);
    const allowed = await h.s.memberToken(vehicleOrg.rows[0].code, 'orgUser', ['video-live']);
    expect((await ticket(h, allowed, cam.vehicleId, 1)).status).toBe(200);
    // An offline terminal: 406, said so.
    cam.t.destroy();
    await until(() => !h.gateway.isOnline(cam.terminalId));
    const offline = await h.s.call(h.admin, 'POST', '/api/video/live', { vehicleId: cam.vehicleId, channel: 1 }, 'en-US');
    expect(offline.status).toBe(406);
    expect(offline.body.message).toMatch(/offline/);
    expect((await h.s.call(h.admin, 'POST', '/api/video/live', { vehicleId: cam.vehicleId, channel: 0 })).status).toBe(400);
  });
});
