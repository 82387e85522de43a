import { sql } from 'kysely';
import { policiesFor } from '../../../../server/intelligence/alarms/policies';
import { replaceAlarms, windowBounds, windowStart } from '../../../../server/intelligence/alarms/store';
import { mergeIntervals } from '../../../../server/intelligence/alarms/merge';
import type { AlarmInterval } from '../../../../server/intelligence/alarms/types';
import { ADMIN_PASSWORD, BACKENDS, startTestServer, type TestServer } from '../../../helpers/testServer';

const T0 = Date.parse('2026-11-20T02:00:00Z');
const min = 60_000;

const interval = (
  type: AlarmInterval['type'],
  beginMin: number,
  endMin: number | null,
  extra: Partial<AlarmInterval> = {},
): AlarmInterval => ({
  type,
  subject: '',
  begin: T0 + beginMin * min,
  end: endMin === null ? null : T0 + endMin * min,
  firedAt: T0 + beginMin * min,
  latitude: 31.2,
  longitude: 121.5,
  value: null,
  ...extra,
});

describe('merging intervals of one key', () => {
  it('joins overlapping and touching intervals, keeps the worst value, leaves other keys alone', () => {
    const merged = mergeIntervals([
      interval('OverSpeed', 0, 5, { value: 90, detail: { sources: ['policy'] } }),
      interval('OverSpeed', 5, 8, { value: 110, detail: { sources: ['bit:1'] } }),
      interval('OverSpeed', 20, null, { value: 95 }),
      interval('Low', 1, 3, { value: 11.2 }),
      interval('Low', 2, 4, { value: 10.9 }),
      interval('FenceIn', 1, 1, { subject: 'fence:1' }),
      interval('FenceIn', 1, 1, { subject: 'fence:2' }),
    ]);
    expect(merged.map((m) => [m.type, m.subject, (m.begin - T0) / min, m.end === null ? null : (m.end - T0) / min, m.value])).toEqual([
      ['OverSpeed', '', 0, 8, 110],
      ['FenceIn', 'fence:1', 1, 1, null],
      ['FenceIn', 'fence:2', 1, 1, null],
      ['Low', '', 1, 4, 10.9],
      ['OverSpeed', '', 20, null, 95],
    ]);
    expect(merged[0].detail).toEqual({ sources: ['bit:1', 'policy'] });
  });
});

describe.each(BACKENDS)('alarm lifecycle and routes on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let hdVehicle: number;
  let hnVehicle: number;
  beforeAll(async () => {
    s = await startTestServer(backend);
    admin = await s.login('admin', ADMIN_PASSWORD);
    const v = async (org: string) =>
      (
        await sql<{
          id: number;
        }>`SELECT v.id FROM vehicle v JOIN organisation o ON o.id = v.org_id WHERE o.code = ${org} ORDER BY v.id LIMIT 1`.execute(
          s.database.db,
        )
      ).rows[0].id;
    hdVehicle = await v('HD-SH');
    hnVehicle = await v('HN-SZ');
  });
  afterAll(() => s.close());
  const db = () => s.database.db;
  const query = (token: string, criteria: object = {}, extra: object = {}, lang?: string) =>
    s.call(token, 'POST', '/api/vehicle/alarm/query', { criteria, pageIndex: 1, pageSize: 50, ...extra }, lang);

  /** Each alarm's row version (xmin) by type and begin: what a rewrite of the row changes. */
  const versions = async (vehicleId: number) =>
    Object.fromEntries(
      (
        await sql<{
          k: string;
          v: string;
        }>`SELECT type || ' ' || (extract(epoch FROM begin_time) * 1000)::bigint AS k, xmin::text AS v FROM alarm WHERE vehicle_id = ${vehicleId}`.execute(
          db(),
        )
      ).rows.map((r) => [r.k, r.v]),
    );

  it('stores found alarms, keeps one open per vehicle and type, and answers the new ones only once', async () => {
    const first = await replaceAlarms(
      db(),
      hdVehicle,
      T0,
      mergeIntervals([
        interval('OverSpeed', 0, 5, { value: 96 }),
        interval('OverSpeed', 30, null, { value: 101 }),
        interval('Crash', 10, 10),
      ]),
    );
    expect(first.map((a) => [a.type, a.category, a.level])).toEqual([
      ['OverSpeed', 'terminal', 'high'],
      ['Crash', 'terminal', 'critical'],
      ['OverSpeed', 'terminal', 'high'],
    ]);
    // The same result again raises nothing and changes nothing, not even a row's version.
    const before = await versions(hdVehicle);
    expect(Object.keys(before)).toHaveLength(3);
    expect(
      await replaceAlarms(
        db(),
        hdVehicle,
        T0,
        mergeIntervals([
          interval('OverSpeed', 0, 5, { value: 96 }),
          interval('OverSpeed', 30, null, { value: 101 }),
          interval('Crash', 10, 10),
        ]),
      ),
    ).toEqual([]);
    expect(await versions(hdVehicle)).toEqual(before);
    const rows = await query(admin, { vehicleId: hdVehicle });
    expect(rows.status).toBe(200);
    expect(rows.body.data.map((r: { type: string; status: string; value: number | null }) => [r.type, r.status, r.value])).toEqual([
      ['OverSpeed', 'open', 101],
      ['Crash', 'closed', null],
      ['OverSpeed', 'closed', 96],
    ]);
    // A second open alarm of the same key cannot exist.
    await expect(
      sql`INSERT INTO alarm (vehicle_id, type, category, level, begin_time, fired_at) VALUES (${hdVehicle}, 'OverSpeed', 'terminal', 'high', now(), now())`.execute(
        db(),
      ),
    ).rejects.toThrow();
  });

  it('handles an alarm with a note (code alarm-handle), keeps the handling across a rebuild, and refuses a second handling', async () => {
    const open = (await query(admin, { vehicleId: hdVehicle, status: 'open' })).body.data[0];
    const r = await s.call(admin, 'PUT', `/api/vehicle/alarm/${open.id}/handle`, { note: '  已电话提醒司机  ' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: open.id, handled: true, note: '已电话提醒司机', handledBy: expect.any(String), status: 'open' });
    expect(Date.parse(r.body.handledAt)).toBeGreaterThan(Date.now() - 60_000);
    // The condition clears later: the rebuilt alarm is the same row, closed, still handled; only it is rewritten.
    const before = await versions(hdVehicle);
    await replaceAlarms(
      db(),
      hdVehicle,
      T0,
      mergeIntervals([
        interval('OverSpeed', 0, 5, { value: 96 }),
        interval('OverSpeed', 30, 42, { value: 104 }),
        interval('Crash', 10, 10),
      ]),
    );
    const after = (await query(admin, { vehicleId: hdVehicle, type: 'OverSpeed', handled: true })).body.data;
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({
      id: open.id,
      status: 'closed',
      value: 104,
      note: '已电话提醒司机',
      end: new Date(T0 + 42 * min).toISOString(),
    });
    const now = await versions(hdVehicle);
    const closed = `OverSpeed ${T0 + 30 * min}`;
    expect(now[closed]).not.toBe(before[closed]);
    expect({ ...now, [closed]: '' }).toEqual({ ...before, [closed]: '' });

    const again = await s.call(admin, 'PUT', `/api/vehicle/alarm/${open.id}/handle`, { note: 'x' }, 'en-US');
    expect(again).toMatchObject({ status: 406, body: { message: 'This alarm has already been handled' } });
  });

  it('refuses bad notes and bad criteria with the field named, in the caller’s language', async () => {
    const id = (await query(admin, { vehicleId: hdVehicle, type: 'Crash' })).body.data[0].id;
    for (const note of ['', '   ']) {
      const r = await s.call(admin, 'PUT', `/api/vehicle/alarm/${id}/handle`, { note });
      expect(r).toMatchObject({ status: 400, body: { message: '请填写处理意见' } });
    }
    expect((await s.call(admin, 'PUT', `/api/vehicle/alarm/${id}/handle`, {}, 'en-US')).body.message).toBe('Please enter a note');
    expect((await s.call(admin, 'PUT', `/api/vehicle/alarm/${id}/handle`, { note: 'x'.repeat(501) }, 'es-ES')).body.message).toBe(
      'La nota admite como máximo 500 caracteres',
    );
    expect((await s.call(admin, 'PUT', `/api/vehicle/alarm/abc/handle`, { note: 'x' })).status).toBe(400);
    expect((await s.call(admin, 'PUT', `/api/vehicle/alarm/999999/handle`, { note: 'x' })).status).toBe(404);
    for (const criteria of [{ type: 'Nope' }, { category: 'radio' }, { status: 'half' }, { begin: 'yesterday' }, { bogus: 1 }]) {
      const r = await query(admin, criteria);
      expect(r.status).toBe(400);
      expect(r.body.errors.length).toBeGreaterThan(0);
    }
    // Nothing was handled by the refused calls.
    expect((await query(admin, { vehicleId: hdVehicle, type: 'Crash' })).body.data[0].handled).toBe(false);
  });

  it('filters by category, status, current, time and organisation, and scopes to the caller’s subtree', async () => {
    await replaceAlarms(db(), hnVehicle, T0, [interval('Low', 0, 2, { value: 11.1 })]);
    expect(
      (await query(admin, { category: 'terminal', status: 'closed' })).body.data.every((r: { status: string }) => r.status === 'closed'),
    ).toBe(true);
    // Current: open, or ended within the last day and not handled (alarmCentre/current.ts). These ended days ago: history only.
    const currentTypes = async () =>
      ((await query(admin, { vehicleId: hdVehicle, current: true })).body.data.map((r: { type: string }) => r.type) as string[]).sort();
    expect(await currentTypes()).toEqual([]);
    // Ended an hour ago: the unhandled ones are current; the handled, closed OverSpeed is history only.
    const endedAgo = (hours: number) =>
      sql`UPDATE alarm SET end_time = now() - make_interval(hours => ${hours}) WHERE vehicle_id = ${hdVehicle} AND end_time IS NOT NULL`.execute(
        db(),
      );
    const ends = await sql<{
      id: number;
      end_time: Date;
    }>`SELECT id, end_time FROM alarm WHERE vehicle_id = ${hdVehicle} AND end_time IS NOT NULL`.execute(db());
    await endedAgo(1);
    expect(await currentTypes()).toEqual(['Crash', 'OverSpeed']);
    await endedAgo(25);
    expect(await currentTypes()).toEqual([]);
    for (const e of ends.rows) await sql`UPDATE alarm SET end_time = ${e.end_time} WHERE id = ${e.id}`.execute(db());
    expect(
      (await query(admin, { begin: new Date(T0 + 9 * min).toISOString(), end: new Date(T0 + 11 * min).toISOString() })).body.data.map(
        (r: { type: string }) => r.type,
      ),
    ).toEqual(['Crash']);
    expect((await query(admin, { orgId: await s.orgId('HN') })).body.data.map((r: { vehicleId: number }) => r.vehicleId)).toEqual([
      hnVehicle,
    ]);

    const hn = await s.memberToken('HN', 'orgUser');
    const seen = (await query(hn)).body.data.map((r: { vehicleId: number }) => r.vehicleId);
    expect(seen).toEqual([hnVehicle]);
    // Another subtree's organisation answers nothing, and its alarms cannot be handled.
    expect((await query(hn, { orgId: await s.orgId('HD') })).body.data).toEqual([]);
    const hdAlarm = (await query(admin, { vehicleId: hdVehicle })).body.data[0].id;
    const hnHandler = await s.memberToken('HN', 'orgUser', ['alarm-handle']);
    expect((await s.call(hnHandler, 'PUT', `/api/vehicle/alarm/${hdAlarm}/handle`, { note: 'x' })).status).toBe(404);
    // Handling needs the code; reading does not.
    expect((await s.call(hn, 'PUT', `/api/vehicle/alarm/${hdAlarm}/handle`, { note: 'x' })).status).toBe(403);
    expect((await query(hn, {}, { order: { property: 'level', direction: 'ascend' } })).status).toBe(200);
    expect((await s.call(null, 'POST', '/api/vehicle/alarm/query', {})).status).toBe(401);
    // The fence list answers fence alarms only.
    expect((await s.call(admin, 'POST', '/api/vehicle/vehicleFenceAlert/query', { criteria: { vehicleId: hdVehicle } })).body.data).toEqual(
      [],
    );
  });

  it('a rebuild starts at the earliest alarm still open at its start, and drops what is no longer found', async () => {
    expect(await windowStart(db(), hdVehicle, T0 + 35 * min)).toBe(T0 + 30 * min);
    expect(await windowStart(db(), hdVehicle, T0 + 50 * min)).toBe(T0 + 50 * min);
    // Both ends at once: back to an alarm open at the start, on to the end of one running past the end, or unbounded while one is open.
    await replaceAlarms(db(), hdVehicle, T0 + 60 * min, [interval('Idle', 60, null)]);
    const at = (m: number) => T0 + m * min;
    expect(
      await windowBounds(db(), [
        { vehicleId: hdVehicle, from: at(35), to: at(35) },
        { vehicleId: hdVehicle, from: at(3), to: at(4) },
        { vehicleId: hdVehicle, from: at(20), to: at(61) },
        { vehicleId: hdVehicle, from: -Infinity, to: at(36) },
        { vehicleId: hdVehicle, from: at(36), to: Infinity },
      ]),
    ).toEqual([
      { from: at(30), to: at(42) },
      { from: at(0), to: at(5) },
      { from: at(20), to: Infinity },
      { from: -Infinity, to: at(42) },
      { from: at(30), to: Infinity },
    ]);
    await replaceAlarms(db(), hdVehicle, T0 + 8 * min, []);
    expect((await query(admin, { vehicleId: hdVehicle, state: 'current' })).body.data.map((r: { type: string }) => r.type)).toEqual([
      'OverSpeed',
    ]);
    // The handled OverSpeed is not dropped with the rest: an operator's work stays, withdrawn (store.ts).
    expect(
      (await query(admin, { vehicleId: hdVehicle, state: 'withdrawn' })).body.data.map((r: { type: string; note: string }) => [
        r.type,
        r.note,
      ]),
    ).toEqual([['OverSpeed', '已电话提醒司机']]);
  });

  it('takes each type’s policy from the nearest organisation that has an enabled one', async () => {
    const [root, hd, sh] = [await s.orgId('FS'), await s.orgId('HD'), await s.orgId('HD-SH')].map(Number);
    const add = (org: number, name: string, alarmType: string, threshold: number | null, enabled = true) =>
      sql`INSERT INTO policy (org_id, name, alarm_type, threshold, duration_minutes, enabled) VALUES (${org}, ${name}, ${alarmType}, ${threshold}, 1, ${enabled})`.execute(
        db(),
      );
    await add(root, 'root-speed', 'OverSpeed', 120);
    await add(hd, 'hd-speed', 'OverSpeed', 100);
    await add(sh, 'sh-speed-off', 'OverSpeed', 60, false);
    await add(root, 'root-low', 'Low', 11.5);
    const path = async (id: number) =>
      (await sql<{ path: string }>`SELECT path FROM organisation WHERE id = ${id}`.execute(db())).rows[0].path;
    const shPolicies = await policiesFor(db(), await path(sh));
    expect(shPolicies.get('OverSpeed')?.threshold).toBe(100);
    expect(shPolicies.get('Low')?.threshold).toBe(11.5);
    expect(shPolicies.has('Idle')).toBe(false);
    expect((await policiesFor(db(), await path(await s.orgId('HN')))).get('OverSpeed')?.threshold).toBe(120);
  });
});
