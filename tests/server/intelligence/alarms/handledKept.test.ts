import { rebuildDerived } from '../../../../server/intelligence/rebuild';
import { ADMIN_PASSWORD, BACKENDS } from '../../../helpers/testServer';
import { demoTerminal } from '../../telematics/gateway/harness';
import { startAlarmRig, type AlarmRig } from './rig';
import { ScriptedDay } from './scriptedDay';

const START = Date.parse('2026-11-21T00:00:00Z');
const HOME = { latitude: 31.2, longitude: 121.4 };

interface Listed {
  id: number;
  begin: string;
  state: string;
  supersededBy: number | null;
  status: string;
  handled: boolean;
  handledBy: string | null;
  handledAt: string | null;
  note: string | null;
}

/**
 * An operator's work survives derivation: a handled alarm that new data moves, merges or no longer
 * finds is never deleted. It stays in the alarm centre's history, superseded (with the alarm that
 * replaced it, which carries the handling on and is not announced as fresh) or withdrawn.
 */
describe.each(BACKENDS)('handled alarms kept on %s', (backend) => {
  let rig: AlarmRig;
  let admin: string;
  let policyId: number;
  beforeAll(async () => {
    rig = await startAlarmRig(backend);
    admin = await rig.s.login('admin', ADMIN_PASSWORD);
    const r = await rig.s.call(admin, 'PUT', '/api/vehicle/policy', {
      name: 'p-Idle',
      alarmType: 'Idle',
      threshold: null,
      durationMinutes: 1,
    });
    if (r.status !== 201) throw new Error(JSON.stringify(r.body));
    policyId = r.body.id;
  });
  afterAll(() => rig.close());

  const listed = async (vehicleId: number, criteria: object = {}): Promise<Listed[]> => {
    const r = await rig.s.call(admin, 'POST', '/api/vehicle/alarm/query', {
      criteria: { vehicleId, type: 'Idle', ...criteria },
      order: { property: 'begin', direction: 'ascend' },
      pageIndex: 1,
      pageSize: 50,
    });
    expect(r.status).toBe(200);
    return r.body.data as Listed[];
  };
  const handle = async (id: number, note: string) => {
    const r = await rig.s.call(admin, 'PUT', `/api/vehicle/alarm/${id}/handle`, { note });
    expect(r.status).toBe(200);
    return r.body as Listed;
  };
  const announced = (vehicleId: number) => rig.raised.filter((a) => a.vehicleId === vehicleId && a.type === 'Idle').map((a) => a.id);
  const published = (vehicleId: number) =>
    rig.published.filter((a) => a.vehicleId === vehicleId && a.type === 'Idle').map((a) => a.alarmId);

  /** A minute's drive, two minutes idling, a minute's drive, sent live but for the idling's first 30 s: its Idle alarm. */
  const idleWithoutStart = async (phone: string) => {
    const day = new ScriptedDay(START, HOME).step(60, 40).step(120, 0, { acc: true }).step(60, 40);
    const idleFrom = START + 60_000;
    const late = day.reports.filter((r) => (r.time as number) >= idleFrom && (r.time as number) < idleFrom + 30_000);
    const vehicleId = await rig.vehicleOf(phone);
    await rig.send(
      phone,
      day.reports.filter((r) => !late.includes(r)),
    );
    const [first] = await listed(vehicleId);
    return { day, idleFrom, late, vehicleId, first };
  };

  it('moves the handling to the alarm a late upload (blind area) replaces it with, keeps the old one superseded, and announces nothing', async () => {
    const phone = demoTerminal(21);
    const { idleFrom, late, vehicleId, first } = await idleWithoutStart(phone);
    expect(first).toMatchObject({ begin: new Date(idleFrom + 30_000).toISOString(), state: 'current', handled: false });
    expect(announced(vehicleId)).toEqual([first.id]);
    const handled = await handle(first.id, '司机在等货');

    await rig.send(phone, late, { blind: true });
    const after = await listed(vehicleId);
    expect(after).toHaveLength(2);
    const [successor, old] = after;
    expect(successor).toMatchObject({
      begin: new Date(idleFrom).toISOString(),
      state: 'current',
      supersededBy: null,
      handled: true,
      note: '司机在等货',
      handledBy: handled.handledBy,
      handledAt: handled.handledAt,
    });
    expect(old).toMatchObject({
      id: first.id,
      state: 'superseded',
      supersededBy: successor.id,
      handled: true,
      note: '司机在等货',
      status: 'closed',
    });
    // Inherited, not fresh: neither heard by the console nor on the bus (notifications).
    expect(announced(vehicleId)).toEqual([first.id]);
    expect(published(vehicleId)).toEqual([first.id]);
    // Current alarms count only the successor; handling it again is refused as for any handled alarm.
    expect((await listed(vehicleId, { state: 'current' })).map((a) => a.id)).toEqual([successor.id]);
    expect((await rig.s.call(admin, 'PUT', `/api/vehicle/alarm/${successor.id}/handle`, { note: 'x' })).status).toBe(406);
  });

  it('moves the handling on, unannounced, also when the earlier reports come late as live ones', async () => {
    const phone = demoTerminal(24);
    const { day, idleFrom, vehicleId, first } = await idleWithoutStart(phone);
    await handle(first.id, '已联系');
    // The terminal sends its idling again from the start (what was stored already, and the missed 30 s), live.
    await rig.send(
      phone,
      day.reports.filter((r) => (r.time as number) >= idleFrom && (r.time as number) < idleFrom + 120_000),
    );
    const [successor, old] = await listed(vehicleId);
    expect(successor).toMatchObject({ begin: new Date(idleFrom).toISOString(), state: 'current', handled: true, note: '已联系' });
    expect(old).toMatchObject({ id: first.id, state: 'superseded', supersededBy: successor.id });
    expect(announced(vehicleId)).toEqual([first.id]);
    expect(published(vehicleId)).toEqual([first.id]);
  });

  it('keeps a handled alarm a late upload no longer finds, withdrawn, out of the open and current lists; an unhandled one goes', async () => {
    // Two minutes idling with the engine on; the late reports show 20 s of moving in the middle:
    // neither idle run then lasts the policy's minute.
    const build = (start: number, moving: boolean) =>
      new ScriptedDay(start, HOME)
        .step(30, 40)
        .step(40, 0, { acc: true })
        .step(20, moving ? 30 : 0, { acc: true })
        .step(50, 0, { acc: true })
        .step(30, 40);
    const gap = (r: { time: unknown }, start: number) => (r.time as number) >= start + 70_000 && (r.time as number) < start + 90_000;
    const phone = demoTerminal(22);
    const vehicleId = await rig.vehicleOf(phone);
    const second = START + 3_600_000;
    await rig.send(phone, [
      ...build(START, false).reports.filter((r) => !gap(r, START)),
      ...build(second, false).reports.filter((r) => !gap(r, second)),
    ]);
    const found = await listed(vehicleId);
    expect(found.map((a) => a.begin)).toEqual([new Date(START + 30_000).toISOString(), new Date(second + 30_000).toISOString()]);
    await handle(found[0].id, '已核实');
    // The unhandled one is in the history list (it ended more than a day ago, so it is not current: alarmCentre/current.ts).
    expect((await listed(vehicleId, { handled: false })).length).toBeGreaterThan(0);

    await rig.send(
      phone,
      [...build(START, true).reports.filter((r) => gap(r, START)), ...build(second, true).reports.filter((r) => gap(r, second))],
      { blind: true },
    );
    const after = await listed(vehicleId);
    // The handled one stays, withdrawn, with its handling; the unhandled one nobody touched is gone.
    expect(after).toEqual([
      expect.objectContaining({ id: found[0].id, state: 'withdrawn', supersededBy: null, status: 'closed', handled: true, note: '已核实' }),
    ]);
    expect(await listed(vehicleId, { current: true })).toEqual([]);
    expect(await listed(vehicleId, { status: 'open' })).toEqual([]);
    expect((await listed(vehicleId, { state: 'withdrawn' })).map((a) => a.id)).toEqual([found[0].id]);
  });

  it('keeps handled alarms through a rebuild (npm run derive) under an edited policy', async () => {
    const day = new ScriptedDay(START + 7_200_000, HOME).step(60, 40).step(120, 0, { acc: true }).step(60, 40);
    const phone = demoTerminal(23);
    const vehicleId = await rig.vehicleOf(phone);
    await rig.send(phone, day.reports);
    const [alarm] = await listed(vehicleId);
    await handle(alarm.id, '已处理');
    const before = await listed(vehicleId);

    // Rebuilt as it is: the handled alarm is the same row, unchanged.
    const args = { vehicle: vehicleId, from: START, to: START + 86_400_000 };
    await rebuildDerived(rig.s.database.db, 'Asia/Shanghai', args);
    expect(await listed(vehicleId)).toEqual(before);

    // Three minutes' idling needed from now on: the rebuild no longer finds it, and keeps it withdrawn.
    const edit = await rig.s.call(admin, 'PUT', `/api/vehicle/policy/${policyId}`, {
      name: 'p-Idle',
      alarmType: 'Idle',
      threshold: null,
      durationMinutes: 3,
    });
    expect(edit.status).toBe(200);
    await rig.settled();
    await rebuildDerived(rig.s.database.db, 'Asia/Shanghai', args);
    expect(await listed(vehicleId)).toEqual([{ ...before[0], state: 'withdrawn' }]);
  });
});
