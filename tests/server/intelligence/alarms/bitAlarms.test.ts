import { sql } from 'kysely';
import type { LocationInput } from '../../../../server/telematics/jt808/codec';
import { BACKENDS } from '../../../helpers/testServer';
import { demoTerminal } from '../harness';
import { startAlarmRig, type AlarmRig } from './rig';

const T0 = Date.parse('2026-11-20T02:00:00Z');
const CRASH = 1 << 29;
const OVERSPEED = 1 << 1;

const report = (minute: number, alarm: number): LocationInput => ({ time: T0 + minute * 60_000, latitude: 31.2, longitude: 121.5, speed: 40, alarm, status: { accOn: true, fixed: true } });

/**
 * The alarm word's own alarms are raised from the committed batch, with no derivation pass at all,
 * and the pass that comes later finds the same alarm (same id, announced once).
 */
describe.each(BACKENDS)('alarms of the alarm word, ahead of the derivation pass, on %s', (backend) => {
  let rig: AlarmRig;
  beforeAll(async () => {
    rig = await startAlarmRig(backend);
  });
  afterAll(() => rig.close());

  const alarmsOf = async (vehicleId: number) =>
    (
      await sql<{ id: number; type: string; begin_time: Date; end_time: Date | null }>`
        SELECT id, type, begin_time, end_time FROM alarm WHERE vehicle_id = ${vehicleId} ORDER BY begin_time, type`.execute(rig.s.database.db)
    ).rows.map((a) => ({ id: a.id, type: a.type, begin: (new Date(a.begin_time).getTime() - T0) / 60_000, end: a.end_time === null ? null : (new Date(a.end_time).getTime() - T0) / 60_000 }));

  it('raises a collision from the batch alone, once, and the pass keeps its id', async () => {
    const phone = demoTerminal(9);
    const vehicleId = await rig.vehicleOf(phone);
    // No derivation pass from here on: only the batch path can raise anything.
    await rig.derivation.close();
    const t = rig.terminal(phone);
    await t.connect();
    for (const r of [report(0, 0), report(1, CRASH | OVERSPEED), report(2, CRASH), report(3, 0), report(4, CRASH)]) t.report(r);
    await t.drain(60_000);
    await rig.gateway.writer.flush();
    await rig.engine.watched();
    // The collisions at minutes 1 and 4 (not the continuation at 2), the first closed where its
    // bit cleared, at 3; and the speeding bit's OverSpeed (durationAlarms.ts), closed at 2.
    const ahead = await alarmsOf(vehicleId);
    expect(ahead).toEqual([
      { id: expect.any(Number), type: 'Crash', begin: 1, end: 3 },
      { id: expect.any(Number), type: 'OverSpeed', begin: 1, end: 2 },
      { id: expect.any(Number), type: 'Crash', begin: 4, end: null },
    ]);
    const announced = [
      ['Crash', 1, ahead[0].id],
      ['Crash', 4, ahead[2].id],
      ['OverSpeed', 1, ahead[1].id],
    ];
    expect(rig.raised.filter((a) => a.vehicleId === vehicleId).map((a) => [a.type, (a.begin - T0) / 60_000, a.id])).toEqual(announced);
    // The pass (here a rebuild) finds the same three: same ids, announced once.
    await rig.derivation.pipeline.rebuild(vehicleId, { from: -Infinity, to: Infinity });
    expect(await alarmsOf(vehicleId)).toEqual(ahead);
    expect(rig.raised.filter((a) => a.vehicleId === vehicleId).map((a) => [a.type, (a.begin - T0) / 60_000, a.id])).toEqual(announced);
  });
});
