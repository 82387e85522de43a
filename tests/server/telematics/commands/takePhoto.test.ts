/**
 * Take photo from the console through the command service, over the real server, gateway and
 * simulator on TCP: the 0x8801 goes down with what was asked, the terminal's 0x0805 answers it with
 * the photos' media ids, the photos arrive as multi-package 0x0801 uploads and are stored and listed
 * under the command (real JPEGs, served by the media routes); a photo kept on the terminal brings
 * none, a collision warning brings one with its event, and another organisation sees nothing.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { decode } from 'jpeg-js';
import { MEDIA_EVENTS, MsgId, type DecodedMessage, type KnownMessage } from '../../../../server/telematics/jt808/codec';
import { ADMIN_PASSWORD, BACKENDS } from '../../../helpers/testServer';
import { demoTerminal, startGateway, terminalIdOf, until, type GatewayHarness } from '../gateway/harness';

interface Listed {
  data: Array<{ id: number; mediaId: number; type: string; format: string; eventName: string | null; channel: number; url: string }>;
  expected: number;
}

describe.each(BACKENDS)('take photo on %s', (backend) => {
  let h: GatewayHarness;
  let dir: string;
  let admin: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'take-photo-'));
    h = await startGateway(backend, { routes: { commandTimeoutMs: 5000 }, gateway: { mediaDir: dir }, app: { mediaDir: dir } });
    admin = await h.s.login('admin', ADMIN_PASSWORD);
    // Opening PGlite and seeding take a while on a loaded machine.
  }, 240_000);
  afterAll(async () => {
    await h.close();
    await rm(dir, { recursive: true, force: true });
  });
  const url = (id: number) => `/api/vehicle/terminal/${id}/command/photo`;
  const photos = async (id: number, commandId: number, token = admin) =>
    (await h.s.call(token, 'GET', `/api/vehicle/terminal/${id}/command/${commandId}/photos`)).body as Listed;
  const get = (url: string) => h.s.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${admin}` } });

  it('sends 0x8801, keeps the 0x0805 answer, and lists the uploaded JPEGs under the command', async () => {
    const phone = demoTerminal(15);
    const id = await terminalIdOf(h.s, phone);
    const t = h.terminal(phone);
    const received: DecodedMessage[] = [];
    t.on('command', (m: DecodedMessage) => received.push(m));
    await t.connect();
    const r = await h.s.call(admin, 'POST', url(id), { channel: 2, count: 2, resolution: 2, quality: 3, waitMs: 5000 });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      kind: 'photo',
      msgId: '0x8801',
      status: 'acked',
      result: 0,
      request: { channel: 2, count: 2, interval: 0, resolution: 2, quality: 3, save: false },
      response: { photo: 'ok', mediaIds: [expect.any(Number), expect.any(Number)] },
    });
    const asked = received.find((m): m is Extract<KnownMessage, { msgId: typeof MsgId.TakePhoto }> => m.msgId === MsgId.TakePhoto);
    expect(asked?.body).toMatchObject({ channel: 2, command: 2, interval: 0, save: 0, resolution: 2, quality: 3 });

    let listed: Listed = { data: [], expected: -1 };
    await until(async () => (listed = await photos(id, r.body.id)).data.length === 2);
    expect(listed.expected).toBe(2);
    expect(listed.data.map((p) => p.mediaId)).toEqual(r.body.response.mediaIds);
    expect(listed.data[0]).toMatchObject({ type: 'image', format: 'jpeg', eventName: 'platformCommand', channel: 2 });
    // Each photo came in several packages (over 1000 bytes each), answered complete, and is a real 640×480 JPEG.
    await until(() => t.stats.mediaUploaded === 2);
    const file = await get(listed.data[0].url);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.length).toBeGreaterThan(1000);
    const jpeg = decode(file.rawPayload, { useTArray: true });
    expect([jpeg.width, jpeg.height]).toEqual([640, 480]);
    // The answer is kept like every decoded message.
    const kept = await h.s.database.db.selectFrom('terminal_message').select('msg_id').where('terminal_id', '=', id).execute();
    expect(kept.map((k) => k.msg_id)).toContain(MsgId.TakePhotoResponse);
    // Another organisation neither lists them nor reads the command.
    const other = await h.s.memberToken('HN', 'administrator');
    expect((await h.s.call(other, 'GET', `/api/vehicle/terminal/${id}/command/${r.body.id}/photos`)).status).toBe(404);
    await t.end();
  });

  it('brings no photo when they are kept on the terminal, refuses a bad request, and sends one on a collision warning', async () => {
    const phone = demoTerminal(16);
    const id = await terminalIdOf(h.s, phone);
    const t = h.terminal(phone);
    await t.connect();
    const kept = await h.s.call(admin, 'POST', url(id), { count: 1, save: true, waitMs: 5000 });
    expect(kept.body).toMatchObject({ status: 'acked', response: { mediaIds: [expect.any(Number)] } });
    expect((await h.s.call(admin, 'POST', url(id), { count: 11 })).status).toBe(400);
    expect((await h.s.call(admin, 'POST', url(id), { resolution: 9 })).status).toBe(400);

    const at = { latitude: 31.2, longitude: 121.4, time: Date.parse('2026-11-21T08:00:00Z') };
    expect(await t.alarmPhoto(MEDIA_EVENTS.indexOf('collisionAlarm'), at)).toBe(true);
    const rows = await h.s.database.db.selectFrom('media').select(['event', 'taken_at']).where('terminal_id', '=', id).execute();
    // Only the alarm's photo: the one kept on the terminal never came up.
    expect(rows.map((m) => [MEDIA_EVENTS[m.event], new Date(m.taken_at!).toISOString()])).toEqual([
      ['collisionAlarm', '2026-11-21T08:00:00.000Z'],
    ]);
    expect((await photos(id, kept.body.id)).data).toEqual([]);
    await t.end();
  });
});
