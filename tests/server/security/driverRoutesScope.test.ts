/**
 * The organisation walk over the driver-identity routes (sessions, unknown cards, card assignment,
 * per-driver statistics and their export): a member of another organisation, even one holding every
 * code they need, sees none of a vehicle's sessions, unknown cards, trips or figures, and cannot give
 * its card to anyone. The walk lists every route under the driver prefixes the server serves, so a
 * route added there without a case here fails it.
 */
import { sql } from 'kysely';
import { BACKENDS, type TestServer, useTestServer } from '../../helpers/testServer';
import { downloadFrom, readXlsx } from '../../helpers/xlsx';

const PREFIXES = ['/api/vehicle/driverSession', '/api/vehicle/driverCard', '/api/vehicle/driverStatistics'];
const DAY = '2026-11-20';
const AT = Date.parse('2026-11-20T02:00:00Z');

describe.each(BACKENDS)('driver identity routes stay in their organisation on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });

  it('answers another organisation nothing of a vehicle’s sessions, cards and figures, on every route', async () => {
    const db = s.database.db;
    // A Shanghai vehicle whose reader read its driver's card and a card nobody holds (as the gateway stores them), and a trip.
    const v = (
      await sql<{ id: number; terminalId: number; driverId: number; cardNo: string }>`
        SELECT v.id, v.terminal_id AS "terminalId", d.id AS "driverId", d.card_no AS "cardNo"
        FROM vehicle v JOIN organisation o ON o.id = v.org_id JOIN driver d ON d.id = v.driver_id
        WHERE o.code = 'HD-SH' ORDER BY v.id LIMIT 1`.execute(db)
    ).rows[0];
    const event = (at: number, action: 'in' | 'out', cardNo: string | null) =>
      db
        .insertInto('driver_card_event')
        .values({
          terminal_id: v.terminalId,
          vehicle_id: v.id,
          at: new Date(at),
          action,
          card_no: cardNo,
          read_result: action === 'in' ? 0 : null,
        })
        .execute();
    await event(AT, 'in', v.cardNo);
    await event(AT + 3_600_000, 'out', null);
    await event(AT + 7_200_000, 'in', 'QC424242');
    await sql`INSERT INTO trip (vehicle_id, begin_time, end_time, duration_s, distance_km, distance_source, fuel_l, idle_s, max_speed, avg_speed,
        start_latitude, start_longitude, end_latitude, end_longitude, open)
      VALUES (${v.id}, ${new Date(AT + 600_000)}, ${new Date(AT + 1_800_000)}, 1200, 12, 'gnss', null, 0, 40, 36, 31.2, 121.4, 31.3, 121.5, false)`.execute(
      db,
    );

    // An alarm that began inside the driver's session, one after it (the unknown card's), and a withdrawn one (not counted).
    const alarm = (at: number, state = 'current') =>
      sql`INSERT INTO alarm (vehicle_id, type, category, level, begin_time, end_time, fired_at, state)
        VALUES (${v.id}, 'OverSpeed', 'terminal', 'medium', ${new Date(at)}, ${new Date(at + 60_000)}, ${new Date(at)}, ${state})`.execute(
        db,
      );
    await alarm(AT + 900_000);
    await alarm(AT + 8_000_000);
    await alarm(AT + 1_000_000, 'withdrawn');
    // A harsh braking inside the driver's session.
    await sql`INSERT INTO behaviour_event (vehicle_id, day, org_id, kind, at, count, duration_s, source)
      VALUES (${v.id}, ${DAY}, (SELECT org_id FROM vehicle WHERE id = ${v.id}), 'harshBraking', ${new Date(AT + 1_200_000)}, 1, 0, 'computed')`.execute(
      db,
    );
    const outsider = await s.memberToken('HN-SZ', 'orgUser', ['driver-edit']);
    const range = { begin: new Date(AT - 86_400_000).toISOString(), end: new Date(AT + 86_400_000).toISOString() };
    const days = { begin: DAY, end: DAY };
    type Check = (body: unknown, status: number) => void;
    /** `ours: null`: a write, not repeated by the owner here (it would change what the other cases read). */
    type Case = { body: Record<string, unknown>; ours: Check | null; theirs: Check };
    const list = (n: number) => (body: unknown, status: number) => {
      expect(status).toBe(200);
      expect(body).toHaveLength(n);
    };
    const none = list(0);
    const cases: Record<string, Case> = {
      'POST /api/vehicle/driverSession/query': { body: { criteria: { ...range, vehicleId: v.id } }, ours: list(2), theirs: none },
      'POST /api/vehicle/driverCard/unknown': { body: { criteria: { vehicleId: v.id } }, ours: list(1), theirs: none },
      'PUT /api/vehicle/driverCard/assign': {
        body: { cardNo: 'QC424242', driverId: v.driverId },
        ours: null,
        theirs: (_b, status) => expect(status).toBe(404),
      },
      'POST /api/vehicle/driverStatistics/byDriver': {
        body: { criteria: { ...days, vehicleId: v.id } },
        ours: (body) =>
          expect(body).toEqual([
            expect.objectContaining({ kind: 'driver', driverId: v.driverId, tripCount: 1, mileageKm: 12, alarmCount: 1, harshBraking: 1 }),
            expect.objectContaining({ kind: 'unknownCard', cardNo: 'QC424242', tripCount: 0, alarmCount: 1 }),
          ]),
        theirs: (body, status) => expect([status, body]).toEqual([404, expect.anything()]),
      },
      'POST /api/vehicle/driverStatistics/byDriver/export': {
        body: { criteria: { ...days, vehicleId: v.id } },
        ours: (_b, status) => expect(status).toBe(200),
        theirs: (_b, status) => expect(status).toBe(404),
      },
      'POST /api/vehicle/driverStatistics/byDay': {
        body: { criteria: { ...days, vehicleId: v.id } },
        ours: list(1),
        theirs: (_b, status) => expect(status).toBe(404),
      },
      'POST /api/vehicle/driverStatistics/trips': {
        body: { criteria: { ...days, vehicleId: v.id } },
        ours: list(1),
        theirs: (_b, status) => expect(status).toBe(404),
      },
    };
    const served = s.app.routeCatalogue.filter((r) => PREFIXES.some((p) => r.url.startsWith(p))).map((r) => `${r.method} ${r.url}`);
    expect(served.sort()).toEqual(Object.keys(cases).sort());
    for (const [route, c] of Object.entries(cases)) {
      const [method, url] = route.split(' ') as ['POST' | 'PUT', string];
      // A spreadsheet is read for its status only (its rows below).
      const ask = async (token: string) =>
        url.endsWith('/export')
          ? { status: (await downloadFrom(s, token, method, url, c.body)).status, body: null }
          : s.call(token, method, url, c.body);
      const theirs = await ask(outsider);
      c.theirs(theirs.body, theirs.status);
      if (!c.ours) continue;
      const ours = await ask(admin);
      c.ours(ours.body, ours.status);
    }
    // Nor with no vehicle named: the whole of their own scope holds nothing of Shanghai's.
    for (const url of ['/api/vehicle/driverSession/query', '/api/vehicle/driverCard/unknown']) {
      const r = await s.call(outsider, 'POST', url, { criteria: url.endsWith('query') ? range : {} });
      expect([url, r.body]).toEqual([url, []]);
    }
    const all = await s.call(outsider, 'POST', '/api/vehicle/driverStatistics/byDriver', { criteria: days });
    expect([all.status, all.body]).toEqual([200, []]);
    // The export of their own figures is a spreadsheet of the same rows.
    const file = await downloadFrom(
      s,
      admin,
      'POST',
      '/api/vehicle/driverStatistics/byDriver/export',
      { criteria: { ...days, vehicleId: v.id } },
      'en-US',
    );
    const rows = await readXlsx(file.data);
    expect(rows[0]).toEqual(expect.arrayContaining(['Driven by', 'Driver', 'IC card number', 'Mileage (km)']));
    expect(rows[1]).toEqual(expect.arrayContaining(['Driver', v.cardNo]));
    // The safety explanation names the driver of each event.
    const explained = await s.call(admin, 'POST', '/api/vehicle/dailyDrivingBehavior/safetyExplain', {
      criteria: { vehicleId: v.id, end: DAY },
    });
    expect(explained.body.events).toEqual([
      expect.objectContaining({ kind: 'harshBraking', driver: { driverId: v.driverId, driverName: expect.any(String), cardNo: v.cardNo } }),
    ]);
    // The outsider's attempt left the card unassigned.
    expect((await db.selectFrom('driver').select('card_no').where('card_no', '=', 'QC424242').execute()).length).toBe(0);
  });
});
