/**
 * The organisation walk over every media route (a vehicle's uploaded photos and their files, the
 * photos a take-photo command brought, an alarm's evidence and its files): a member of another organisation gets a 404 for
 * each, as if the vehicle, the alarm or the file did not exist, while the vehicle's organisation gets
 * them. The walk lists every route the server serves under the media paths, so a media route added
 * without a case here fails it.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { MediaStore } from '../../../server/telematics/media/mediaStore';
import { BACKENDS, startTestServer, type TestServer } from '../../helpers/testServer';

/** The media paths: every route under them is walked. */
const MEDIA_ROUTE =
  /^\/api\/vehicle\/(vehicle\/:id\/media|media\/|attachment\/|alarm\/:id\/evidence|terminal\/:id\/command\/:commandId\/photos)/;

describe.each(BACKENDS)('media routes stay in their organisation on %s', (backend) => {
  let s: TestServer;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'media-scope-'));
    // With telematics: the take-photo command's photos route is among the command routes.
    s = await startTestServer(backend, { mediaDir: dir, telematics: true });
    // Opening PGlite and seeding take a while on a loaded machine.
  }, 240_000);
  afterAll(async () => {
    await s?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers another organisation 404 on every media route, and the vehicle’s organisation its files', async () => {
    const db = s.database.db;
    const v = (
      await sql<{ id: number; terminalId: number }>`
        SELECT v.id, v.terminal_id AS "terminalId" FROM vehicle v JOIN organisation o ON o.id = v.org_id
        WHERE o.code = 'HD-SH' AND v.terminal_id IS NOT NULL ORDER BY v.id LIMIT 1`.execute(db)
    ).rows[0];
    // A photo the terminal uploaded, kept as the gateway keeps it.
    const photo = Buffer.concat([Buffer.from([0xff, 0xd8]), Buffer.alloc(300, 5), Buffer.from([0xff, 0xd9])]);
    const store = new MediaStore(db, dir);
    const { sha256 } = await store.save(
      { terminalId: v.terminalId, vehicleId: v.id },
      { mediaId: 41, type: 0, format: 0, event: 1, channel: 1, data: photo },
    );
    const media = await sql<{ id: number }>`SELECT id FROM media WHERE sha256 = ${sha256}`.execute(db);
    // The take-photo command whose answer named that photo, sent a minute before it arrived.
    const command = await sql<{ id: number }>`
      INSERT INTO terminal_command (terminal_id, kind, msg_id, request, status, result, response, created_at)
      VALUES (${v.terminalId}, 'photo', ${0x8801}, '{"channel":1,"count":1}'::jsonb, 'acked', 0, '{"mediaIds":[41]}'::jsonb,
        now() - interval '1 minute') RETURNING id`.execute(db);
    // An active safety alarm with one photo of evidence, tied by its identification key.
    const key = `${v.terminalId}:20261120080000:1`;
    const alarm = await sql<{ id: number }>`
      INSERT INTO alarm (vehicle_id, type, category, level, begin_time, end_time, fired_at, detail)
      VALUES (${v.id}, 'ForwardCollision', 'safety', 'high', now(), now(), now(), ${JSON.stringify({ safety: { key } })}::jsonb) RETURNING id`.execute(
      db,
    );
    const request = await sql<{ id: number }>`
      INSERT INTO attachment_request (alarm_number, terminal_id, vehicle_id, alarm_key, standard, attachments)
      VALUES ('walk-1', ${v.terminalId}, ${v.id}, ${key}, 'jsatl12', 1) RETURNING id`.execute(db);
    const file = await sql<{ id: number }>`
      INSERT INTO alarm_attachment (request_id, terminal_id, vehicle_id, alarm_key, file_name, file_type, sha256, bytes)
      VALUES (${request.rows[0].id}, ${v.terminalId}, ${v.id}, ${key}, '00_65_6501_0_walk-1.jpg', 0, ${sha256}, ${photo.length})
      RETURNING id`.execute(db);

    const admin = await s.memberToken('HD', 'administrator');
    const outsider = await s.memberToken('HN-SZ', 'administrator');
    const cases: Record<string, { url: string; ours: (status: number, body: Buffer) => void }> = {
      'GET /api/vehicle/vehicle/:id/media': {
        url: `/api/vehicle/vehicle/${v.id}/media`,
        ours: (status, body) => expect([status, JSON.parse(body.toString()).total]).toEqual([200, 1]),
      },
      'GET /api/vehicle/media/:id/content': {
        url: `/api/vehicle/media/${media.rows[0].id}/content`,
        ours: (status, body) => expect([status, body.equals(photo)]).toEqual([200, true]),
      },
      'GET /api/vehicle/terminal/:id/command/:commandId/photos': {
        url: `/api/vehicle/terminal/${v.terminalId}/command/${command.rows[0].id}/photos`,
        ours: (status, body) =>
          expect([status, JSON.parse(body.toString())]).toMatchObject([200, { expected: 1, data: [{ mediaId: 41 }] }]),
      },
      'GET /api/vehicle/alarm/:id/evidence': {
        url: `/api/vehicle/alarm/${alarm.rows[0].id}/evidence`,
        ours: (status, body) => expect([status, JSON.parse(body.toString()).data.length]).toEqual([200, 1]),
      },
      'GET /api/vehicle/attachment/:id/content': {
        url: `/api/vehicle/attachment/${file.rows[0].id}/content`,
        ours: (status, body) => expect([status, body.equals(photo)]).toEqual([200, true]),
      },
    };
    // HEAD routes are Fastify's own for each GET: the GETs are walked.
    const served = s.app.routeCatalogue.filter((r) => r.method !== 'HEAD' && MEDIA_ROUTE.test(r.url)).map((r) => `${r.method} ${r.url}`);
    expect(served.sort()).toEqual(Object.keys(cases).sort());
    const get = (token: string, url: string) => s.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    for (const [route, c] of Object.entries(cases)) {
      const theirs = await get(outsider, c.url);
      expect([route, theirs.statusCode]).toEqual([route, 404]);
      const ours = await get(admin, c.url);
      c.ours(ours.statusCode, ours.rawPayload);
    }
  }, 120_000);
});
