import { sql } from 'kysely';
import { BACKENDS } from '../../../helpers/testServer';
import { demoTerminal } from '../harness';
import { startAlarmRig, type AlarmRig } from './rig';
import { ScriptedDay } from './scriptedDay';

const START = Date.parse('2026-11-10T00:00:00Z');
const HOME = { latitude: 31.2, longitude: 121.4 };
const STOLEN_BIT = 26;

/**
 * Alarms open for days are carried into each pass, not reached back to (carry.ts): a pass of one
 * new report reads about its own look-back, however long a trouble code, a terminal alarm bit, an
 * idling run or a flat battery has lasted, and finds the same alarms as a rebuild of all the vehicle's history.
 */
describe.each(BACKENDS)('alarms carried into each pass, on %s', (backend) => {
  let rig: AlarmRig;
  beforeAll(async () => {
    rig = await startAlarmRig(backend);
    const hd = await rig.s.memberToken('HD', 'administrator');
    for (const body of [
      { name: 'c-Fault', alarmType: 'Fault', threshold: null, durationMinutes: null },
      { name: 'c-Idle', alarmType: 'Idle', threshold: null, durationMinutes: 5 },
      { name: 'c-Low', alarmType: 'Low', threshold: 11.8, durationMinutes: 5 },
    ]) {
      const r = await rig.s.call(hd, 'PUT', '/api/vehicle/policy', body);
      if (r.status !== 201) throw new Error(JSON.stringify(r.body));
    }
  }, 600_000);
  afterAll(() => rig.close());

  const rows = async (vehicleId: number) =>
    (
      await sql<{ id: number; type: string; subject: string; begin_time: Date; end_time: Date | null; value: number | null }>`
      SELECT id, type, subject, begin_time, end_time, value FROM alarm WHERE vehicle_id = ${vehicleId} AND state = 'current' ORDER BY begin_time, type, subject`.execute(
        rig.s.database.db,
      )
    ).rows.map((a) => ({
      id: a.id,
      type: a.type,
      subject: a.subject,
      begin: new Date(a.begin_time).getTime(),
      end: a.end_time === null ? null : new Date(a.end_time).getTime(),
      value: a.value,
    }));

  it('reads a pass of one report as far back as its look-back, with a code and a bit open for three days, and goes on with an idling', async () => {
    const phone = demoTerminal(7);
    const vehicleId = await rig.vehicleOf(phone);
    // Three days of an hour's pattern: ten minutes' drive, fifty parked; P0301 and the theft bit on every report.
    const hour = (d: ScriptedDay, h: number) =>
      d
        .step(10 * 60, 40, { every: 120, heading: h % 2 ? 90 : 270, dtcs: ['P0301'], alarmBits: [STOLEN_BIT] })
        .step(50 * 60, 0, { acc: false, every: 600, dtcs: ['P0301'], alarmBits: [STOLEN_BIT] });
    const day = new ScriptedDay(START, HOME);
    for (let h = 0; h < 72; h++) hour(day, h);
    await rig.send(phone, day.reports, { blind: true, chunk: 50 });
    const codeAndBit = (list: Awaited<ReturnType<typeof rows>>) =>
      list.filter((a) => a.type === 'Fault' || a.type === 'Stolen').map((a) => [a.id, a.type, a.subject, a.begin, a.end]);
    const open = codeAndBit(await rows(vehicleId));
    expect(open.map((a) => a.slice(1))).toEqual([
      ['Fault', 'dtc:P0301', START, null],
      ['Stolen', '', START, null],
    ]);
    // The pattern goes on live, one report at a time: each pass reads the current trip or stop and
    // the policies' minutes of look-back (a few reports), not the 720 of the alarms' three days.
    const live = hour(new ScriptedDay(day.time, day.position), 72).reports;
    for (const r of live) {
      const before = (await rig.derivation.stats()).positionsDerived;
      await rig.send(phone, [r]);
      expect((await rig.derivation.stats()).positionsDerived - before).toBeLessThan(30);
    }
    expect(codeAndBit(await rows(vehicleId))).toEqual(open);
    // Then four hours of idling with the engine on, the code and the bit still there; then live reports of it.
    const idleFrom = (live[live.length - 1].time as number) + 600_000;
    const idle = new ScriptedDay(idleFrom, day.position).step(4 * 3600, 0, {
      acc: true,
      every: 1800,
      dtcs: ['P0301'],
      alarmBits: [STOLEN_BIT],
    });
    await rig.send(phone, idle.reports.slice(0, -2), { blind: true });
    for (const r of idle.reports.slice(-2)) await rig.send(phone, [r]);
    const withIdle = await rows(vehicleId);
    expect(withIdle.find((a) => a.type === 'Idle')).toMatchObject({ begin: idleFrom, end: null });
    // The code clears, the bit clears and the vehicle drives off: each alarm ends at that report.
    const off = new ScriptedDay(idle.time, day.position).step(60, 40, { every: 60, dtcs: [] }).reports;
    await rig.send(phone, off);
    const closed = await rows(vehicleId);
    const at = off[0].time as number;
    const ended = Object.fromEntries(
      closed.filter((a) => ['Fault', 'Stolen', 'Idle'].includes(a.type)).map((a) => [a.type, [a.id, a.begin, a.end]]),
    );
    expect(ended).toEqual({
      Fault: [open[0][0], START, at],
      Stolen: [open[1][0], START, at],
      Idle: [withIdle.find((a) => a.type === 'Idle')!.id, idleFrom, at],
    });
    // A rebuild of everything finds exactly the same alarms, and nothing was announced twice.
    await rig.derivation.pipeline.rebuild(vehicleId, { from: -Infinity, to: Infinity });
    expect(await rows(vehicleId)).toEqual(closed);
    const announced = rig.raised.filter((a) => a.vehicleId === vehicleId).map((a) => a.id);
    expect(new Set(announced).size).toBe(announced.length);
  }, 600_000);

  it('goes on with a weak battery open for three days, keeping its lowest reading, until a reading clears it', async () => {
    const phone = demoTerminal(8);
    const vehicleId = await rig.vehicleOf(phone);
    // A failing alternator: every hour ten minutes' drive and fifty parked for three days, the battery
    // reading 11.4 V throughout, at its lowest once on the second day.
    const hour = (d: ScriptedDay, h: number, volts: number) =>
      d
        .step(10 * 60, 40, { every: 120, heading: h % 2 ? 90 : 270, volts })
        .step(50 * 60, 0, { acc: false, every: 600, volts: h === 36 ? 10.9 : volts });
    const day = new ScriptedDay(START, HOME);
    for (let h = 0; h < 72; h++) hour(day, h, 11.4);
    await rig.send(phone, day.reports, { blind: true, chunk: 50 });
    const low = async () => (await rows(vehicleId)).filter((a) => a.type === 'Low');
    const open = await low();
    expect(open.map((a) => [a.begin, a.end, a.value])).toEqual([[START, null, 10.9]]);
    // Live readings, one at a time: each pass reads the current trip or stop and its look-back, not the alarm's three days.
    const live = hour(new ScriptedDay(day.time, day.position), 72, 11.5).reports;
    for (const r of live) {
      const before = (await rig.derivation.stats()).positionsDerived;
      await rig.send(phone, [r]);
      expect((await rig.derivation.stats()).positionsDerived - before).toBeLessThan(30);
    }
    expect(await low()).toEqual(open);
    // Repaired: the alarm ends at the first good reading, still the same alarm with its lowest reading.
    const charged = new ScriptedDay(day.time + 3_600_000, day.position).step(60, 40, { volts: 13.8 }).reports;
    for (const r of charged) await rig.send(phone, [r]);
    const closed = await low();
    expect(closed.map((a) => [a.id, a.begin, a.end, a.value])).toEqual([[open[0].id, START, charged[0].time, 10.9]]);
    // A rebuild of everything finds exactly the same.
    await rig.derivation.pipeline.rebuild(vehicleId, { from: -Infinity, to: Infinity });
    expect(await low()).toEqual(closed);
  }, 600_000);
});
