import { sql } from 'kysely';
import { behaviourDeriver } from '../../../../server/intelligence/behaviour/deriver';
import type { LocationInput } from '../../../../server/telematics/jt808/codec';
import type { AdasInput, BsdInput, DsmInput, TpmsInput } from '../../../../server/telematics/jt808/messages/activeSafety';
import { ADMIN_PASSWORD, BACKENDS } from '../../../helpers/testServer';
import { demoTerminal } from '../harness';
import { startAlarmRig, type AlarmRig } from './rig';

const T0 = Date.parse('2026-11-20T02:00:00Z');
const at = (minute: number) => T0 + minute * 60_000;

/** The tail every item carries, at minute `m`, with identification sequence `seq`. */
const tail = (m: number, seq: number, terminalId = 'T000009') => ({
  speed: 60,
  altitude: 5,
  latitude: 31.2,
  longitude: 121.5,
  time: new Date(at(m)).toISOString(),
  vehicleStatus: 1,
  identification: { terminalId, timeBcd: bcd(at(m)), sequence: seq, attachments: 2 },
});

/** YYMMDDhhmmss at GMT+8, as the terminal's clock writes it. */
function bcd(ms: number): string {
  const d = new Date(ms + 8 * 3_600_000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getUTCFullYear() % 100)}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}`;
}

const adas = (m: number, type: number, flag = 1, level = 2, seq = 0): AdasInput => ({
  alarmId: 100 + m,
  flag,
  type,
  level,
  frontSpeed: 55,
  frontDistance: 12,
  departure: type === 2 ? 2 : 0,
  roadSign: 0,
  roadSignValue: 0,
  ...tail(m, seq),
});
const dsm = (m: number, type: number, level = 1): DsmInput => ({
  alarmId: 200 + m,
  flag: 0,
  type,
  level,
  fatigueDegree: type === 1 ? 7 : 0,
  ...tail(m, 0),
});
const tpms = (m: number): TpmsInput => ({
  alarmId: 300 + m,
  flag: 1,
  ...tail(m, 0),
  tyres: [
    { position: 0, alarmBits: 1, pressureKpa: 800, temperatureC: 30, batteryPct: 90 },
    { position: 5, alarmBits: 0b100, pressureKpa: 400, temperatureC: 31, batteryPct: 88 },
  ],
});
const bsd = (m: number): BsdInput => ({ alarmId: 400 + m, flag: 1, type: 3, ...tail(m, 0) });

const report = (m: number, extras: LocationInput['extras'] = {}): LocationInput => ({
  time: at(m),
  latitude: 31.2 + m * 1e-3,
  longitude: 121.5,
  speed: 60,
  status: { accOn: true, fixed: true },
  extras: { mileageKm: 1000 + m, ...extras },
});

interface Row {
  id: number;
  type: string;
  category: string;
  level: string;
  subject: string;
  begin: number;
  detail: { sources: string[]; safety: Record<string, unknown> };
}

/**
 * Active safety alarms come from the derivation pass like every other alarm: each item the terminal
 * starts or reports whole is one alarm of its type in the safety category, at the terminal's level,
 * with its identification; events and end flags raise nothing; a rebuild keeps their ids.
 */
describe.each(BACKENDS)('active safety alarms, from the derivation pass, on %s', (backend) => {
  let rig: AlarmRig;
  beforeAll(async () => {
    rig = await startAlarmRig(backend, { extraDerivers: [behaviourDeriver()] });
  });
  afterAll(() => rig.close());

  const alarmsOf = async (vehicleId: number): Promise<Row[]> =>
    (
      await sql<Omit<Row, 'begin'> & { begin_time: Date }>`
        SELECT id, type, category, level, subject, begin_time, detail FROM alarm WHERE vehicle_id = ${vehicleId} ORDER BY begin_time, type, subject`.execute(
        rig.s.database.db,
      )
    ).rows.map(({ begin_time, ...a }) => ({ ...a, begin: (new Date(begin_time).getTime() - T0) / 60_000 }));

  it('raises ADAS, DSM, TPMS and BSD alarms once each, with level, detail and identification', async () => {
    const phone = demoTerminal(9);
    const vehicleId = await rig.vehicleOf(phone);
    await rig.send(phone, [
      report(0),
      report(1, { adas: adas(1, 1) }),
      // The same identification again (a terminal repeating its item): one alarm.
      report(2, { adas: { ...adas(1, 1), time: new Date(at(2)).toISOString() } }),
      // Lane departure, level 1; then its end flag, and a road sign recognised (an event): nothing.
      report(3, { adas: adas(3, 2, 1, 1) }),
      report(4, { adas: adas(3, 2, 2, 1) }),
      report(5, { adas: adas(5, 0x10, 0) }),
      report(6, { dsm: dsm(6, 2) }),
      report(7, { dsm: dsm(7, 1, 2) }),
      report(8, { tpms: tpms(8) }),
      report(9, { bsd: bsd(9) }),
      // Two forward collisions in one second, told apart by their sequence.
      report(10, { adas: adas(10, 1, 1, 2, 0) }),
      report(10.5, { adas: { ...adas(10, 1, 1, 2, 1), time: new Date(at(10)).toISOString() } }),
      report(11),
    ]);
    const found = await alarmsOf(vehicleId);
    expect(found.map((a) => [a.type, a.begin, a.category, a.level])).toEqual([
      ['ForwardCollision', 1, 'safety', 'high'],
      ['LaneDeparture', 3, 'safety', 'medium'],
      ['PhoneCall', 6, 'safety', 'medium'],
      ['DriverFatigue', 7, 'safety', 'high'],
      ['TyreAlarm', 8, 'safety', 'medium'],
      ['BlindSpot', 9, 'safety', 'medium'],
      ['ForwardCollision', 10, 'safety', 'high'],
      ['ForwardCollision', 10.5, 'safety', 'high'],
    ]);
    const key = (m: number, seq = 0) => `T000009-${bcd(at(m))}-${seq}`;
    expect(found[0]).toMatchObject({
      subject: key(1),
      detail: {
        sources: ['safety:adas'],
        safety: {
          key: key(1),
          alarmId: 101,
          terminalLevel: 2,
          attachments: 2,
          standard: 'jsatl12',
          frontSpeedKmh: 55,
          frontDistanceS: 1.2,
        },
      },
    });
    expect(found[1].detail.safety).toMatchObject({ departure: 'right', terminalLevel: 1 });
    expect(found[3].detail.safety).toMatchObject({ fatigueDegree: 7 });
    // Only the tyre in alarm (position 5, low pressure); position 0's bit is the timed report.
    expect(found[4]).toMatchObject({
      subject: `${key(8)}:tyre5`,
      detail: { safety: { tyre: 5, alarms: ['lowPressure'], pressureKpa: 400 } },
    });
    expect(found[5].detail.safety).toMatchObject({ side: 'rightRear' });
    expect(found[6].subject).toBe(key(10, 0));
    expect(found[7].subject).toBe(key(10, 1));
    // Each announced once; a rebuild finds the same alarms with the same ids and announces nothing.
    const announced = rig.raised.filter((a) => a.vehicleId === vehicleId).map((a) => a.id);
    expect(announced.sort()).toEqual(found.map((a) => a.id).sort());
    await rig.derivation.pipeline.rebuild(vehicleId, { from: -Infinity, to: Infinity });
    expect(await alarmsOf(vehicleId)).toEqual(found);
    expect(rig.raised.filter((a) => a.vehicleId === vehicleId)).toHaveLength(found.length);
  });

  it('weighs the driver monitor’s phone call and fatigue in the safety score’s events, each once', async () => {
    const phone = demoTerminal(10);
    const vehicleId = await rig.vehicleOf(phone);
    await rig.send(phone, [
      report(0),
      // The phone call with the alarm word's danger bit (3) in the same report: one distraction.
      { ...report(1, { dsm: dsm(1, 2) }), alarm: { active: ['danger'] } },
      report(2, { dsm: dsm(2, 3) }),
      report(3, { dsm: dsm(3, 1) }),
      report(4),
    ]);
    const events = await sql<{ kind: string; source: string; n: number }>`
      SELECT kind, source, sum(count)::int AS n FROM behaviour_event WHERE vehicle_id = ${vehicleId} AND source = 'alarm'
      GROUP BY kind, source ORDER BY kind`.execute(rig.s.database.db);
    expect(events.rows).toEqual([
      { kind: 'distraction', source: 'alarm', n: 2 },
      { kind: 'fatigue', source: 'alarm', n: 1 },
    ]);
  });

  it('lists them in the alarm centre under the safety category, labelled', async () => {
    const admin = await rig.s.login('admin', ADMIN_PASSWORD);
    const r = await rig.s.call(admin, 'POST', '/api/vehicle/alarm/query', { criteria: { category: 'safety' }, pageIndex: 1, pageSize: 50 });
    expect(r.status).toBe(200);
    const types = new Set(r.body.data.map((a: { category: string; type: string }) => `${a.category}:${a.type}`));
    expect(types).toEqual(
      new Set(
        ['ForwardCollision', 'LaneDeparture', 'PhoneCall', 'DriverFatigue', 'TyreAlarm', 'BlindSpot', 'Smoking'].map((t) => `safety:${t}`),
      ),
    );
    // A notification rule may name an active safety type; a type the server does not know is refused.
    const rule = { name: 'phone use', channel: 'platform', enabled: true };
    expect((await rig.s.call(admin, 'POST', '/api/vehicle/notify', { ...rule, alarmType: 'PhoneCall' })).status).toBeLessThan(300);
    expect((await rig.s.call(admin, 'POST', '/api/vehicle/notify', { ...rule, name: 'x', alarmType: 'PhoneUse' })).status).toBe(400);
    // A category the server does not know is refused.
    expect(
      (await rig.s.call(admin, 'POST', '/api/vehicle/alarm/query', { criteria: { category: 'adas' }, pageIndex: 1, pageSize: 5 })).status,
    ).toBe(400);
  });
});
