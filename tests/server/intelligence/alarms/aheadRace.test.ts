import { sql } from 'kysely';
import type { Deriver } from '../../../../server/intelligence';
import type { LocationInput } from '../../../../server/telematics/jt808/codec';
import { demoTerminal } from '../../telematics/gateway/harness';
import { startAlarmRig, type AlarmRig } from './rig';
import { drainReadAt, ScriptedDay } from './scriptedDay';

const START = Date.parse('2026-11-21T00:00:00Z');
const HOME = { latitude: 31.2, longitude: 121.4 };

/** A promise with its resolve. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * An alarm raised from a committed batch ahead of the pass, while a pass that read the vehicle's
 * reports just before that batch is still running: that pass cannot find the alarm (it has not
 * read the report that completes it) and must leave it, so the next pass keeps its id and nothing
 * is announced twice. On PostgreSQL only: PGlite's one connection runs the pass's transaction
 * alone, so no batch is stored (and no alarm raised from it) between its reading and its writing.
 */
describe('an alarm raised ahead of a pass already under way, on postgres', () => {
  let rig: AlarmRig;
  // The gate: the next pass to reach it, after reading its windows and before the alarm deriver, waits.
  let armed = false;
  let entered = deferred();
  let release = deferred();
  const gate: Deriver = {
    name: 'gate',
    async rebuild() {
      if (!armed) return;
      armed = false;
      entered.resolve();
      await release.promise;
    },
  };

  beforeAll(async () => {
    rig = await startAlarmRig('postgres', { beforeAlarms: [gate] });
    const hd = await rig.s.memberToken('HD', 'administrator');
    for (const body of [
      { name: 'p-Low', alarmType: 'Low', threshold: 11.8, durationMinutes: 1 },
      { name: 'p-Idle', alarmType: 'Idle', threshold: null, durationMinutes: 1 },
      { name: 'p-OverSpeed', alarmType: 'OverSpeed', threshold: 80, durationMinutes: null, params: { durationSeconds: 30 } },
      { name: 'p-Fatigue', alarmType: 'Fatigue', threshold: null, durationMinutes: null, params: { hours: 1, restMinutes: 20 } },
      { name: 'p-Trail', alarmType: 'Trail', threshold: null, durationMinutes: null },
      { name: 'p-StopLongTime', alarmType: 'StopLongTime', threshold: null, durationMinutes: 2 },
      {
        name: 'p-RepeatArrival',
        alarmType: 'RepeatArrival',
        threshold: null,
        durationMinutes: null,
        params: { radiusM: 200, count: 3, windowHours: 1 },
      },
      { name: 'p-FuelDrain', alarmType: 'FuelDrain', threshold: null, durationMinutes: null },
    ]) {
      const r = await rig.s.call(hd, 'PUT', '/api/vehicle/policy', body);
      if (r.status !== 201) throw new Error(JSON.stringify(r.body));
    }
  });
  afterAll(() => rig.close());

  const alarmsOf = async (vehicleId: number, type: string) =>
    (
      await sql<{
        id: number;
        begin: Date;
      }>`SELECT id, begin_time AS begin FROM alarm WHERE vehicle_id = ${vehicleId} AND type = ${type} ORDER BY begin_time`.execute(
        rig.s.database.db,
      )
    ).rows.map((r) => ({ id: r.id, begin: new Date(r.begin).getTime() }));

  /**
   * Sends the reports before `trigger` and lets them be derived; then the one before it, whose pass
   * is held at the gate once it has read it; then `trigger`, whose batch raises the alarm ahead of
   * that pass; then lets the pass go on. Answers the alarms of `type` the batch raised.
   */
  async function raceTheTrigger(
    phone: string,
    reports: LocationInput[],
    trigger: number,
    type: string,
  ): Promise<Array<{ id: number; begin: number }>> {
    const vehicleId = await rig.vehicleOf(phone);
    const terminal = rig.terminal(phone);
    await terminal.connect();
    for (const r of reports.slice(0, trigger - 1)) terminal.report(r);
    await terminal.drain(60_000);
    await rig.settled();
    entered = deferred();
    release = deferred();
    armed = true;
    terminal.report(reports[trigger - 1]);
    await terminal.drain(60_000);
    await entered.promise;
    terminal.report(reports[trigger]);
    await terminal.drain(60_000);
    await rig.gateway.writer.flush();
    await rig.engine.watched();
    const early = await alarmsOf(vehicleId, type);
    release.resolve();
    for (const r of reports.slice(trigger + 1)) terminal.report(r);
    await terminal.drain(60_000);
    await rig.settled();
    return early;
  }

  it('keeps a Low whose dip reached its minute in the batch', async () => {
    const day = new ScriptedDay(START, HOME).step(120, 0, { acc: true, volts: 13.8 }).step(120, 0, { acc: true, volts: 11 });
    const vehicleId = await rig.vehicleOf(demoTerminal(3));
    const dipAt = day.reports[12].time as number;
    const early = await raceTheTrigger(demoTerminal(3), day.reports, 18, 'Low');
    expect(early.map((a) => a.begin)).toEqual([dipAt]);
    expect(await alarmsOf(vehicleId, 'Low')).toEqual(early);
    expect(rig.raised.filter((a) => a.vehicleId === vehicleId && a.type === 'Low').map((a) => a.id)).toEqual([early[0].id]);
  });
  it('keeps an OverSpeed whose seconds ran out in the batch', async () => {
    // Two minutes at 60 km/h, then a minute at 100: over the policy's 80 km/h for its 30 s.
    const day = new ScriptedDay(START, HOME).step(120, 60).step(60, 100);
    const vehicleId = await rig.vehicleOf(demoTerminal(4));
    const early = await raceTheTrigger(demoTerminal(4), day.reports, 15, 'OverSpeed');
    expect(early.map((a) => a.begin)).toEqual([day.reports[12].time]);
    expect(await alarmsOf(vehicleId, 'OverSpeed')).toEqual(early);
    expect(rig.raised.filter((a) => a.vehicleId === vehicleId && a.type === 'OverSpeed').map((a) => a.id)).toEqual([early[0].id]);
  });

  it('keeps an Idle whose minute ran out in the batch', async () => {
    const day = new ScriptedDay(START, HOME).step(60, 40).step(120, 0, { acc: true });
    const vehicleId = await rig.vehicleOf(demoTerminal(5));
    const early = await raceTheTrigger(demoTerminal(5), day.reports, 12, 'Idle');
    expect(early.map((a) => a.begin)).toEqual([day.reports[6].time]);
    expect(await alarmsOf(vehicleId, 'Idle')).toEqual(early);
    expect(rig.raised.filter((a) => a.vehicleId === vehicleId && a.type === 'Idle').map((a) => a.id)).toEqual([early[0].id]);
  });

  it('keeps a Trail whose tow went beyond the metres in the batch', async () => {
    // Five minutes parked, then towed at 36 km/h: beyond 300 m of where it stopped at report 40.
    const day = new ScriptedDay(START, HOME).step(60, 30).step(300, 0, { acc: false, every: 10 }).step(120, 36, { acc: false });
    const vehicleId = await rig.vehicleOf(demoTerminal(7));
    const early = await raceTheTrigger(demoTerminal(7), day.reports, 40, 'Trail');
    expect(early.map((a) => a.begin)).toEqual([day.reports[40].time]);
    expect(await alarmsOf(vehicleId, 'Trail')).toEqual(early);
    expect(rig.raised.filter((a) => a.vehicleId === vehicleId && a.type === 'Trail').map((a) => a.id)).toEqual([early[0].id]);
  });

  it('keeps a Fatigue whose hour of driving after a full rest ran out in the batch', async () => {
    // 25 minutes parked, then driving: the policy's hour runs out at report 85.
    const day = new ScriptedDay(START, HOME).step(25 * 60, 0, { acc: false, every: 60 }).step(70 * 60, 40, { every: 60 });
    const vehicleId = await rig.vehicleOf(demoTerminal(6));
    const early = await raceTheTrigger(demoTerminal(6), day.reports, 85, 'Fatigue');
    expect(early.map((a) => a.begin)).toEqual([day.reports[25].time]);
    expect(await alarmsOf(vehicleId, 'Fatigue')).toEqual(early);
    expect(rig.raised.filter((a) => a.vehicleId === vehicleId && a.type === 'Fatigue').map((a) => a.id)).toEqual([early[0].id]);
  });

  it('keeps a StopLongTime whose minutes ran out in the batch', async () => {
    // A minute's drive, then parked: the stop that began at report 6 lasts the policy's two minutes at report 18.
    const day = new ScriptedDay(START, HOME).step(60, 36).step(180, 0, { acc: false });
    const vehicleId = await rig.vehicleOf(demoTerminal(8));
    const early = await raceTheTrigger(demoTerminal(8), day.reports, 18, 'StopLongTime');
    expect(early.map((a) => a.begin)).toEqual([day.reports[6].time]);
    expect(await alarmsOf(vehicleId, 'StopLongTime')).toEqual(early);
    expect(rig.raised.filter((a) => a.vehicleId === vehicleId && a.type === 'StopLongTime').map((a) => a.id)).toEqual([early[0].id]);
  });

  it('keeps a RepeatArrival whose third visit lasted its minutes in the batch', async () => {
    // Arriving, then three four-minute visits to one place: the third is a visit at report `trigger`.
    const day = new ScriptedDay(START, HOME).step(60, 36, { heading: 270 }).step(60, 36, { heading: 90 });
    const visits: number[] = [];
    for (let i = 0; i < 3; i++) {
      visits.push(day.time);
      day.step(240, 0, { acc: false, every: 30 }).step(60, 36, { heading: 90 }).step(60, 36, { heading: 270 });
    }
    const trigger = day.reports.findIndex((r) => (r.time as number) >= visits[2] + 180_000);
    const vehicleId = await rig.vehicleOf(demoTerminal(2));
    const early = await raceTheTrigger(demoTerminal(2), day.reports, trigger, 'RepeatArrival');
    expect(early.map((a) => a.begin)).toEqual([visits[2]]);
    expect(await alarmsOf(vehicleId, 'RepeatArrival')).toEqual(early);
    expect(rig.raised.filter((a) => a.vehicleId === vehicleId && a.type === 'RepeatArrival').map((a) => a.id)).toEqual([early[0].id]);
  });

  it('keeps a FuelDrain whose fall first read as one in the batch', async () => {
    // A minute's drive, two minutes parked at 200 L, then siphoned 10 L every 30 s.
    const day = new ScriptedDay(START, HOME).step(60, 36, { fuelL: 200 }).step(120, 0, { acc: false });
    for (const level of [190, 180, 170, 160]) day.step(30, 0, { acc: false, fuelL: level });
    const vehicleId = await rig.vehicleOf(demoTerminal(1));
    const tank = (
      await sql<{ tank: number | null }>`SELECT tank_capacity AS tank FROM vehicle WHERE id = ${vehicleId}`.execute(rig.s.database.db)
    ).rows[0].tank;
    const trigger = drainReadAt(day.reports, 6, Math.max(5, (tank ?? 0) * 0.05));
    expect(trigger).toBeGreaterThan(18);
    const early = await raceTheTrigger(demoTerminal(1), day.reports, trigger, 'FuelDrain');
    expect(early.map((a) => a.begin)).toEqual([day.reports[trigger].time]);
    expect(await alarmsOf(vehicleId, 'FuelDrain')).toEqual(early);
    expect(rig.raised.filter((a) => a.vehicleId === vehicleId && a.type === 'FuelDrain').map((a) => a.id)).toEqual([early[0].id]);
  });
});
