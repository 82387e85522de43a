import { sql } from 'kysely';
import { BACKENDS } from '../../helpers/testServer';
import { demoTerminal, until } from '../telematics/gateway/harness';
import { startAlarmRig, type AlarmRig } from '../intelligence/alarms/rig';
import { ScriptedDay } from '../intelligence/alarms/scriptedDay';

const START = Date.parse('2026-11-21T00:00:00Z');
const HOME = { latitude: 31.2, longitude: 121.4 };

/**
 * A policy edit applies from now on unless the admin asks to re-derive from a day: then every
 * vehicle the policy covers is derived again alike from that day, in the background, with its
 * progress on the admin's progress id, audited; handled alarms survive as withdrawn.
 */
describe.each(BACKENDS)('a policy re-derived from a day on %s', (backend) => {
  let rig: AlarmRig;
  let hd: string;
  let policyId: number;
  beforeAll(async () => {
    rig = await startAlarmRig(backend);
    hd = await rig.s.memberToken('HD', 'administrator');
    const r = await rig.s.call(hd, 'PUT', '/api/vehicle/policy', {
      name: 'p-Idle',
      alarmType: 'Idle',
      threshold: null,
      durationMinutes: 1,
    });
    if (r.status !== 201) throw new Error(JSON.stringify(r.body));
    policyId = r.body.id;
  });
  afterAll(() => rig.close());

  const idles = async (vehicleId: number) =>
    (
      await sql<{
        id: number;
        state: string;
        note: string | null;
        end: Date | null;
      }>`SELECT id, state, note, end_time AS end FROM alarm WHERE vehicle_id = ${vehicleId} AND type = 'Idle' ORDER BY begin_time`.execute(
        rig.s.database.db,
      )
    ).rows;

  it('leaves the past as it was found, and re-derives every covered vehicle alike from the day asked, in the background, audited', async () => {
    // Two HD vehicles idling two minutes: one closed (then handled), one still open at its last report.
    const closed = new ScriptedDay(START, HOME).step(60, 40).step(120, 0, { acc: true }).step(60, 40);
    const open = new ScriptedDay(START, HOME).step(60, 40).step(120, 0, { acc: true });
    const [a, b] = [demoTerminal(12), demoTerminal(11)];
    const [va, vb] = [await rig.vehicleOf(a), await rig.vehicleOf(b)];
    await rig.send(a, closed.reports);
    await rig.send(b, open.reports);
    const [alarmA] = await idles(va);
    expect((await rig.s.call(hd, 'PUT', `/api/vehicle/alarm/${alarmA.id}/handle`, { note: '等装货' })).status).toBe(200);
    expect((await idles(vb)).map((x) => x.end)).toEqual([null]);

    // Three minutes from now on: nothing found before changes.
    const edit = await rig.s.call(hd, 'PUT', `/api/vehicle/policy/${policyId}`, {
      name: 'p-Idle',
      alarmType: 'Idle',
      threshold: null,
      durationMinutes: 3,
    });
    expect(edit.status).toBe(200);
    await rig.settled();
    const before = [await idles(va), await idles(vb)];
    expect(before.map((x) => x.length)).toEqual([1, 1]);
    const heard = rig.raised.length;

    const progressId = 'rederive-policy-idle-0001';
    const r = await rig.s.call(hd, 'POST', `/api/vehicle/policy/${policyId}/rederive`, { from: '2026-11-20' }, undefined, {
      'x-progress-id': progressId,
    });
    expect(r.status).toBe(202);
    const covered = (
      await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM vehicle v JOIN organisation o ON o.id = v.org_id WHERE o.path LIKE (SELECT path FROM organisation WHERE code = 'HD') || '%'`.execute(
        rig.s.database.db,
      )
    ).rows[0].n;
    expect(r.body).toEqual({ vehicles: covered });
    let progress: { state: string; done: number; total: number | null } = { state: 'waiting', done: 0, total: null };
    await until(async () => {
      progress = (await rig.s.call(hd, 'GET', `/api/vehicle/progress/${progressId}`)).body;
      return progress.state !== 'running';
    }, 60_000);
    expect(progress).toEqual({ phase: 'store', state: 'done', done: covered, total: covered });

    // Both judged alike under three minutes: the handled one withdrawn with its note, the other gone; nothing announced.
    expect(await idles(va)).toEqual([expect.objectContaining({ id: alarmA.id, state: 'withdrawn', note: '等装货' })]);
    expect(await idles(vb)).toEqual([]);
    expect(rig.raised.length).toBe(heard);
    const audit = await sql<{
      target: string;
      detail: string;
      success: boolean;
    }>`SELECT target, detail, success FROM audit_log WHERE action = 'policyRederive'`.execute(rig.s.database.db);
    expect(audit.rows.map((x) => ({ ...x, detail: JSON.parse(x.detail) as unknown }))).toEqual([
      { target: `policy:${policyId}`, detail: { from: '2026-11-20', vehicles: covered }, success: true },
    ]);
  });

  it('refuses a day after today, a bad day, another subtree’s policy and a caller without policy-edit, in the caller’s language', async () => {
    const url = `/api/vehicle/policy/${policyId}/rederive`;
    expect(await rig.s.call(hd, 'POST', url, { from: '2999-01-01' }, 'en-US')).toMatchObject({
      status: 400,
      body: { message: 'The day to re-derive from cannot be after today' },
    });
    const bad = await rig.s.call(hd, 'POST', url, { from: 'yesterday' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('from');
    expect((await rig.s.call(hd, 'POST', url, {})).status).toBe(400);
    expect((await rig.s.call(await rig.s.memberToken('HN', 'administrator'), 'POST', url, { from: '2026-11-20' })).status).toBe(404);
    expect((await rig.s.call(await rig.s.memberToken('HD', 'orgUser'), 'POST', url, { from: '2026-11-20' })).status).toBe(403);
    expect((await rig.s.call(hd, 'POST', '/api/vehicle/policy/999999/rederive', { from: '2026-11-20' })).status).toBe(404);
  });
});
