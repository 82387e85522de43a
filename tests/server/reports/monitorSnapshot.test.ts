import { sql } from 'kysely';
import type { Caller } from '../../../server/platform/auth/caller';
import { monitorJson, vehicleCounts } from '../../../server/reports/dashboardRoutes';
import { MonitorSnapshot } from '../../../server/reports/monitorSnapshot';
import { today } from '../../../server/reports/ranges';
import { BACKENDS } from '../../helpers/testServer';
import { demoTerminal, startGateway, terminalIdOf, until, type GatewayHarness } from '../telematics/gateway/harness';

/**
 * monitor/query and index/vehicleCount answer from memory (MonitorSnapshot), brought up to date
 * from the database before each answer. They must say exactly what the database says, at once:
 * the SQL answer (monitorJson, vehicleCounts) is the reference, for every scope and criterion,
 * after positions through the real gateway, sessions ending, edits and deletions, and for a second
 * snapshot over the same database (another process).
 */
describe.each(BACKENDS)('the live map answered from memory on %s', (backend) => {
  let h: GatewayHarness;
  let admin: string;
  /** A member of the Shenzhen team (HN-SZ): sees only its vehicles. */
  let member: string;
  let memberPath: string;
  /** The administrator's organisation (the root). */
  let rootPath: string;
  const db = () => h.s.database.db;
  /** The day the server counts services from: today in the fleet's zone (the app's default). */
  const day = () => today('Asia/Shanghai').day;
  const asCaller = (orgPath: string) => ({ orgPath }) as Caller; // the SQL reference reads only the path
  const query = async (token: string, body: object) => {
    const r = await h.s.call(token, 'POST', '/api/vehicle/monitor/query', body);
    expect(r.status).toBe(200);
    return r.body;
  };
  const withoutAsOf = ({ asOf, ...rest }: { asOf: string }) => (expect(asOf).toMatch(/^\d+$/), rest);

  beforeAll(async () => {
    h = await startGateway(backend);
    admin = await h.s.login('admin', 'Admin2026x');
    member = await h.s.memberToken('HN-SZ', 'orgUser');
    rootPath = (await db().selectFrom('organisation').select('path').where('parent_id', 'is', null).orderBy('id').executeTakeFirstOrThrow())
      .path;
    memberPath = (await db().selectFrom('organisation').select('path').where('code', '=', 'HN-SZ').executeTakeFirstOrThrow()).path;
    // Every kind of state: moving, idle with ACC on, parked, alarming, no state; some sessions online; services ending.
    await sql`INSERT INTO vehicle_state (vehicle_id, terminal_id, device_time, latitude, longitude, speed, direction, acc, alarm, mileage_km, fuel_l)
      SELECT id, COALESCE(terminal_id, 0), '2026-11-24T01:02:03.456Z'::timestamptz - id * interval '1 minute', 31 + id / 1000.0, 121.123456789 + id / 997.0,
             (id % 4) * 3.3, id * 7 % 360, id % 3 <> 0, CASE WHEN id % 5 = 0 THEN 1 ELSE 0 END, CASE WHEN id % 2 = 0 THEN 1000.5 + id END, 80.25
      FROM vehicle WHERE id % 6 <> 1`.execute(db());
    // Sessions (terminals 3 and 7 are left to register through the gateway below).
    await sql`INSERT INTO terminal_link (terminal_id, auth_code, online)
      SELECT v.terminal_id, NULL, v.id % 2 = 0 FROM vehicle v JOIN terminal t ON t.id = v.terminal_id
      WHERE t.terminal_no NOT IN (${demoTerminal(3)}, ${demoTerminal(7)})
      ON CONFLICT (terminal_id) DO UPDATE SET online = excluded.online`.execute(db());
    await sql`UPDATE vehicle SET service_end = ${day()}::date + (id % 3) * 20 WHERE id % 4 = 0`.execute(db());
    // Alarms of every kind for the one definition of alarming (alarmCentre/current.ts): open, ended an hour ago
    // unhandled (alarming), ended two days ago unhandled, ended and handled, open but withdrawn (not).
    await sql`INSERT INTO alarm (vehicle_id, type, category, level, begin_time, end_time, fired_at, handled, state)
      SELECT id, 'OverSpeed', 'terminal', 'medium', COALESCE(e, now()) - interval '2 hours', e, COALESCE(e, now()) - interval '2 hours', k = 3,
             CASE WHEN k = 4 THEN 'withdrawn' ELSE 'current' END
      FROM (SELECT id, k, CASE k WHEN 0 THEN NULL WHEN 2 THEN now() - interval '2 days' ELSE now() - interval '1 hour' END AS e
            FROM (SELECT id, id % 7 AS k FROM vehicle WHERE id % 3 = 0) v WHERE k < 5) x`.execute(db());
  });
  afterAll(() => h.close());

  const criteria = [
    {},
    { online: true },
    { online: false },
    { moving: true },
    { moving: false, online: true },
    { keyword: '粤' },
    { keyword: 'b' },
    { keyword: '%' },
  ];

  it('answers exactly what the database answers, for every scope, criterion and form', async () => {
    const hn = await h.s.orgId('HN');
    const hd = await h.s.orgId('HD');
    for (const [token, path] of [
      [admin, rootPath],
      [member, memberPath],
    ] as const) {
      for (const c of [...criteria, { orgId: hn }, { orgId: hd, online: true }]) {
        for (const format of ['items', 'columns'] as const) {
          const expected = JSON.parse(await monitorJson(db(), asCaller(path), c, format));
          expect(withoutAsOf(await query(token, { criteria: c, format }))).toEqual(expected);
        }
      }
      for (const orgId of [null, hn, hd]) {
        const r = await h.s.call(token, 'POST', '/api/vehicle/index/vehicleCount', { criteria: { orgId } });
        expect(r.body).toEqual(await vehicleCounts(db(), asCaller(path), orgId, day()));
      }
    }
    // The fixture covers what it means to: some moving, some parked, some offline, some alarming, some expiring.
    const counts = await h.s.call(admin, 'POST', '/api/vehicle/index/vehicleCount', {});
    for (const k of ['online', 'offline', 'moving', 'parked', 'alarming', 'serviceExpiring']) expect(counts.body[k]).toBeGreaterThan(0);
  });

  it('calls a vehicle alarming when it has a current alarm, as the alarm centre lists them, not by the alarm word', async () => {
    const alarmingIds = (x: { data: Array<{ vehicleId: number; alarming: boolean }> }) =>
      x.data
        .filter((v) => v.alarming)
        .map((v) => v.vehicleId)
        .sort((a, b) => a - b);
    const all = await query(admin, { criteria: {}, format: 'items' });
    const current = await h.s.call(admin, 'POST', '/api/vehicle/alarm/query', { criteria: { current: true }, pageSize: 1000 });
    expect(current.status).toBe(200);
    const fromCentre = [...new Set(current.body.data.map((a: { vehicleId: number }) => a.vehicleId))].sort(
      (a, b) => (a as number) - (b as number),
    );
    expect(fromCentre.length).toBeGreaterThan(0);
    expect(alarmingIds(all)).toEqual(fromCentre);
    const counts = await h.s.call(admin, 'POST', '/api/vehicle/index/vehicleCount', {});
    expect(counts.body.alarming).toBe(fromCentre.length);
    // Exactly the open ones and those ended within the day unhandled; an alarm word alone (id % 5 = 0) is not alarming.
    const rows = await sql<{
      vehicle_id: number;
      k: number;
    }>`SELECT vehicle_id, (vehicle_id % 7)::int AS k FROM alarm WHERE type = 'OverSpeed'`.execute(db());
    const expected = rows.rows
      .filter((r) => r.k <= 1)
      .map((r) => r.vehicle_id)
      .sort((a, b) => a - b);
    expect(fromCentre).toEqual(expected);
    const wordOnly = all.data.find((v: { vehicleId: number; alarm: number }) => v.alarm !== 0 && !expected.includes(v.vehicleId));
    expect(wordOnly).toMatchObject({ alarming: false });
    // Handling the one that ended: no longer current, nor alarming, in the very next answer and in the changes since.
    const ended = current.body.data.find((a: { end: string | null }) => a.end !== null);
    const before = await query(admin, { criteria: {}, format: 'columns' });
    const handled = await h.s.call(admin, 'PUT', `/api/vehicle/alarm/${ended.id}/handle`, { note: '已通知司机' });
    expect(handled.status).toBe(200);
    const since = await query(admin, { criteria: { since: before.asOf }, format: 'items' });
    expect(since.full).toBe(false);
    expect(since.data.find((v: { vehicleId: number }) => v.vehicleId === ended.vehicleId)).toMatchObject({ alarming: false });
    expect((await h.s.call(admin, 'POST', '/api/vehicle/index/vehicleCount', {})).body.alarming).toBe(fromCentre.length - 1);
    // A new open alarm on a quiet vehicle: alarming at once, in the changes since too.
    const quiet = all.data.find((v: { vehicleId: number; alarming: boolean }) => !v.alarming && !expected.includes(v.vehicleId));
    const mark = await query(admin, { criteria: {}, format: 'columns' });
    await sql`INSERT INTO alarm (vehicle_id, type, category, level, begin_time, fired_at) VALUES (${quiet.vehicleId}, 'Fatigue', 'ai', 'high', now(), now())`.execute(
      db(),
    );
    const raised = await query(admin, { criteria: { since: mark.asOf }, format: 'items' });
    expect(raised.data.find((v: { vehicleId: number }) => v.vehicleId === quiet.vehicleId)).toMatchObject({ alarming: true });
    for (const orgId of [null, await h.s.orgId('HN')])
      expect((await h.s.call(admin, 'POST', '/api/vehicle/index/vehicleCount', { criteria: { orgId } })).body).toEqual(
        await vehicleCounts(db(), asCaller(rootPath), orgId, day()),
      );
    expect(withoutAsOf(await query(admin, { criteria: {}, format: 'items' }))).toEqual(
      JSON.parse(await monitorJson(db(), asCaller(rootPath), {}, 'items')),
    );
  });

  it('shows a position stored through the gateway, and a session ending, in the very next answer', async () => {
    const phone = demoTerminal(7);
    const terminalId = await terminalIdOf(h.s, phone);
    const vehicleId = (await db().selectFrom('vehicle').select('id').where('terminal_id', '=', terminalId).executeTakeFirstOrThrow()).id;
    // The snapshot is loaded, and this very question answered (and kept), before the report.
    expect(
      (await query(admin, { criteria: { moving: true }, format: 'items' })).data.map((x: { vehicleId: number }) => x.vehicleId),
    ).not.toContain(vehicleId);
    const t = h.terminal(phone);
    await t.connect();
    t.report({
      latitude: 22.54321,
      longitude: 114.05678,
      speed: 61,
      direction: 45,
      status: { accOn: true, fixed: true },
      time: Date.parse('2026-11-24T05:00:00Z'),
      extras: { mileageKm: 4321.5, fuelL: 55 },
    });
    await t.drain();
    expect(t.stats.acked).toBe(1);
    const after = await query(admin, { criteria: { moving: true }, format: 'items' });
    expect(after.data.find((x: { vehicleId: number }) => x.vehicleId === vehicleId)).toMatchObject({
      vehicleId,
      online: true,
      moving: true,
      latitude: 22.54321,
      longitude: 114.05678,
      speed: 61,
      mileageKm: 4321.5,
      time: '2026-11-24T05:00:00.000Z',
    });
    await t.logout();
    await until(
      async () =>
        !(await db().selectFrom('terminal_link').select('online').where('terminal_id', '=', terminalId).executeTakeFirstOrThrow()).online,
    );
    const offline = await query(admin, { criteria: { online: false }, format: 'items' });
    expect(offline.data.find((x: { vehicleId: number }) => x.vehicleId === vehicleId)).toMatchObject({
      online: false,
      moving: false,
      latitude: 22.54321,
    });
  });

  it('never shows a member another organisation’s vehicle, also after a vehicle moves between them', async () => {
    const sz = await h.s.orgId('HN-SZ');
    const hz = await h.s.orgId('HD-HZ');
    const mine = await query(member, { format: 'columns' });
    expect(mine.total).toBeGreaterThan(0);
    expect(new Set(mine.columns.orgId)).toEqual(new Set([sz]));
    // Another organisation's subtree asked for: nothing, not its vehicles.
    expect((await query(member, { criteria: { orgId: hz }, format: 'columns' })).total).toBe(0);
    expect((await h.s.call(member, 'POST', '/api/vehicle/index/vehicleCount', { criteria: { orgId: hz } })).body.total).toBe(0);
    const moved = mine.columns.vehicleId[0] as number;
    await db().updateTable('vehicle').set({ org_id: hz }).where('id', '=', moved).execute();
    const now = await query(member, { format: 'columns' });
    expect(now.columns.vehicleId).not.toContain(moved);
    expect(now.total).toBe(mine.total - 1);
    expect((await query(admin, { criteria: { orgId: hz }, format: 'columns' })).columns.vehicleId).toContain(moved);
    await db().updateTable('vehicle').set({ org_id: sz }).where('id', '=', moved).execute();
    expect((await query(member, { format: 'columns' })).columns.vehicleId).toContain(moved);
  });

  /** A vehicle's state row written (inserted when it has none). */
  const upsertState = (vehicleId: number, set: { speed?: number; latitude?: number }) =>
    sql`INSERT INTO vehicle_state (vehicle_id, terminal_id, device_time, latitude, longitude, speed) VALUES (${vehicleId}, 0, now(), ${set.latitude ?? 30}, 120, ${set.speed ?? 0})
      ON CONFLICT (vehicle_id) DO UPDATE SET ${sql.raw(set.speed !== undefined ? `speed = ${set.speed}` : `latitude = ${set.latitude}`)}, received_at = now()`.execute(
      db(),
    );

  it('answers since an asOf exactly the vehicles that changed after it, and the whole list after an edit', async () => {
    const first = await query(admin, { format: 'columns' });
    const nothing = await query(admin, { criteria: { since: first.asOf }, format: 'columns' });
    expect(nothing).toMatchObject({ total: 0, full: false, removed: [] });
    const ids = (first.columns.vehicleId as number[]).slice(0, 6);
    const [a, b, c] = ids;
    await upsertState(a, { speed: 33 });
    await upsertState(b, { speed: 33 });
    await upsertState(c, { latitude: 30 });
    const changed = await query(admin, { criteria: { since: first.asOf }, format: 'columns' });
    expect(changed).toMatchObject({ full: false, removed: [] });
    expect(changed.columns.vehicleId).toEqual(
      [a, b, c].sort((x, y) => first.columns.vehicleId.indexOf(x) - first.columns.vehicleId.indexOf(y)),
    );
    expect(changed.columns.speed[changed.columns.vehicleId.indexOf(a)]).toBe(33);
    // A session ending: its vehicle changes too; asked for online vehicles it is in removed.
    const [d] = await sql<{
      id: number;
      terminal_id: number;
    }>`SELECT id, terminal_id FROM vehicle WHERE terminal_id IS NOT NULL AND id <> ALL(${[a, b, c]}::int[]) ORDER BY id LIMIT 1`
      .execute(db())
      .then((r) => r.rows);
    await sql`UPDATE terminal_link SET online = true WHERE terminal_id = ${d.terminal_id}`.execute(db());
    const online = await query(admin, { format: 'columns', criteria: { online: true } });
    await sql`UPDATE terminal_link SET online = false WHERE terminal_id = ${d.terminal_id}`.execute(db());
    const gone = await query(admin, { criteria: { since: online.asOf, online: true }, format: 'columns' });
    expect(gone).toMatchObject({ total: 0, full: false, removed: [d.id] });
    // From the second answer on, only what changed after it.
    expect(await query(admin, { criteria: { since: changed.asOf }, format: 'items' })).toMatchObject({
      data: [expect.objectContaining({ vehicleId: d.id, online: false })],
      full: false,
    });
    // A vehicle edited: the whole list, marked full.
    await db().updateTable('vehicle').set({ licence: '沪Z00001' }).where('id', '=', ids[5]).execute();
    const edited = await query(admin, { criteria: { since: gone.asOf }, format: 'columns' });
    expect(edited).toMatchObject({ full: true, total: first.total });
    expect(edited.columns.licence).toContain('沪Z00001');
    // Not an asOf: the whole list.
    expect(await query(admin, { criteria: { since: 'yesterday' }, format: 'columns' })).toMatchObject({ full: true, total: first.total });
  });

  it('drops a deleted vehicle at once, and a second snapshot over the same database agrees', async () => {
    const other = new MonitorSnapshot(db());
    const root = asCaller(rootPath);
    const before = JSON.parse(await other.answer(root, {}, 'columns'));
    const victim = before.columns.vehicleId.at(-1) as number;
    await db().deleteFrom('vehicle').where('id', '=', victim).execute();
    const after = await query(admin, { format: 'columns' });
    expect(after.columns.vehicleId).not.toContain(victim);
    expect(after.total).toBe(before.total - 1);
    const since = await query(admin, { criteria: { since: before.asOf }, format: 'columns' });
    expect(since).toMatchObject({ full: true, total: before.total - 1 });
    // The other "process" learns of a report stored through the gateway on its next answer, too.
    const t = h.terminal(demoTerminal(3));
    await t.connect();
    t.report({
      latitude: 23.5,
      longitude: 113.5,
      speed: 0,
      direction: 0,
      status: { accOn: false, fixed: true },
      time: Date.parse('2026-11-24T05:10:00Z'),
    });
    await t.drain();
    const vehicleId = (
      await db()
        .selectFrom('vehicle')
        .select('id')
        .where('terminal_id', '=', await terminalIdOf(h.s, demoTerminal(3)))
        .executeTakeFirstOrThrow()
    ).id;
    const seen = JSON.parse(await other.answer(root, { since: before.asOf }, 'items'));
    expect(seen.data.find((x: { vehicleId: number }) => x.vehicleId === vehicleId)).toMatchObject({ latitude: 23.5, online: true });
    expect(withoutAsOf(JSON.parse(await other.answer(root, {}, 'items')))).toEqual(JSON.parse(await monitorJson(db(), root, {}, 'items')));
    await t.end();
  });

  it('never answers from a read that began before the request: a change committed meanwhile is in the answer', async () => {
    const other = new MonitorSnapshot(db());
    const root = asCaller(rootPath);
    const first = JSON.parse(await other.answer(root, {}, 'items'));
    const vehicleId = first.data[2].vehicleId as number;
    const inFlight = other.fresh(); // a read under way (on PGlite queued before the write below)
    await upsertState(vehicleId, { latitude: 28.25 });
    const answer = JSON.parse(await other.answer(root, {}, 'items'));
    await inFlight;
    expect(answer.data.find((x: { vehicleId: number }) => x.vehicleId === vehicleId).latitude).toBe(28.25);
  });

  if (backend === 'postgres') {
    it('counts a change committed after an asOf by a transaction already running when it was taken', async () => {
      const first = await query(admin, { format: 'columns' });
      const vehicleId = first.columns.vehicleId[1] as number;
      let asOf = '';
      await db()
        .transaction()
        .execute(async (tx) => {
          await sql`INSERT INTO vehicle_state (vehicle_id, terminal_id, device_time, latitude, longitude) VALUES (${vehicleId}, 0, now(), 29.5, 120)
            ON CONFLICT (vehicle_id) DO UPDATE SET latitude = 29.5`.execute(tx);
          // Another connection answers while this one is open: it cannot see the change yet.
          const during = await query(admin, { format: 'items' });
          expect(during.data.find((x: { vehicleId: number }) => x.vehicleId === vehicleId).latitude).not.toBe(29.5);
          asOf = during.asOf;
        });
      const since = await query(admin, { criteria: { since: asOf }, format: 'items' });
      expect(since.full).toBe(false);
      expect(since.data.map((x: { vehicleId: number }) => x.vehicleId)).toContain(vehicleId);
      expect(since.data.find((x: { vehicleId: number }) => x.vehicleId === vehicleId).latitude).toBe(29.5);
    });
  }
});
