import { sql } from 'kysely';
import type { LocationInput } from '../../../../server/telematics/jt808/codec';
import { BACKENDS } from '../../../helpers/testServer';
import { demoTerminal } from '../harness';
import { startAlarmRig, type AlarmRig } from './rig';

const T0 = Date.parse('2026-11-20T02:00:00Z');
const CRASH = 1 << 29;
const OVERSPEED = 1 << 1;
const FATIGUE = 1 << 2;
const SKEWING = 1 << 23;
const FUEL = 1 << 25;
const TRAIL = 1 << 28;

const report = (minute: number, alarm: number, accOn = true): LocationInput => ({
  time: T0 + minute * 60_000,
  latitude: 31.2,
  longitude: 121.5,
  speed: accOn ? 40 : 0,
  alarm,
  status: { accOn, fixed: true },
});

/**
 * The alarm word's own alarms and the OBD alarm records' come from the derivation pass like every
 * other alarm (no path beside it): each announced once, and a rebuild finds the same alarms (same
 * ids) and announces nothing again.
 */
describe.each(BACKENDS)('alarms of the alarm word, from the derivation pass, on %s', (backend) => {
  let rig: AlarmRig;
  beforeAll(async () => {
    rig = await startAlarmRig(backend, { obdAlarmTypes: new Map([[0x11, 'PullOut']]) });
  });
  afterAll(() => rig.close());

  const alarmsOf = async (vehicleId: number) =>
    (
      await sql<{ id: number; type: string; begin_time: Date; end_time: Date | null }>`
        SELECT id, type, begin_time, end_time FROM alarm WHERE vehicle_id = ${vehicleId} ORDER BY begin_time, type`.execute(
        rig.s.database.db,
      )
    ).rows.map((a) => ({
      id: a.id,
      type: a.type,
      begin: (new Date(a.begin_time).getTime() - T0) / 60_000,
      end: a.end_time === null ? null : (new Date(a.end_time).getTime() - T0) / 60_000,
    }));
  // In the order alarmsOf lists them (begin, type).
  const announced = (vehicleId: number) =>
    rig.raised
      .filter((a) => a.vehicleId === vehicleId)
      .map((a) => [a.type, (a.begin - T0) / 60_000, a.id] as const)
      .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));

  it('raises a collision once per run of its bit, and a rebuild keeps its id', async () => {
    const phone = demoTerminal(9);
    const vehicleId = await rig.vehicleOf(phone);
    await rig.send(phone, [report(0, 0), report(1, CRASH | OVERSPEED), report(2, CRASH), report(3, 0), report(4, CRASH)]);
    // The collisions at minutes 1 and 4 (not the continuation at 2), the first closed where its
    // bit cleared, at 3; and the speeding bit's OverSpeed, closed at 2.
    const found = await alarmsOf(vehicleId);
    expect(found).toEqual([
      { id: expect.any(Number), type: 'Crash', begin: 1, end: 3 },
      { id: expect.any(Number), type: 'OverSpeed', begin: 1, end: 2 },
      { id: expect.any(Number), type: 'Crash', begin: 4, end: null },
    ]);
    expect(announced(vehicleId)).toEqual(found.map((a) => [a.type, a.begin, a.id]));
    await rig.derivation.pipeline.rebuild(vehicleId, { from: -Infinity, to: Infinity });
    expect(await alarmsOf(vehicleId)).toEqual(found);
    expect(announced(vehicleId)).toEqual(found.map((a) => [a.type, a.begin, a.id]));
  });

  it('raises the towing, fatigue and fuel bits where no policy of their type is in force, and one FuelDrain with the drains where one is', async () => {
    // A FuelDrain policy for HN only: there the fuel bit is one alarm with the drains the trips find.
    // The route bit is never one with the policy's (a task's Skewing has the task as its subject).
    const hn = await rig.s.memberToken('HN', 'administrator');
    const policy = await rig.s.call(hn, 'PUT', '/api/vehicle/policy', {
      name: 'p-FuelDrain',
      alarmType: 'FuelDrain',
      threshold: null,
      durationMinutes: null,
    });
    expect(policy.status).toBe(201);
    const free = await rig.vehicleOf(demoTerminal(10)); // HD: no policy at all
    const policed = await rig.vehicleOf(demoTerminal(19)); // HN
    await rig.send(demoTerminal(10), [
      report(0, 0, false),
      report(1, TRAIL, false),
      report(2, TRAIL, false),
      report(3, 0),
      report(4, FATIGUE | FUEL),
      report(5, 0),
    ]);
    await rig.send(demoTerminal(19), [report(0, 0), report(1, FUEL | FATIGUE | SKEWING), report(2, 0)]);
    const freeFound = await alarmsOf(free);
    expect(freeFound).toEqual([
      { id: expect.any(Number), type: 'Trail', begin: 1, end: 3 },
      { id: expect.any(Number), type: 'Fatigue', begin: 4, end: 5 },
      { id: expect.any(Number), type: 'FuelDrain', begin: 4, end: 5 },
    ]);
    const policedFound = await alarmsOf(policed);
    expect(policedFound).toEqual([
      { id: expect.any(Number), type: 'Fatigue', begin: 1, end: 2 },
      { id: expect.any(Number), type: 'FuelDrain', begin: 1, end: 2 },
      { id: expect.any(Number), type: 'Skewing', begin: 1, end: 2 },
    ]);
    for (const vehicleId of [free, policed]) await rig.derivation.pipeline.rebuild(vehicleId, { from: -Infinity, to: Infinity });
    expect(await alarmsOf(free)).toEqual(freeFound);
    expect(await alarmsOf(policed)).toEqual(policedFound);
    expect(announced(free)).toEqual(freeFound.map((a) => [a.type, a.begin, a.id]));
    expect(announced(policed)).toEqual(policedFound.map((a) => [a.type, a.begin, a.id]));
  });

  it('raises the alarms of an OBD alarm record, each item once, archived records included, and a rebuild keeps their ids', async () => {
    const phone = demoTerminal(11);
    const vehicleId = await rig.vehicleOf(phone);
    const position = { status: 0, latitude: 31.2, longitude: 121.5 };
    await rig.send(phone, [report(0, 0)]);
    // The operator mapped item 0x11 to PullOut; item 7 is kept as sent. The second record is archived (a blind-area upload).
    await rig.sendObd(phone, [
      {
        time: T0 + 60_000,
        subtype: 3,
        alarms: [
          { id: 0x11, hex: '' },
          { id: 7, hex: '0a' },
        ],
        position,
      },
      { time: T0 + 120_000, subtype: 3, alarms: [{ id: 7, hex: '' }], position, archive: true },
    ]);
    const rows = async () =>
      (
        await sql<{ id: number; type: string; subject: string; begin_time: Date; end_time: Date }>`
        SELECT id, type, subject, begin_time, end_time FROM alarm WHERE vehicle_id = ${vehicleId} ORDER BY begin_time, subject`.execute(
          rig.s.database.db,
        )
      ).rows.map((a) => ({
        id: a.id,
        type: a.type,
        subject: a.subject,
        begin: (new Date(a.begin_time).getTime() - T0) / 60_000,
        end: (new Date(a.end_time).getTime() - T0) / 60_000,
      }));
    const found = await rows();
    expect(found).toEqual([
      { id: expect.any(Number), type: 'PullOut', subject: 'obd:17', begin: 1, end: 1 },
      { id: expect.any(Number), type: 'ObdAlarm', subject: 'obd:7', begin: 1, end: 1 },
      { id: expect.any(Number), type: 'ObdAlarm', subject: 'obd:7', begin: 2, end: 2 },
    ]);
    const ids = (list: Array<{ id: number }>) => list.map((a) => a.id).sort((a, b) => a - b);
    const announcedIds = () => ids(rig.raised.filter((a) => a.vehicleId === vehicleId));
    expect(announcedIds()).toEqual(ids(found));
    await rig.derivation.pipeline.rebuild(vehicleId, { from: -Infinity, to: Infinity });
    expect(await rows()).toEqual(found);
    expect(announcedIds()).toEqual(ids(found));
  });
});
