import { sql } from 'kysely';
import { alarmDeriver } from '../../../../server/intelligence/alarms/deriver';
import { routeDistance } from '../../../../server/intelligence/alarms/detectors/aiRules';
import { inside } from '../../../../server/intelligence/alarms/detectors/fences';
import type { LocationInput } from '../../../../server/telematics/jt808/codec';
import { BACKENDS } from '../../../helpers/testServer';
import { until } from '../../telematics/gateway/harness';
import { demoTerminal } from '../harness';
import { startAlarmRig, type AlarmRig } from './rig';
import { ScriptedDay } from './scriptedDay';

const START = Date.parse('2026-11-10T00:00:00Z');
const HOME = { latitude: 31.2, longitude: 121.4 };
const MINUTE = 60_000;
const DAY = 86_400_000;

/** A minute after the last of these reports. */
const minuteAfter = (reports: readonly LocationInput[]) => (reports[reports.length - 1].time as number) + MINUTE;

/**
 * The condition runs of a fence's speed limit, of Skewing and of the clock's stops are carried into
 * each pass like the policy's (carry.ts): the alarm deriver no longer reaches back to their begin,
 * a pass of one new report reads about its look-back and the trip it is in, and the alarms equal a
 * rebuild of all the vehicle's history.
 */
describe.each(BACKENDS)('condition runs carried into each pass, on %s', (backend) => {
  let rig: AlarmRig;
  let hd: string;
  beforeAll(async () => {
    rig = await startAlarmRig(backend);
    hd = await rig.s.memberToken('HD', 'administrator');
    for (const body of [
      { name: 'r-Skewing', alarmType: 'Skewing', threshold: 1000, durationMinutes: 5 },
      { name: 'r-Stop', alarmType: 'StopLongTime', threshold: null, durationMinutes: 60 },
      { name: 'r-OverSpeed', alarmType: 'OverSpeed', threshold: 100, durationMinutes: null },
    ]) {
      const r = await rig.s.call(hd, 'PUT', '/api/vehicle/policy', body);
      if (r.status !== 201) throw new Error(JSON.stringify(r.body));
    }
  }, 600_000);
  afterAll(() => rig.close());

  const alarmsOf = async (vehicleId: number) =>
    (
      await sql<{ id: number; type: string; subject: string; b: Date; e: Date | null; value: number | null; detail: unknown }>`
      SELECT id, type, subject, begin_time AS b, end_time AS e, value, detail FROM alarm
      WHERE vehicle_id = ${vehicleId} AND state = 'current' ORDER BY begin_time, type, subject`.execute(rig.s.database.db)
    ).rows.map((a) => ({
      id: a.id,
      type: a.type,
      subject: a.subject,
      begin: new Date(a.b).getTime(),
      end: a.e === null ? null : new Date(a.e).getTime(),
      value: a.value,
      sources: ((typeof a.detail === 'string' ? JSON.parse(a.detail) : a.detail) as { sources?: string[] } | null)?.sources ?? null,
    }));

  const live = (phone: string, reports: readonly LocationInput[]) => rig.sendLive(phone, reports);

  /** Where the alarm deriver starts a pass of the vehicle's reports from `at` on. */
  const reach = async (vehicleId: number, at: number) =>
    (await alarmDeriver().extendMany!(rig.s.database.db, [{ vehicleId, from: at, to: Infinity }]))[0].from;

  /** A rebuild of the vehicle's whole history finds exactly these alarms, and none was announced twice. */
  const rebuildFindsTheSame = async (vehicleId: number) => {
    const now = await alarmsOf(vehicleId);
    await rig.derivation.pipeline.rebuild(vehicleId, { from: -Infinity, to: Infinity });
    expect(await alarmsOf(vehicleId)).toEqual(now);
    const announced = rig.raised.filter((a) => a.vehicleId === vehicleId).map((a) => a.id);
    expect(new Set(announced).size).toBe(announced.length);
  };

  it('goes on with a Skewing open for three days, keeping its farthest distance, until the vehicle is back on the route', async () => {
    const phone = demoTerminal(9);
    const vehicleId = await rig.vehicleOf(phone);
    // The route runs east–west 20 km north of home; the vehicle never goes there.
    const north = HOME.latitude + 0.18;
    const line = [
      [HOME.longitude - 0.5, north],
      [HOME.longitude + 0.5, north],
    ];
    const task = await rig.s.call(hd, 'POST', '/api/vehicle/task', {
      name: 'carried route',
      vehicleId,
      routeLine: line,
      startTime: new Date(START - 3_600_000).toISOString(),
      endTime: new Date(START + 30 * DAY).toISOString(),
    });
    expect(task.status).toBe(201);
    const taskId = (task.body as { id: number }).id;
    // Three days of an hour's pattern, ten minutes' drive and fifty parked; once, on the second
    // day, it drives south and back, farther from the route than ever.
    const heading = (h: number) => (h === 36 ? 180 : h === 37 ? 0 : h % 2 ? 90 : 270);
    const hour = (d: ScriptedDay, h: number) =>
      d.step(10 * 60, 40, { every: 120, heading: heading(h) }).step(50 * 60, 0, { acc: false, every: 600 });
    const day = new ScriptedDay(START, HOME);
    for (let h = 0; h < 72; h++) hour(day, h);
    await rig.send(phone, day.reports, { blind: true, chunk: 50 });
    const off = routeDistance({ id: taskId, name: 'carried route', line, begin: -Infinity, end: Infinity });
    const farthest = Math.round(Math.max(...day.reports.map(off)));
    const skewingOf = async () => (await alarmsOf(vehicleId)).filter((a) => a.type === 'Skewing');
    const open = await skewingOf();
    expect(open.map((a) => [a.subject, a.begin, a.end, a.value])).toEqual([[`task:${taskId}`, START, null, farthest]]);
    // Live, one report at a time: each pass reads its look-back and the trip before, not three days.
    const next = hour(new ScriptedDay(day.time, day.position), 72).reports;
    for (const n of await live(phone, next)) expect(n).toBeLessThan(40);
    expect(await reach(vehicleId, next[next.length - 1].time as number)).toBeGreaterThan(START);
    expect(await skewingOf()).toEqual(open);
    // Back on the route: the same alarm ends at the first report there, with its farthest distance.
    const back = new ScriptedDay(minuteAfter(next), day.position)
      .jumpTo({ latitude: north, longitude: HOME.longitude })
      .step(5 * 60, 40, { every: 60, heading: 90 }).reports;
    await live(phone, back);
    expect((await skewingOf()).map((a) => [a.id, a.begin, a.end, a.value])).toEqual([[open[0].id, START, back[0].time, farthest]]);
    await rebuildFindsTheSame(vehicleId);
  }, 600_000);

  it("goes on with speeding over a fence's limit for hours, keeping its peak and the fence's inside, until the vehicle leaves the fence", async () => {
    const phone = demoTerminal(10);
    const vehicleId = await rig.vehicleOf(phone);
    // A ring road's zone, 20 km round home: 60 km/h, settled after 30 s.
    const fence = await rig.s.call(hd, 'PUT', '/api/vehicle/fence', {
      name: 'ring zone',
      fenceType: 'circle',
      geometry: { center: [HOME.longitude, HOME.latitude], radius: 20_000 },
      speedLimit: 60,
      dwellSeconds: 30,
    });
    expect(fence.status).toBe(201);
    const fenceId = (fence.body as { id: number }).id;
    expect((await rig.s.call(hd, 'PUT', '/api/vehicle/vehicleFence', { fenceId, vehicleIds: [vehicleId] })).status).toBe(200);
    // Two minutes at 40 inside, then three hours at 90, east and west by turns; once at 110, over
    // the policy's 100 too (one alarm of both).
    const day = new ScriptedDay(START, HOME).step(120, 40, { every: 30 });
    const fastFrom = day.time;
    for (let k = 0; k < 18; k++) day.step(10 * 60, k === 9 ? 110 : 90, { every: 60, heading: k % 2 ? 270 : 90 });
    await rig.send(phone, day.reports, { blind: true, chunk: 50 });
    const speedingOf = async () => (await alarmsOf(vehicleId)).filter((a) => a.type === 'OverSpeed');
    const open = await speedingOf();
    expect(open.map((a) => [a.begin, a.end, a.value, a.sources])).toEqual([[fastFrom, null, 110, [`fence:${fenceId}`, 'policy']]]);
    // Live at 90: the alarm deriver no longer reads back to the speeding's begin.
    const next = new ScriptedDay(day.time, day.position).step(10 * 60, 90, { every: 60, heading: 90 }).reports;
    // (Each pass still reads the trip it is in: the trips' own window, the three hours.)
    await live(phone, next);
    expect(await reach(vehicleId, next[next.length - 1].time as number)).toBeGreaterThan(fastFrom);
    expect(await speedingOf()).toEqual(open);
    // It leaves the zone eastwards: the speeding ends at the first report outside, and once out for
    // the dwell the vehicle has left the fence, where it was settled inside all along.
    const out = new ScriptedDay(minuteAfter(next), day.position).step(30 * 60, 90, { every: 60, heading: 90 });
    await live(phone, out.reports);
    const zone = { kind: 'circle' as const, center: [HOME.longitude, HOME.latitude] as [number, number], radiusM: 20_000 };
    const leftAt = out.reports.find((r) => !inside(zone, r))!.time as number;
    const after = await alarmsOf(vehicleId);
    expect(after.filter((a) => a.type === 'OverSpeed').map((a) => [a.id, a.begin, a.end, a.value])).toEqual([
      [open[0].id, fastFrom, leftAt, 110],
    ]);
    expect(after.filter((a) => a.type === 'FenceOut').map((a) => [a.subject, a.begin])).toEqual([[`fence:${fenceId}`, leftAt]]);
    await rebuildFindsTheSame(vehicleId);
  }, 600_000);

  it("goes on with the clock's stop of a terminal quiet for three days, and with the stop once its reports show it", async () => {
    const phone = demoTerminal(11);
    const vehicleId = await rig.vehicleOf(phone);
    // Two days of an hour's pattern (a blind-area upload), then live: three minutes' drive, fifty
    // parked reporting each minute, and quiet.
    const now = Math.floor(Date.now() / 1000) * 1000;
    const history = new ScriptedDay(now - 2 * DAY - 55 * MINUTE, { latitude: 31.3, longitude: 121.6 });
    for (let h = 0; h < 48; h++)
      history.step(10 * 60, 40, { every: 120, heading: h % 2 ? 90 : 270 }).step(50 * 60, 0, { acc: false, every: 600 });
    await rig.send(phone, history.reports, { blind: true, chunk: 50 });
    const day = new ScriptedDay(history.time, history.position);
    day.step(3 * 60, 40);
    const parkedAt = day.time;
    day.step(50 * 60, 0, { acc: false, every: 60 });
    await rig.send(phone, day.reports);
    const stopsOf = async () => (await alarmsOf(vehicleId)).filter((a) => a.type === 'StopLongTime');
    expect(await stopsOf()).toEqual([]);
    try {
      // The clock reads three days after parking: its stop, past the last report.
      rig.clockAhead = parkedAt + 3 * DAY - Date.now();
      await until(async () => (await stopsOf()).length === 1);
      const [clock] = await stopsOf();
      expect(clock).toMatchObject({ begin: parkedAt, end: null, sources: ['clock'] });
      const wake = parkedAt + 3 * DAY;
      expect(await reach(vehicleId, wake)).toBeGreaterThan(parkedAt);
      // The terminal wakes, still parked, and reports each minute; then the vehicle drives off.
      const woken = new ScriptedDay(wake, day.position).step(5 * 60, 0, { acc: false, every: 60 }).step(3 * 60, 40, { every: 60 }).reports;
      const handed = await live(phone, woken);
      // Each pass reads the stop and the trips before it, as the trips' own window does, not the history.
      for (const n of handed) expect(n).toBeLessThan(day.reports.length + 30);
      const drove = woken.find((r) => (r.speed ?? 0) > 0)!.time as number;
      expect((await stopsOf()).map((a) => [a.id, a.begin, a.end, a.sources])).toEqual([[clock.id, parkedAt, drove, ['policy']]]);
      await rebuildFindsTheSame(vehicleId);
    } finally {
      rig.clockAhead = 0;
    }
  }, 600_000);
});
