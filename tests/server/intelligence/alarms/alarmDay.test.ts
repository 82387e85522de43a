import { sql } from 'kysely';
import { BACKENDS } from '../../../helpers/testServer';
import { openSocket } from '../../../helpers/wsClient';
import { demoTerminal, until } from '../../telematics/gateway/harness';
import { startAlarmRig, type AlarmRig } from './rig';
import { east, ScriptedDay } from './scriptedDay';

const START = Date.parse('2026-11-20T00:00:00Z');
const HOME = { latitude: 31.2, longitude: 121.4 };

interface Fences {
  route: { center: { latitude: number; longitude: number }; radius: number };
  border: { center: { latitude: number; longitude: number }; radius: number };
}

/**
 * One scripted day that should raise each type exactly once, with the traps beside them: a
 * cranking dip, a red light, a short burst over the limit, and jitter along a fence border.
 */
function scriptedDay(): { reports: ScriptedDay['reports']; fences: Fences } {
  const d = new ScriptedDay(START, HOME);
  d.step(70 * 60, 0, { acc: false, fuelL: 200 }); // parked 70 min: StopLongTime (policy 60 min)
  d.step(10, 0, { acc: true, volts: 10.5 }); // ignition: FireOn; a cranking dip is not Low
  d.step(50, 0, { acc: true, volts: 13.8 });
  d.step(10 * 60, 50, { heading: 90, volts: 13.8 });
  d.step(90, 0, { acc: true }); // a red light is not idling
  const routeCenter = east(d.position, 1500);
  d.step(5 * 60, 50); // through the route fence (300 m radius): in, then out
  d.step(20, 115); // a short burst over the limit: under the policy's minute
  d.step(60, 60);
  d.step(2 * 60, 120); // OverSpeed
  d.step(2 * 60, 50, { volts: 11.0 }); // Low: 2 min under 11.8 V
  d.step(30, 50, { volts: 13.8 });
  d.step(10, 50, { alarmBits: [29] }); // Crash (collision bit)
  d.step(60, 50, { dtcs: ['P0301'] }); // Fault, matched to the expert library
  d.step(30, 50, { dtcs: [] });
  d.step(30, 50, { alarmBits: [8] }); // PullOut, then Insert when power returns
  d.step(60, 50);
  d.step(5 * 60, 0, { acc: true }); // Idle (policy 3 min)
  d.step(60, 40, { heading: 90 });
  // Jitter along the border fence's edge (200 m radius, centred 200 m east): never 30 s inside.
  const borderCenter = east(d.position, 200);
  const edge = d.position;
  for (let i = 0; i < 12; i++) d.at(east(edge, i % 2 ? 15 : -15), 0, { acc: true });
  d.step(120, 40, { heading: 270 });
  d.step(120, 0, { acc: false }); // ignition off
  d.step(3 * 60, 15, { acc: false }); // towed 750 m: Trail
  d.step(8 * 60, 0, { acc: false }); // left standing: the towing ends
  d.step(4 * 60, 0, { acc: false, fuelL: 150 }); // 50 L gone while parked: FuelDrain
  return { reports: d.reports, fences: { route: { center: routeCenter, radius: 300 }, border: { center: borderCenter, radius: 200 } } };
}

const EXPECTED = [
  'Crash',
  'Fault',
  'FenceIn',
  'FenceOut',
  'FireOn',
  'FuelDrain',
  'Idle',
  'Insert',
  'Low',
  'OverSpeed',
  'PullOut',
  'StopLongTime',
  'Trail',
];

interface AlarmRow {
  type: string;
  subject: string;
  begin: number;
  end: number | null;
  value: number | null;
  level: string;
  fence_id: number | null;
  detail: Record<string, unknown> | null;
}

describe.each(BACKENDS)('alarm engine over a scripted day through the gateway on %s', (backend) => {
  let rig: AlarmRig;
  let hd: string;
  const day = scriptedDay();
  const alarmsOf = async (vehicleId: number): Promise<AlarmRow[]> =>
    (
      await sql<AlarmRow & { begin: Date; end: Date | null }>`
        SELECT type, subject, begin_time AS begin, end_time AS "end", value, level, fence_id, detail FROM alarm
        WHERE vehicle_id = ${vehicleId} ORDER BY begin_time, type, subject`.execute(rig.s.database.db)
    ).rows.map((r) => ({
      ...r,
      begin: new Date(r.begin).getTime(),
      end: r.end === null ? null : new Date(r.end).getTime(),
      detail: typeof r.detail === 'string' ? JSON.parse(r.detail) : r.detail,
    }));

  beforeAll(async () => {
    // The operator's map of their dongles' OBD alarm items (no reference names these ids).
    rig = await startAlarmRig(backend, {
      obdAlarmTypes: new Map([
        [0x11, 'PullOut'],
        [0x12, 'Insert'],
        [0x05, 'Crash'],
      ]),
    });
    hd = await rig.s.memberToken('HD', 'administrator');
    const put = async (url: string, body: object) => {
      const r = await rig.s.call(hd, 'PUT', url, body);
      if (r.status !== 201 && r.status !== 200) throw new Error(`${url}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    };
    const policy = (alarmType: string, threshold: number | null, durationMinutes: number | null) =>
      put('/api/vehicle/policy', { name: `p-${alarmType}`, alarmType, threshold, durationMinutes });
    await policy('FireOn', null, null);
    await policy('Idle', null, 3);
    await policy('StopLongTime', null, 60);
    await policy('OverSpeed', 100, 1);
    await policy('Low', 11.8, 1);
    await policy('Trail', 300, null);
    await policy('Fault', null, null);
    await policy('FuelDrain', null, null);
    for (const [name, f] of Object.entries(day.fences))
      await put('/api/vehicle/fence', {
        name,
        fenceType: 'circle',
        geometry: { center: [f.center.longitude, f.center.latitude], radius: f.radius },
        dwellSeconds: 30,
        speedLimit: 60,
      });
    const expert = await rig.s.call(await rig.s.login('admin', 'Admin2026x'), 'POST', '/api/vehicle/expertFault', {
      spn: 5301,
      fmi: 2,
      dtcCode: 'P0301',
      name: '1 缸失火',
      unit: '发动机',
      level: 'high',
      description: '检测到 1 缸失火',
      resolvent: '检查点火线圈与火花塞',
      cause: '点火线圈老化',
      maintenanceMeasures: '更换点火线圈',
    });
    if (expert.status !== 201) throw new Error(JSON.stringify(expert.body));
  });
  afterAll(() => rig.close());

  it('raises each type exactly once where the day says, and nothing at the traps', async () => {
    await rig.send(demoTerminal(1), day.reports);
    const alarms = await alarmsOf(await rig.vehicleOf(demoTerminal(1)));
    expect(alarms.map((a) => a.type).sort()).toEqual(EXPECTED);
    const byType = Object.fromEntries(alarms.map((a) => [a.type, a]));
    // Where and how long: the stop lasted the 70 parked minutes plus the minute of warming up.
    expect(byType.StopLongTime).toMatchObject({ begin: START, end: START + 71 * 60_000, value: 71 });
    expect(byType.OverSpeed.value).toBe(120);
    expect(byType.Low.value).toBe(11);
    expect(byType.Idle.value).toBeGreaterThanOrEqual(4);
    expect(byType.Fault).toMatchObject({
      subject: 'dtc:P0301',
      level: 'high',
      detail: {
        code: 'P0301',
        name: '1 缸失火',
        resolvent: '检查点火线圈与火花塞',
        cause: '点火线圈老化',
        maintenanceMeasures: '更换点火线圈',
      },
    });
    expect(byType.Fault.end! - byType.Fault.begin).toBe(60_000);
    expect(byType.FenceIn.fence_id).toBe(byType.FenceOut.fence_id);
    expect(byType.FenceIn.begin).toBeLessThan(byType.FenceOut.begin);
    expect(byType.Insert.begin).toBe(byType.PullOut.end);
    expect(byType.Trail.end).not.toBeNull();
    expect(byType.FuelDrain.value).toBeCloseTo(50, 0);
    // Every alarm was announced once, as it was created.
    const vehicleId = await rig.vehicleOf(demoTerminal(1));
    expect(
      rig.raised
        .filter((a) => a.vehicleId === vehicleId)
        .map((a) => a.type)
        .sort(),
    ).toEqual(EXPECTED);
  });

  it('gives the same alarms when the morning arrives last, as a blind-area upload', async () => {
    const a = await alarmsOf(await rig.vehicleOf(demoTerminal(1)));
    const split = Math.floor(day.reports.length / 2);
    await rig.send(demoTerminal(2), day.reports.slice(split));
    await rig.send(demoTerminal(2), day.reports.slice(0, split), { blind: true });
    const b = await alarmsOf(await rig.vehicleOf(demoTerminal(2)));
    expect(b).toEqual(a);
    // Deriving everything again changes nothing.
    await rig.derivation.pipeline.rebuild(await rig.vehicleOf(demoTerminal(2)), { from: -Infinity, to: Infinity });
    expect(await alarmsOf(await rig.vehicleOf(demoTerminal(2)))).toEqual(a);
  });

  it('raises OfflineLongTime on the clock with no report at all, and closes it when the terminal reports again', async () => {
    await rig.s.call(hd, 'PUT', '/api/vehicle/policy', { name: 'p-offline', alarmType: 'OfflineLongTime', durationMinutes: 120 });
    const phone = demoTerminal(3);
    const vehicleId = await rig.vehicleOf(phone);
    const now = Date.now();
    await rig.send(phone, [
      { time: now, latitude: HOME.latitude, longitude: HOME.longitude, speed: 0, status: { accOn: false, fixed: true } },
    ]);
    const offline = async () => (await alarmsOf(vehicleId)).filter((x) => x.type === 'OfflineLongTime');
    // The clock ticks every 100 ms: nothing while the silence is shorter than the policy.
    rig.clockAhead = 119 * 60_000;
    await new Promise((r) => setTimeout(r, 300));
    expect(await offline()).toEqual([]);
    rig.clockAhead = 121 * 60_000;
    // The row is committed before the engine announces it: wait for both, as a subscriber would.
    await until(
      async () => (await offline()).length === 1 && rig.raised.some((x) => x.type === 'OfflineLongTime' && x.vehicleId === vehicleId),
    );
    const [open] = await offline();
    expect(open.end).toBeNull();
    expect(rig.raised.filter((x) => x.type === 'OfflineLongTime' && x.vehicleId === vehicleId)).toHaveLength(1);
    // More ticks open nothing new.
    await new Promise((r) => setTimeout(r, 300));
    expect(await offline()).toHaveLength(1);
    rig.clockAhead = 0;
    await rig.send(phone, [
      { time: now + 1000, latitude: HOME.latitude, longitude: HOME.longitude, speed: 0, status: { accOn: false, fixed: true } },
    ]);
    const [closed] = await offline();
    expect(closed.end).not.toBeNull();
    expect(closed.end!).toBeGreaterThan(closed.begin);
  });

  /**
   * Live reports (made as they are sent, in whole seconds as the protocol carries them): three
   * minutes driving, then five parked with the ignition off, after which the terminal goes quiet.
   */
  const driveThenPark = (at: { latitude: number; longitude: number }) => {
    const day = new ScriptedDay(Math.floor(Date.now() / 1000) * 1000 - 8 * 60_000, at);
    day.step(3 * 60, 40);
    const parkedAt = day.time;
    day.step(5 * 60, 0, { acc: false });
    return { day, parkedAt };
  };
  const stopsOf = async (vehicleId: number) =>
    (
      await sql<{
        id: number;
        begin: Date;
        end: Date | null;
        value: number;
      }>`SELECT id, begin_time AS begin, end_time AS "end", value FROM alarm WHERE vehicle_id = ${vehicleId} AND type = 'StopLongTime'`.execute(
        rig.s.database.db,
      )
    ).rows.map((r) => ({
      ...r,
      begin: new Date(r.begin).getTime(),
      end: r.end === null ? null : new Date(r.end).getTime(),
    }));

  it('raises StopLongTime on the clock when a parked terminal goes quiet, keeps it through a rebuild, publishes it on the bus, and closes it when the vehicle moves', async () => {
    const phone = demoTerminal(5);
    const vehicleId = await rig.vehicleOf(phone);
    const { day: d, parkedAt } = driveThenPark({ latitude: 31.3, longitude: 121.5 });
    // The clock reads 55 minutes after parking.
    rig.clockAhead = parkedAt + 55 * 60_000 - Date.now();
    await rig.send(phone, d.reports);
    const stops = () => stopsOf(vehicleId);
    // The reports alone show a 5-minute stop; the clock (policy 60 min) says nothing at 55 minutes.
    await new Promise((r) => setTimeout(r, 300));
    expect(await stops()).toEqual([]);
    rig.clockAhead = parkedAt + 61 * 60_000 - Date.now();
    const announced = (list: Array<{ type: string; vehicleId: number }>) =>
      list.some((a) => a.type === 'StopLongTime' && a.vehicleId === vehicleId);
    await until(async () => (await stops()).length === 1 && announced(rig.raised) && announced(rig.published));
    const [open] = await stops();
    expect(open).toMatchObject({ begin: parkedAt, end: null, value: 61 });
    expect(rig.raised.filter((a) => a.type === 'StopLongTime' && a.vehicleId === vehicleId)).toHaveLength(1);
    expect(rig.published).toContainEqual({
      alarmId: open.id,
      vehicleId,
      orgPath: expect.stringMatching(/^\//),
      type: 'StopLongTime',
      at: parkedAt,
    });
    // Deriving the reports again keeps it (they still end in that stop), and later ticks add nothing.
    await rig.derivation.pipeline.rebuild(vehicleId, { from: -Infinity, to: Infinity });
    await new Promise((r) => setTimeout(r, 300));
    expect(await stops()).toEqual([open]);
    // It moves 90 minutes after parking (by the clock the test moved on): the same alarm closes there.
    const moving = new ScriptedDay(parkedAt + 90 * 60_000, d.position).step(60, 40).reports;
    await rig.send(phone, moving);
    rig.clockAhead = 0;
    expect(await stops()).toEqual([{ ...open, end: parkedAt + 90 * 60_000, value: 90 }]);
  });

  it("removes the clock's StopLongTime once a blind-area upload shows the vehicle moved during that stop", async () => {
    const phone = demoTerminal(7);
    const vehicleId = await rig.vehicleOf(phone);
    const { day: d, parkedAt } = driveThenPark({ latitude: 31.35, longitude: 121.55 });
    // The clock reads 61 minutes after parking: the clock's alarm, fired at 60, past the last report.
    rig.clockAhead = parkedAt + 61 * 60_000 - Date.now();
    await rig.send(phone, d.reports);
    const stops = () => stopsOf(vehicleId);
    await until(async () => (await stops()).length === 1);
    // The terminal was out of coverage: its upload shows it drove off 20 minutes after parking and
    // parked again, its last report at 23 minutes (before the alarm fired). No pass could have
    // found that alarm, yet the reports no longer support it: it goes.
    const upload = new ScriptedDay(parkedAt + 20 * 60_000, d.position).step(120, 40).step(60, 0, { acc: false }).reports;
    try {
      await rig.send(phone, upload, { blind: true });
      expect(await stops()).toEqual([]);
    } finally {
      rig.clockAhead = 0;
    }
  });

  it('turns the OBD alarm items the operator mapped into PullOut, Insert and Crash, and keeps the others as OBD alarms', async () => {
    const phone = demoTerminal(6);
    const t0 = Math.floor(Date.now() / 1000) * 1000 - 10 * 60_000;
    const position = { status: 0, latitude: 31.25, longitude: 121.45 };
    await rig.send(phone, new ScriptedDay(t0, { latitude: 31.25, longitude: 121.45 }).step(5 * 60, 30).reports);
    await rig.sendObd(phone, [
      { time: t0 + 60_000, subtype: 3, alarms: [{ id: 0x11, hex: '' }], position },
      { time: t0 + 120_000, subtype: 3, alarms: [{ id: 0x12, hex: '' }], position },
      {
        time: t0 + 180_000,
        subtype: 3,
        alarms: [
          { id: 0x05, hex: '01' },
          { id: 0x07, hex: '' },
        ],
        position,
      },
    ]);
    const rows = (await alarmsOf(await rig.vehicleOf(phone))).map((a) => [a.type, a.subject, a.begin - t0]);
    expect(rows).toEqual([
      ['PullOut', 'obd:17', 60_000],
      ['Insert', 'obd:18', 120_000],
      ['Crash', 'obd:5', 180_000],
      ['ObdAlarm', 'obd:7', 180_000],
    ]);
  });

  it('delivers each new alarm once over the live WebSocket, to members whose subtree holds the vehicle', async () => {
    // A console rule for collisions at the root: every member whose scope holds the vehicle hears it.
    await sql`INSERT INTO notify (org_id, name, alarm_type, channel) SELECT id, 'crash to console', 'Crash', 'platform' FROM organisation WHERE parent_id IS NULL`.execute(
      rig.s.database.db,
    );
    const ws = rig.httpUrl!.replace('http', 'ws') + '/api/vehicle/live';
    const sh = await openSocket(`${ws}?token=${await rig.s.memberToken('HD-SH', 'orgUser')}`);
    const hn = await openSocket(`${ws}?token=${await rig.s.memberToken('HN', 'orgUser')}`);
    await sh.until((m) => m.some((x) => x.type === 'hello'));
    await hn.until((m) => m.some((x) => x.type === 'hello'));
    const phone = demoTerminal(4);
    const t0 = Date.now() - 60_000;
    const at = (i: number, bits: number) => ({
      time: t0 + i * 10_000,
      latitude: HOME.latitude,
      longitude: HOME.longitude,
      speed: 30,
      alarm: bits,
      status: { accOn: true, fixed: true },
    });
    await rig.send(phone, [at(0, 0), at(1, 1 << 29), at(2, 0)]);
    const alarmsOf = (m: typeof sh.messages) =>
      m.filter((x) => x.type === 'alarm').flatMap((x) => x.items as Array<{ type: string; vehicleId: number; licence: string }>);
    await sh.until((m) => alarmsOf(m).some((a) => a.type === 'Crash'));
    const vehicleId = await rig.vehicleOf(phone);
    expect(
      alarmsOf(sh.messages)
        .filter((a) => a.vehicleId === vehicleId)
        .map((a) => a.type),
    ).toEqual(['Crash']);
    expect(alarmsOf(sh.messages)[0].licence).toMatch(/^沪A/);
    // Re-deriving the same reports announces nothing again; the other subtree heard nothing.
    await rig.derivation.pipeline.rebuild(vehicleId, { from: -Infinity, to: Infinity });
    await new Promise((r) => setTimeout(r, 200));
    expect(alarmsOf(sh.messages).filter((a) => a.vehicleId === vehicleId)).toHaveLength(1);
    expect(alarmsOf(hn.messages)).toEqual([]);
    sh.close();
    hn.close();
  });
});
