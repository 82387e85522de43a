import { sql } from 'kysely';
import { BACKENDS } from '../../../helpers/testServer';
import { demoTerminal } from '../../telematics/gateway/harness';
import { startAlarmRig, type AlarmRig } from './rig';
import { east, ScriptedDay } from './scriptedDay';

const START = Date.parse('2026-11-21T00:00:00Z');
const HOME = { latitude: 31.2, longitude: 121.4 };

/**
 * Trail's anchor is where the ignition went off, whatever window a pass reads: a tow fast enough
 * to be a trip of its own once made the trips' widening start a pass inside the parked run, where
 * the anchor was a report 40 m off. Derived live (a pass per report), at once, and rebuilt from
 * inside the tow, the vehicle has one towing, found at the same report and announced once.
 */
describe.each(BACKENDS)("Trail's anchor on %s", (backend) => {
  let rig: AlarmRig;
  beforeAll(async () => {
    rig = await startAlarmRig(backend);
    const hd = await rig.s.memberToken('HD', 'administrator');
    const r = await rig.s.call(hd, 'PUT', '/api/vehicle/policy', {
      name: 'p-Trail',
      alarmType: 'Trail',
      threshold: null,
      durationMinutes: null,
    });
    if (r.status !== 201) throw new Error(JSON.stringify(r.body));
  });
  afterAll(() => rig.close());

  const trails = async (vehicleId: number) =>
    (
      await sql<{
        begin: Date;
        end: Date | null;
      }>`SELECT begin_time AS begin, end_time AS "end" FROM alarm WHERE vehicle_id = ${vehicleId} AND type = 'Trail'`.execute(
        rig.s.database.db,
      )
    ).rows.map((r) => [new Date(r.begin).getTime(), r.end && new Date(r.end).getTime()]);
  const announced = (vehicleId: number) => rig.raised.filter((a) => a.vehicleId === vehicleId && a.type === 'Trail').map((a) => a.begin);

  it('is the same live, at once and rebuilt from inside the tow', async () => {
    const day = new ScriptedDay(START, HOME).step(60, 30);
    const parked = day.position;
    // Parked 25 minutes: the first report where it stopped, the others 40 m east of it.
    for (let i = 0; i < 50; i++) day.at(east(parked, i === 0 ? 0 : 40), 0, { acc: false, every: 30 });
    const towed = day.time;
    // Towed east at 40 km/h (111 m a report): 333 m from where it stopped at the third report,
    // 293 m from the reports 40 m east of it.
    day.jumpTo(parked).step(300, 40, { acc: false, heading: 90 }).step(600, 0, { acc: false, every: 60 });
    const beyond = towed + 30_000;

    const live = await rig.vehicleOf(demoTerminal(3));
    for (const r of day.reports) await rig.send(demoTerminal(3), [r]);
    const once = await rig.vehicleOf(demoTerminal(4));
    await rig.send(demoTerminal(4), day.reports);
    for (const v of [live, once]) {
      expect((await trails(v)).map(([begin]) => begin)).toEqual([beyond]);
      expect(announced(v)).toEqual([beyond]);
    }
    const [whole] = await trails(once);
    await rig.derivation.pipeline.rebuild(once, { from: beyond, to: Infinity });
    expect(await trails(once)).toEqual([whole]);
    expect(announced(once)).toEqual([beyond]);
  }, 240_000);
});
