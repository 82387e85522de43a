import { sql } from 'kysely';
import { BACKENDS } from '../../../helpers/testServer';
import { demoTerminal } from '../../telematics/gateway/harness';
import { startAlarmRig, type AlarmRig } from './rig';
import { ScriptedDay } from './scriptedDay';

const START = Date.parse('2026-11-21T00:00:00Z');
const HOME = { latitude: 31.2, longitude: 121.4 };
const GNSS_ANTENNA_BIT = 5;

/**
 * An edited policy and the past: a pass whose window reaches back into history (here to the begin
 * of an alarm still open) finds there what the new policy makes an alarm, and stores it; it is
 * listed, but not announced (console, bus, notifications) as though it had just happened. What a
 * new report decides under the new policy is announced, once, and so is what a late upload's own
 * reports decide.
 */
describe.each(BACKENDS)('a policy added later on %s', (backend) => {
  let rig: AlarmRig;
  beforeAll(async () => {
    rig = await startAlarmRig(backend);
  });
  afterAll(() => rig.close());

  const idles = async (vehicleId: number) =>
    (
      await sql<{
        id: number;
        begin: Date;
      }>`SELECT id, begin_time AS begin FROM alarm WHERE vehicle_id = ${vehicleId} AND type = 'Idle' ORDER BY begin_time`.execute(
        rig.s.database.db,
      )
    ).rows.map((r) => ({
      id: r.id,
      begin: new Date(r.begin).getTime(),
    }));

  it('stores the alarms it finds in history without announcing them, and announces the one a new report decides', async () => {
    // Ten minutes idling, then two driving, with the antenna bit on throughout: its alarm stays
    // open, so every pass reads back to its begin. No Idle policy yet: no Idle alarm.
    const day = new ScriptedDay(START, HOME)
      .step(600, 0, { acc: true, alarmBits: [GNSS_ANTENNA_BIT] })
      .step(120, 40, { alarmBits: [GNSS_ANTENNA_BIT] });
    // Five hours before, ten minutes idling too, a drive and a stop: history the pass after the
    // edit does not reach, until a late upload's window does.
    const older = new ScriptedDay(START - 5 * 3_600_000, HOME).step(600, 0, { acc: true }).step(120, 40).step(300, 0, { acc: false });
    const phone = demoTerminal(17);
    const vehicleId = await rig.vehicleOf(phone);
    await rig.send(phone, [...older.reports, ...day.reports]);
    expect(await idles(vehicleId)).toEqual([]);
    const antenna = await sql<{
      end: Date | null;
    }>`SELECT end_time AS end FROM alarm WHERE vehicle_id = ${vehicleId} AND type = 'GnssAntenna'`.execute(rig.s.database.db);
    expect(antenna.rows.map((r) => r.end)).toEqual([null]);

    const hn = await rig.s.memberToken('HN', 'administrator');
    expect(
      (await rig.s.call(hn, 'PUT', '/api/vehicle/policy', { name: 'p-Idle-later', alarmType: 'Idle', threshold: null, durationMinutes: 1 }))
        .status,
    ).toBe(201);
    const heardBefore = rig.raised.length;
    const busBefore = rig.published.length;

    // Three minutes idling now: the new policy's minute is reached at the seventh report.
    const idleFrom = day.time;
    day.step(180, 0, { acc: true, alarmBits: [GNSS_ANTENNA_BIT] });
    await rig.send(
      phone,
      day.reports.filter((r) => (r.time as number) >= idleFrom),
    );

    const stored = await idles(vehicleId);
    // The ten minutes of history, found by the pass under the new policy, and the idling now.
    expect(stored.map((a) => a.begin)).toEqual([START, idleFrom]);
    const heard = rig.raised.slice(heardBefore).filter((a) => a.vehicleId === vehicleId && a.type === 'Idle');
    expect(heard.map((a) => a.id)).toEqual([stored[1].id]);
    const carried = rig.published.slice(busBefore).filter((a) => a.vehicleId === vehicleId && a.type === 'Idle');
    expect(carried.map((a) => a.alarmId)).toEqual([stored[1].id]);

    // A blind-area upload of an hour before (three minutes idling, then a minute's drive): past, but
    // its own reports decide its idling, so that alarm is announced.
    const late = new ScriptedDay(START - 3_600_000, HOME).step(180, 0, { acc: true }).step(60, 40);
    await rig.send(phone, late.reports, { blind: true });
    const all = await idles(vehicleId);
    // Its window reaches back to the trip five hours before too, whose idling the new policy makes an
    // alarm: history all the same (its reports were there before the edit), so not announced.
    expect(all.map((a) => a.begin)).toEqual([START - 5 * 3_600_000, START - 3_600_000, START, idleFrom]);
    const heardLate = rig.raised.slice(heardBefore).filter((a) => a.vehicleId === vehicleId && a.type === 'Idle');
    expect(heardLate.map((a) => a.id)).toEqual([stored[1].id, all[1].id]);
    const flags = await sql<{ announced: boolean }>`
      SELECT announced FROM alarm WHERE vehicle_id = ${vehicleId} AND type = 'Idle' ORDER BY begin_time`.execute(rig.s.database.db);
    expect(flags.rows.map((r) => r.announced)).toEqual([false, true, false, true]);
  });

  it('announces, once, an alarm the edit finds still open: its vehicle breaks the new policy now', async () => {
    // Ten minutes at 40 km/h; then the speed limit is lowered under it while the vehicle drives on.
    const day = new ScriptedDay(START + 86_400_000, HOME).step(600, 40);
    const phone = demoTerminal(18);
    const vehicleId = await rig.vehicleOf(phone);
    await rig.send(phone, day.reports);
    const hn = await rig.s.memberToken('HN', 'administrator');
    const policy = { name: 'p-OverSpeed-lowered', alarmType: 'OverSpeed', threshold: 30, durationMinutes: 0 };
    expect((await rig.s.call(hn, 'PUT', '/api/vehicle/policy', policy)).status).toBe(201);
    const heardBefore = rig.raised.length;
    const overspeeds = () => rig.raised.slice(heardBefore).filter((a) => a.vehicleId === vehicleId && a.type === 'OverSpeed');

    // Driving on: the alarm begins in history (its first report over 30 km/h) and is announced now.
    let from = day.time;
    day.step(60, 40);
    await rig.send(
      phone,
      day.reports.filter((r) => (r.time as number) >= from),
    );
    const open = await sql<{ id: number; begin: Date; end: Date | null; announced: boolean }>`
      SELECT id, begin_time AS begin, end_time AS end, announced FROM alarm WHERE vehicle_id = ${vehicleId} AND type = 'OverSpeed'`.execute(
      rig.s.database.db,
    );
    expect(open.rows).toHaveLength(1);
    expect(new Date(open.rows[0].begin).getTime()).toBeLessThan(from);
    expect(open.rows[0]).toMatchObject({ end: null, announced: true });
    expect(overspeeds().map((a) => a.id)).toEqual([open.rows[0].id]);

    // More of the same drive announces nothing more; a stop and a new drive is a new alarm, announced.
    from = day.time;
    day.step(60, 40).step(60, 0, { acc: true }).step(60, 40);
    await rig.send(
      phone,
      day.reports.filter((r) => (r.time as number) >= from),
    );
    const ids = await sql<{ id: number }>`
      SELECT id FROM alarm WHERE vehicle_id = ${vehicleId} AND type = 'OverSpeed' ORDER BY begin_time`.execute(rig.s.database.db);
    expect(ids.rows).toHaveLength(2);
    expect(overspeeds().map((a) => a.id)).toEqual(ids.rows.map((r) => r.id));
  });
});
