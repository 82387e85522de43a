import { sql } from 'kysely';
import { BACKENDS, type TestServer, useTestServer } from '../../helpers/testServer';

/** Location share tickets: created, listed and revoked by operators; read publicly, only while live. */
describe.each(BACKENDS)('location share tickets on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });

  /** A demo vehicle of an organisation, with a latest position. */
  async function vehicleOf(orgCode: string): Promise<{ id: number; licence: string }> {
    const r = await sql<{ id: number; licence: string; terminal_id: number | null }>`
      SELECT v.id, v.licence, v.terminal_id FROM vehicle v JOIN organisation o ON o.id = v.org_id WHERE o.code = ${orgCode} ORDER BY v.id LIMIT 1`.execute(
      s.database.db,
    );
    return r.rows[0];
  }
  async function placeVehicle(id: number) {
    await sql`
      INSERT INTO vehicle_state (vehicle_id, terminal_id, device_time, latitude, longitude, speed, direction, alarm, status, acc, dtcs)
      VALUES (${id}, 1, '2026-11-20T08:00:00Z', 31.2304, 121.4737, 42.5, 270, 2, 3, true, ARRAY['P0301'])
      ON CONFLICT (vehicle_id) DO UPDATE SET latitude = excluded.latitude`.execute(s.database.db);
  }
  const share = (token: string | null, body: unknown, lang?: string) => s.call(token, 'POST', '/api/vehicle/share', body, lang);
  const read = (ticket: string) => s.call(null, 'GET', `/api/location/${ticket}`);

  it('creates a random ticket that reads the vehicle publicly, with nothing but licence and latest position', async () => {
    const v = await vehicleOf('HD-SH');
    await placeVehicle(v.id);
    const created = await share(admin, { vehicleId: v.id, hours: 24 });
    expect(created.status).toBe(201);
    const { ticket, path, expiresAt, createdAt, id } = created.body;
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 random bits
    expect(path).toBe(`/location/${ticket}`);
    expect(Date.parse(expiresAt) - Date.parse(createdAt)).toBe(24 * 3600_000);
    // Stored hashed: the ticket itself is nowhere in the database.
    const stored = await sql<{ token_hash: string }>`SELECT token_hash FROM location_ticket WHERE id = ${id}`.execute(s.database.db);
    expect(stored.rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.rows[0].token_hash).not.toContain(ticket);

    const r = await read(ticket);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      licence: v.licence,
      position: { latitude: 31.2304, longitude: 121.4737, speed: 42.5, direction: 270, time: '2026-11-20T08:00:00.000Z' },
    });
    // Two tickets are never the same.
    const again = await share(admin, { vehicleId: v.id, hours: 1 });
    expect(again.body.ticket).not.toBe(ticket);
    // A vehicle that has not reported yet: its licence, no position.
    const quiet = (
      await sql<{
        id: number;
        licence: string;
      }>`SELECT id, licence FROM vehicle WHERE id NOT IN (SELECT vehicle_id FROM vehicle_state) ORDER BY id LIMIT 1`.execute(s.database.db)
    ).rows[0];
    const q = await share(admin, { vehicleId: quiet.id, hours: 2 });
    expect((await read(q.body.ticket)).body).toEqual({ licence: quiet.licence, position: null });
  });

  it('answers the same 404 for unknown, expired and revoked tickets', async () => {
    const v = await vehicleOf('HD-HZ');
    const expired = (await share(admin, { vehicleId: v.id, hours: 1 })).body;
    await sql`UPDATE location_ticket SET expires_at = now() - interval '1 second' WHERE id = ${expired.id}`.execute(s.database.db);
    const revoked = (await share(admin, { vehicleId: v.id, hours: 1 })).body;
    expect((await read(revoked.ticket)).status).toBe(200);
    expect((await s.call(admin, 'DELETE', `/api/vehicle/share/${revoked.id}`)).status).toBe(204);
    const unknown = 'A'.repeat(43);
    const answers = await Promise.all([unknown, 'short', expired.ticket, revoked.ticket].map(read));
    expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 404]);
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    // Revoking twice changes nothing; the list tells each ticket's state, never the ticket itself.
    expect((await s.call(admin, 'DELETE', `/api/vehicle/share/${revoked.id}`)).status).toBe(204);
    const list = await s.call(admin, 'GET', `/api/vehicle/share/Index/${v.id}`);
    expect(list.status).toBe(200);
    expect(list.body.map((t: { id: number; status: string }) => [t.id, t.status])).toEqual([
      [revoked.id, 'revoked'],
      [expired.id, 'expired'],
    ]);
    expect(list.body[0]).toMatchObject({ createdBy: '系统管理员', revokedBy: '系统管理员' });
    expect(JSON.stringify(list.body)).not.toContain(revoked.ticket);
  });

  it('keeps tickets inside the organisation subtree and behind vehicle-edit', async () => {
    const hd = await vehicleOf('HD-SH');
    const hn = await vehicleOf('HN-SZ');
    const hnEditor = await s.memberToken('HN', 'orgUser', ['vehicle-edit']);
    // A vehicle outside the caller's subtree does not exist for them.
    expect((await share(hnEditor, { vehicleId: hd.id, hours: 1 })).status).toBe(404);
    expect((await s.call(hnEditor, 'GET', `/api/vehicle/share/Index/${hd.id}`)).status).toBe(404);
    const hdTicket = (await share(admin, { vehicleId: hd.id, hours: 1 })).body;
    expect((await s.call(hnEditor, 'DELETE', `/api/vehicle/share/${hdTicket.id}`)).status).toBe(404);
    expect((await read(hdTicket.ticket)).status).toBe(200);
    // Inside it, they may.
    expect((await share(hnEditor, { vehicleId: hn.id, hours: 1 })).status).toBe(201);
    // Without the code: 403, whatever X-Authority says; without a session: 401.
    const viewer = await s.memberToken('HN', 'orgUser', ['vehicle-add']);
    const forbidden = await s.call(viewer, 'POST', '/api/vehicle/share', { vehicleId: hn.id, hours: 1 }, undefined, {
      'x-authority': 'vehicle-edit',
    });
    expect(forbidden.status).toBe(403);
    expect((await s.call(viewer, 'GET', `/api/vehicle/share/Index/${hn.id}`)).status).toBe(403);
    expect((await s.call(viewer, 'DELETE', `/api/vehicle/share/${hdTicket.id}`)).status).toBe(403);
    expect((await share(null, { vehicleId: hn.id, hours: 1 })).status).toBe(401);
  });

  it('refuses bad input with localised 400s', async () => {
    const v = await vehicleOf('HD-SH');
    const cases: Array<[unknown, string, string]> = [
      [{ vehicleId: v.id }, 'hours', 'Valid for (hours)'],
      [{ vehicleId: v.id, hours: 0 }, 'hours', 'Valid for (hours)'],
      [{ vehicleId: v.id, hours: 169 }, 'hours', 'Valid for (hours)'],
      [{ vehicleId: v.id, hours: 1.5 }, 'hours', 'Valid for (hours)'],
      [{ hours: 2 }, 'vehicleId', 'Vehicle'],
      [{ vehicleId: 'x', hours: 2 }, 'vehicleId', 'Vehicle'],
      [{ vehicleId: v.id, hours: 2, extra: 1 }, 'extra', ''],
    ];
    for (const [body, field, label] of cases) {
      const r = await share(admin, body, 'en-US');
      expect({ body, status: r.status, field: r.body.errors?.[0]?.field }).toEqual({ body, status: 400, field });
      expect(r.body.message).toContain(label);
    }
    const zh = await share(admin, { vehicleId: v.id, hours: 0 }, 'zh-CN');
    expect(zh.body.message).toContain('有效时长');
    expect((await s.call(admin, 'GET', '/api/vehicle/share/Index/abc')).status).toBe(400);
    expect((await s.call(admin, 'DELETE', '/api/vehicle/share/0')).status).toBe(400);
    expect((await share(admin, { vehicleId: 999999, hours: 1 })).status).toBe(404);
  });

  it('caps the live tickets of one vehicle', async () => {
    const v = (await sql<{ id: number }>`SELECT id FROM vehicle ORDER BY id DESC LIMIT 1`.execute(s.database.db)).rows[0];
    for (let i = 0; i < 20; i++) expect((await share(admin, { vehicleId: v.id, hours: 1 })).status).toBe(201);
    const over = await share(admin, { vehicleId: v.id, hours: 1 }, 'en-US');
    expect(over.status).toBe(406);
    expect(over.body.message).toContain('20');
  });

  it('tells the console whether map tiles are configured (none by default)', async () => {
    const r = await s.call(null, 'GET', '/api/map/config');
    expect(r).toEqual({ status: 200, body: { tileUrl: null, coordSystem: 'WGS84', attribution: null } });
  });

  it('rate-limits the public read per address', async () => {
    // 30 a minute (the reads of the tests above count too).
    const answers: Array<{ status: number; body: { message: string } }> = [];
    for (let i = 0; i < 35; i++) answers.push(await s.call(null, 'GET', `/api/location/${'B'.repeat(43)}`, undefined, 'en-US'));
    const statuses = answers.map((a) => a.status);
    const first = statuses.indexOf(429);
    expect(first).toBeGreaterThan(0);
    expect(statuses.slice(0, first).every((x) => x === 404)).toBe(true);
    expect(statuses.slice(first).every((x) => x === 429)).toBe(true);
    expect(answers[first].body.message).toMatch(/too many/i);
  });
});
