import { sql } from 'kysely';
import { BACKENDS } from '../../../helpers/testServer';
import type { LocationInput } from '../../../../server/telematics/jt808/codec';
import { demoTerminal } from '../harness';
import { startAlarmRig, type AlarmRig } from './rig';
import { ScriptedDay } from './scriptedDay';

const START = Date.parse('2026-11-12T00:00:00Z');
const HOME = { latitude: 31.2, longitude: 121.4 };

/**
 * Fatigue and Trail go on from the stored alarm and a few reports read by key (carry.ts,
 * ignitionReach.ts): a pass of one new report reads about its own look-back however long the
 * driving without a rest has lasted or the ignition has been off, and finds the same alarms as a
 * rebuild of all the vehicle's history.
 */
describe.each(BACKENDS)('Fatigue and Trail carried into each pass, on %s', (backend) => {
  let rig: AlarmRig;
  beforeAll(async () => {
    rig = await startAlarmRig(backend);
    const hd = await rig.s.memberToken('HD', 'administrator');
    for (const body of [
      { name: 'w-Fatigue', alarmType: 'Fatigue', threshold: null, durationMinutes: null },
      { name: 'w-Trail', alarmType: 'Trail', threshold: null, durationMinutes: null },
    ]) {
      const r = await rig.s.call(hd, 'PUT', '/api/vehicle/policy', body);
      if (r.status !== 201) throw new Error(JSON.stringify(r.body));
    }
  }, 600_000);
  afterAll(() => rig.close());

  const rows = async (vehicleId: number, type: string) =>
    (
      await sql<{ id: number; begin_time: Date; end_time: Date | null; value: number | null }>`
      SELECT id, begin_time, end_time, value FROM alarm WHERE vehicle_id = ${vehicleId} AND type = ${type} AND state = 'current' ORDER BY begin_time`.execute(
        rig.s.database.db,
      )
    ).rows.map((a) => ({
      id: a.id,
      begin: new Date(a.begin_time).getTime(),
      end: a.end_time === null ? null : new Date(a.end_time).getTime(),
      value: a.value,
    }));

  const live = (phone: string, reports: readonly LocationInput[]) => rig.sendLive(phone, reports);

  /** What a rebuild of all the vehicle's history finds equals what the passes stored; nothing announced twice. */
  const rebuiltAlike = async (vehicleId: number, type: string) => {
    const stored = await rows(vehicleId, type);
    await rig.derivation.pipeline.rebuild(vehicleId, { from: -Infinity, to: Infinity });
    expect(await rows(vehicleId, type)).toEqual(stored);
    const announced = rig.raised.filter((a) => a.vehicleId === vehicleId).map((a) => a.id);
    expect(new Set(announced).size).toBe(announced.length);
    return stored;
  };

  it('goes on with a Fatigue open for sixteen hours of driving, through short stops, until a rest ends it', async () => {
    const phone = demoTerminal(11);
    const vehicleId = await rig.vehicleOf(phone);
    // Thirty-five minutes' drive and a fifteen-minute stop, again and again: too short a rest to end
    // the driving. A pass's window starts inside a stop, where a rest is under way.
    const leg = (d: ScriptedDay, h: number) =>
      d.step(35 * 60, 40, { every: 300, heading: h % 2 ? 90 : 270 }).step(15 * 60, 0, { acc: false, every: 300 });
    const day = new ScriptedDay(START, HOME);
    for (let h = 0; h < 20; h++) leg(day, h);
    await rig.send(phone, day.reports, { blind: true, chunk: 50 });
    const [open] = await rows(vehicleId, 'Fatigue');
    expect(open).toMatchObject({ begin: START, end: null });
    // Two more legs live, one report at a time: each pass reads the policy's four hours and twenty
    // minutes of look-back (about 55 reports), not the sixteen hours of the drive.
    const more = new ScriptedDay(day.time, day.position);
    leg(more, 20);
    leg(more, 21);
    for (const n of await live(phone, more.reports)) expect(n).toBeLessThan(80);
    const lastDrive = more.reports.filter((r) => (r.speed ?? 0) > 0).at(-1)!.time as number;
    expect(await rows(vehicleId, 'Fatigue')).toEqual([{ ...open, value: Math.round((lastDrive - START) / 60_000) }]);
    // Half an hour's rest ends it twenty minutes after the stop began; the drive after begins afresh.
    const rest = new ScriptedDay(more.time, more.position).step(30 * 60, 0, { acc: false, every: 300 }).step(15 * 60, 40, { every: 300 });
    await live(phone, rest.reports);
    const closed = await rebuiltAlike(vehicleId, 'Fatigue');
    // The stop's first report came five minutes after the last drive's.
    expect(closed).toEqual([{ ...open, end: lastDrive + 25 * 60_000, value: Math.round((lastDrive - START) / 60_000) }]);
  }, 600_000);

  it('anchors towings to where they last stood, with the ignition off for three days while carried', async () => {
    const phone = demoTerminal(12);
    const vehicleId = await rig.vehicleOf(phone);
    // Driven, then carried with the ignition off (a transporter): each leg 30 to 45 minutes on the
    // move and 10 to 20 standing, each move a towing from where the last one stood. The legs'
    // lengths vary, so windows start inside a towing, in the minutes before it re-anchors and after.
    const leg = (d: ScriptedDay, h: number) =>
      d
        .step((30 + 5 * (h % 4)) * 60, 40, { acc: false, every: 300, heading: h % 2 ? 90 : 270 })
        .step((10 + 5 * (h % 3)) * 60, 0, { acc: false, every: 300 });
    const day = new ScriptedDay(START, HOME).step(30 * 60, 40, { every: 300 });
    for (let h = 0; h < 82; h++) leg(day, h);
    await rig.send(phone, day.reports, { blind: true, chunk: 50 });
    const towings = await rows(vehicleId, 'Trail');
    expect(towings).toHaveLength(82);
    // Three more legs live: each pass reads the Fatigue policy's look-back (the moves are driving to
    // it too), not the three days since the ignition went off.
    const more = new ScriptedDay(day.time, day.position);
    for (let h = 82; h < 85; h++) leg(more, h);
    for (const n of await live(phone, more.reports)) expect(n).toBeLessThan(80);
    const all = await rebuiltAlike(vehicleId, 'Trail');
    expect(all.slice(0, 82)).toEqual(towings);
    expect(all).toHaveLength(85);
  }, 600_000);
});
