import { sql } from 'kysely';
import type { Deriver } from '../../../../server/intelligence';
import type { LocationInput, ObdRecordInput } from '../../../../server/telematics/jt808/codec';
import { BACKENDS } from '../../../helpers/testServer';
import { demoTerminal, until } from '../../telematics/gateway/harness';
import { startAlarmRig, type AlarmRig } from './rig';
import { drainReadAt, east, ScriptedDay } from './scriptedDay';
import { metresBetween } from '../../../../server/intelligence/alarms/detectors/motionRules';
import { routeDistance } from '../../../../server/intelligence/alarms/detectors/aiRules';

// Each test sends a scripted drive through the real gateway and waits for its passes: a minute
// alone, several when the suite's other workers load the machine.
jest.setTimeout(300_000);

const START = Date.parse('2026-11-21T00:00:00Z');
const HOME = { latitude: 31.2, longitude: 121.4 };

/**
 * When alarms are announced: only a pass that committed announces alarms, each once, with an id
 * whoever hears of it can read. While every pass fails (a deriver after the alarms' throws, so the
 * pass rolls back), nothing is stored or announced for the vehicle: no alarm comes from anywhere
 * but the pass. The retry that commits finds each alarm at the report where its rule decides it
 * (FireOn, Fault from a position's OBD block or an OBD trouble-code record matched to the expert
 * library, fence crossings once their dwell is over, Low, OverSpeed, Idle, Trail, Fatigue,
 * StopLongTime, Skewing, RepeatArrival, FuelDrain) and announces it once.
 */
describe.each(BACKENDS)('alarms announced on %s', (backend) => {
  let rig: AlarmRig;
  let failing = false;
  let failures = 0;
  const failsWhileSet: Deriver = {
    name: 'failsWhileSet',
    async rebuild() {
      if (!failing) return;
      failures++;
      throw new Error('a deriver after the alarms fails');
    },
  };

  beforeAll(async () => {
    rig = await startAlarmRig(backend, { extraDerivers: [failsWhileSet] });
    const hd = await rig.s.memberToken('HD', 'administrator');
    for (const body of [
      { name: 'p-FireOn', alarmType: 'FireOn', threshold: null, durationMinutes: null },
      { name: 'p-Idle', alarmType: 'Idle', threshold: null, durationMinutes: 1 },
      { name: 'p-Fault', alarmType: 'Fault', threshold: null, durationMinutes: null },
      { name: 'p-Low', alarmType: 'Low', threshold: 11.8, durationMinutes: 1 },
      { name: 'p-Trail', alarmType: 'Trail', threshold: null, durationMinutes: null },
      { name: 'p-OverSpeed', alarmType: 'OverSpeed', threshold: 80, durationMinutes: null, params: { durationSeconds: 30 } },
      { name: 'p-Fatigue', alarmType: 'Fatigue', threshold: null, durationMinutes: null, params: { hours: 1, restMinutes: 20 } },
    ]) {
      const r = await rig.s.call(hd, 'PUT', '/api/vehicle/policy', body);
      if (r.status !== 201) throw new Error(JSON.stringify(r.body));
    }
    // Longer than the minute of context every window gets: the pass must read back the whole of it.
    const hn = await rig.s.memberToken('HN', 'administrator');
    const slow = await rig.s.call(hn, 'PUT', '/api/vehicle/policy', {
      name: 'p-OverSpeed-90s',
      alarmType: 'OverSpeed',
      threshold: 80,
      durationMinutes: null,
      params: { durationSeconds: 90 },
    });
    if (slow.status !== 201) throw new Error(JSON.stringify(slow.body));
    // With a FuelDrain policy in force the fuel bit is one alarm with the trips' drains: only the pass raises it.
    const fuel = await rig.s.call(hn, 'PUT', '/api/vehicle/policy', {
      name: 'p-FuelDrain',
      alarmType: 'FuelDrain',
      threshold: null,
      durationMinutes: null,
    });
    if (fuel.status !== 201) throw new Error(JSON.stringify(fuel.body));
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

  const alarmIdsOf = async (vehicleId: number) =>
    (await sql<{ id: number }>`SELECT id FROM alarm WHERE vehicle_id = ${vehicleId} ORDER BY id`.execute(rig.s.database.db)).rows.map(
      (r) => r.id,
    );
  const alarmIds = async (vehicleId: number, type: string) =>
    (
      await sql<{ id: number }>`SELECT id FROM alarm WHERE vehicle_id = ${vehicleId} AND type = ${type}`.execute(rig.s.database.db)
    ).rows.map((r) => r.id);

  /**
   * Sends all but the last report (and then the OBD records) while every pass fails, then the last
   * report once passes succeed again. While they fail, nothing is stored or announced for the
   * vehicle (no alarm comes from outside the pass), then `checks` runs: a function runs once the
   * committing pass is over; `whileFailing` runs before it. `live`: each report acknowledged before
   * the next is sent, so each comes in a batch of its own, as from a terminal reporting live.
   * `together`: sent after those, in one 0x0704 upload (live, not blind), so they are stored in one
   * batch. `first`: sent and derived before the passes begin to fail.
   */
  async function sendThroughFailingPasses(
    phone: string,
    reports: LocationInput[],
    checks: (() => Promise<void>) | { whileFailing?: () => Promise<void>; afterPass?: () => Promise<void> },
    obd: ObdRecordInput[] = [],
    live = false,
    together: LocationInput[] = [],
    first: LocationInput[] = [],
  ): Promise<ReturnType<AlarmRig['terminal']>> {
    const { whileFailing, afterPass } = typeof checks === 'function' ? { whileFailing: undefined, afterPass: checks } : checks;
    const vehicleId = await rig.vehicleOf(phone);
    const terminal = rig.terminal(phone);
    await terminal.connect();
    for (const r of first) terminal.report(r);
    await terminal.drain(60_000);
    await rig.settled();
    const storedBefore = await alarmIdsOf(vehicleId);
    const announcedBefore = rig.raised.filter((a) => a.vehicleId === vehicleId).length;
    failing = true;
    failures = 0;
    for (const r of reports.slice(0, -1)) {
      terminal.report(r);
      if (live) await terminal.drain(60_000);
    }
    await terminal.drain(60_000);
    if (together.length) {
      terminal.reportBatch(together, false);
      await terminal.drain(60_000);
    }
    await rig.gateway.writer.flush();
    for (const r of obd) terminal.reportObd(r);
    await terminal.drain(60_000);
    await rig.gateway.obdWriter.flush();
    await until(async () => failures > 0, 120_000);
    await rig.derivation.pipeline.idle();
    expect(await alarmIdsOf(vehicleId)).toEqual(storedBefore);
    expect(rig.raised.filter((a) => a.vehicleId === vehicleId)).toHaveLength(announcedBefore);
    await whileFailing?.();
    // The failed range stays pending: the next report's pass derives it all.
    failing = false;
    terminal.report(reports[reports.length - 1]);
    await terminal.drain(60_000);
    await rig.settled();
    await afterPass?.();
    return terminal;
  }

  it('announces nothing from a pass that rolled back, and each alarm once from the pass that committed', async () => {
    // The terminal's fuel bit where a FuelDrain policy is in force (HN): only the pass raises it.
    const day = new ScriptedDay(START, HOME).step(60, 36).step(120, 36, { alarmBits: [25] });
    const vehicleId = await rig.vehicleOf(demoTerminal(19));
    await sendThroughFailingPasses(demoTerminal(19), day.reports, {
      whileFailing: async () => expect(rig.raised.filter((a) => a.vehicleId === vehicleId && a.type === 'FuelDrain')).toEqual([]),
    });
    const announced = rig.raised.filter((a) => a.vehicleId === vehicleId && a.type === 'FuelDrain');
    expect(announced).toHaveLength(1);
    expect(await alarmIds(vehicleId, 'FuelDrain')).toEqual([announced[0].id]);
    expect(rig.published.filter((p) => p.vehicleId === vehicleId && p.type === 'FuelDrain').map((p) => p.alarmId)).toEqual([
      announced[0].id,
    ]);
  });

  it('announces an ignition once when the night before it is uploaded late, hours before it', async () => {
    const vehicleId = await rig.vehicleOf(demoTerminal(2));
    const terminal = rig.terminal(demoTerminal(2));
    await terminal.connect();
    // The ignition comes first: with nothing before it, it is no ignition yet.
    // 00:10 in Shanghai: a local day after the evening's.
    const ignition = new ScriptedDay(START + 16 * 3_600_000 + 10 * 60_000, HOME).step(60, 0, { acc: true }).reports;
    for (const r of ignition) terminal.report(r);
    await terminal.drain(60_000);
    await rig.settled();
    expect(await alarmIds(vehicleId, 'FireOn')).toEqual([]);
    // Then the parked evening, its last report (22:30) an hour and forty minutes before the
    // ignition: further than any of the vehicle's policies looks back. The pass reaches on to the
    // ignition by the trips' widening (on to the first trip after the range; with none, to the newest
    // report), and the night's marks, not the ignition's, decide it.
    const night = new ScriptedDay(START + 11 * 3_600_000, HOME).step(4 * 3_600, 0, { acc: false, every: 1_800 }).reports;
    terminal.reportBatch(night, true);
    await terminal.drain(60_000);
    await rig.settled();
    const stored = await sql<{ id: number; begin: Date; announced: boolean }>`
      SELECT id, begin_time AS begin, announced FROM alarm WHERE vehicle_id = ${vehicleId} AND type = 'FireOn'`.execute(rig.s.database.db);
    expect(stored.rows.map((a) => [a.begin.getTime(), a.announced])).toEqual([[ignition[0].time, true]]);
    expect(rig.raised.filter((a) => a.vehicleId === vehicleId && a.type === 'FireOn').map((a) => a.id)).toEqual([stored.rows[0].id]);
  });

  it('announces once an ignition and its idling that a late upload split off a longer run, read by a pass before their marks were written', async () => {
    const phone = demoTerminal(1);
    const vehicleId = await rig.vehicleOf(phone);
    const terminal = rig.terminal(phone);
    await terminal.connect();
    // The evening ends idling with the ACC on; the morning starts idling at the same place, drives
    // and parks: with nothing between, one idling run from the evening on, and no ignition.
    const evening = new ScriptedDay(START + 10 * 3_600_000, HOME).step(90, 0, { acc: true }).reports;
    const morningAt = START + 16 * 3_600_000;
    const morning = new ScriptedDay(morningAt, HOME).step(90, 0, { acc: true }).step(300, 40).step(600, 0, { acc: false });
    for (const r of [...evening, ...morning.reports]) terminal.report(r);
    await terminal.drain(60_000);
    await rig.settled();
    expect(await alarmIds(vehicleId, 'FireOn')).toEqual([]);
    // The night, parked with the ACC off, comes as a blind-area upload, and its mark is written late:
    // as when a pass starts between the upload's commit and its mark (the mark held here, then written).
    const pipeline = rig.derivation.pipeline;
    const held: Parameters<typeof pipeline.mark>[0] = [];
    pipeline.mark = (spans) => {
      held.push(...spans);
      return Promise.resolve();
    };
    try {
      const night = new ScriptedDay(START + 11 * 3_600_000, HOME).step(4 * 3_600, 0, { acc: false, every: 1_800 }).reports;
      terminal.reportBatch(night, true);
      await terminal.drain(60_000);
      await rig.gateway.writer.flush();
      expect(held.map((s) => s.vehicleId)).toEqual([vehicleId]);
    } finally {
      delete (pipeline as { mark?: unknown }).mark; // the class's own again
    }
    // The next trip. Its first reports' passes roll back, so the window the pipeline held is
    // dropped (as after a restart) and the pass that commits reads its window anew from the
    // database: back to the trip before (the trips' widening), with the night's last report before
    // it. So it finds the ignition and the idling, though no pass has taken the night's mark.
    const nextAt = morning.time;
    const next = morning
      .step(60, 0, { acc: true })
      .step(120, 40)
      .reports.filter((r) => (r.time as number) >= nextAt);
    failing = true;
    const failed = failures;
    try {
      for (const r of next.slice(0, -1)) terminal.report(r);
      await terminal.drain(60_000);
      await rig.gateway.writer.flush();
      await until(async () => failures > failed, 20_000);
      await pipeline.idle();
    } finally {
      failing = false;
    }
    terminal.report(next[next.length - 1]);
    await terminal.drain(60_000);
    await rig.settled();
    expect(await alarmIds(vehicleId, 'FireOn')).toHaveLength(2);
    await pipeline.mark(held);
    await rig.settled();
    const stored = await sql<{ id: number; type: string; begin: Date; announced: boolean }>`
      SELECT id, type, begin_time AS begin, announced FROM alarm
      WHERE vehicle_id = ${vehicleId} AND type IN ('FireOn', 'Idle') AND begin_time = ${new Date(morningAt)} ORDER BY type`.execute(
      rig.s.database.db,
    );
    expect(stored.rows.map((a) => [a.type, a.begin.getTime(), a.announced])).toEqual([
      ['FireOn', morningAt, true],
      ['Idle', morningAt, true],
    ]);
    const heard = rig.raised.filter(
      (a) => a.vehicleId === vehicleId && a.begin === morningAt && (a.type === 'FireOn' || a.type === 'Idle'),
    );
    expect(heard.map((a) => a.id).sort()).toEqual(stored.rows.map((a) => a.id).sort());
  });

  it('raises FireOn from the committed batch from the pass that commits, and announces it once', async () => {
    const day = new ScriptedDay(START, HOME).step(300, 0, { acc: false }).step(60, 0, { acc: true });
    const vehicleId = await rig.vehicleOf(demoTerminal(4));
    // The first report of the second step: ACC on after five minutes off.
    const ignition = day.reports[30];
    let early: number[] = [];
    const terminal = await sendThroughFailingPasses(demoTerminal(4), day.reports, async () => {
      early = await alarmIds(vehicleId, 'FireOn');
      expect(early).toHaveLength(1);
      expect(rig.raised.filter((a) => a.vehicleId === vehicleId).map((a) => [a.type, a.begin])).toEqual([['FireOn', ignition.time]]);
    });
    expect(await alarmIds(vehicleId, 'FireOn')).toEqual(early);
    expect(rig.raised.filter((a) => a.vehicleId === vehicleId && a.type === 'FireOn').map((a) => a.id)).toEqual(early);
    // And a report whose predecessor already had ACC on raises nothing.
    for (const r of new ScriptedDay(START + 10 * 60_000, HOME).step(30, 0, { acc: true }).reports) terminal.report(r);
    await terminal.drain(60_000);
    await rig.settled();
    expect(await alarmIds(vehicleId, 'FireOn')).toEqual(early);
    // Without a FireOn policy in force, an ignition raises nothing.
    await sql`UPDATE policy SET enabled = false WHERE alarm_type = 'FireOn'`.execute(rig.s.database.db);
    const again = new ScriptedDay(START + 20 * 60_000, HOME).step(120, 0, { acc: false }).step(30, 0, { acc: true }).reports;
    for (const r of again) terminal.report(r);
    await terminal.drain(60_000);
    await rig.settled();
    const at = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM alarm WHERE vehicle_id = ${vehicleId} AND type = 'FireOn' AND begin_time = ${new Date(again[12].time!)}`.execute(
      rig.s.database.db,
    );
    expect(at.rows[0].n).toBe(0);
    expect(rig.raised.filter((a) => a.vehicleId === vehicleId && a.type === 'FireOn')).toHaveLength(1);
  });

  const faults = async (vehicleId: number) =>
    (
      await sql<{ id: number; subject: string; begin: Date; level: string; name: string | null }>`
      SELECT id, subject, begin_time AS begin, level, detail->>'name' AS name FROM alarm WHERE vehicle_id = ${vehicleId} AND type = 'Fault' ORDER BY begin_time`.execute(
        rig.s.database.db,
      )
    ).rows.map((r) => ({ ...r, begin: new Date(r.begin).getTime() }));

  it("raises Fault from a position's trouble codes matched to the expert library, once", async () => {
    // Two minutes of OBD blocks listing nothing, then one listing P0301 on every report.
    const day = new ScriptedDay(START, HOME).step(120, 0, { acc: true, dtcs: [] }).step(60, 0, { acc: true, dtcs: ['P0301'] });
    const vehicleId = await rig.vehicleOf(demoTerminal(5));
    const appeared = day.reports[12].time as number;
    let early: Awaited<ReturnType<typeof faults>> = [];
    await sendThroughFailingPasses(demoTerminal(5), day.reports, async () => {
      early = await faults(vehicleId);
      expect(early).toEqual([{ id: expect.any(Number), subject: 'dtc:P0301', begin: appeared, level: 'high', name: '1 缸失火' }]);
      expect(rig.raised.filter((a) => a.vehicleId === vehicleId && a.type === 'Fault').map((a) => [a.type, a.subject, a.begin])).toEqual([
        ['Fault', 'dtc:P0301', appeared],
      ]);
    });
    expect(await faults(vehicleId)).toEqual(early);
    expect(rig.raised.filter((a) => a.vehicleId === vehicleId && a.type === 'Fault').map((a) => a.id)).toEqual([early[0].id]);
  });

  it('raises Fault from an OBD trouble-code record once the report before it listed other codes', async () => {
    const day = new ScriptedDay(START, HOME).step(120, 0, { acc: true, dtcs: ['P0171'] }).step(30, 0, { acc: true });
    const vehicleId = await rig.vehicleOf(demoTerminal(6));
    const recordAt = START + 125_000;
    const dtc = (text: string, code: number) => ({ systemId: 1, dtc: code, status: 1, text });
    const position = { status: 3, latitude: HOME.latitude, longitude: HOME.longitude };
    let early: Awaited<ReturnType<typeof faults>> = [];
    await sendThroughFailingPasses(
      demoTerminal(6),
      day.reports,
      async () => {
        early = (await faults(vehicleId)).filter((f) => f.subject === 'dtc:P0420');
        expect(early.map((f) => [f.subject, f.begin])).toEqual([['dtc:P0420', recordAt]]);
      },
      [{ time: recordAt, subtype: 2, dtcs: [dtc('P0171', 0x0171), dtc('P0420', 0x0420)], position }],
    );
    const after = await faults(vehicleId);
    expect(after.map((f) => [f.subject, f.begin])).toEqual([
      ['dtc:P0171', START],
      ['dtc:P0420', recordAt],
    ]);
    expect(after[1].id).toBe(early[0].id);
    expect(rig.raised.filter((a) => a.vehicleId === vehicleId && a.subject === 'dtc:P0420').map((a) => a.id)).toEqual([early[0].id]);
  });

  it('raises fence crossings once their dwell is over', async () => {
    const hd = await rig.s.memberToken('HD', 'administrator');
    const vehicleId = await rig.vehicleOf(demoTerminal(7));
    const center = east(HOME, 1500);
    const fence = await rig.s.call(hd, 'PUT', '/api/vehicle/fence', {
      name: 'depot',
      fenceType: 'circle',
      geometry: { center: [center.longitude, center.latitude], radius: 300 },
      dwellSeconds: 30,
    });
    expect(fence.status).toBe(201);
    const fenceId = (fence.body as { id: number }).id;
    expect((await rig.s.call(hd, 'PUT', '/api/vehicle/vehicleFence', { fenceId, vehicleIds: [vehicleId] })).status).toBe(200);
    // Two minutes standing 1.5 km west of it, then east at 36 km/h: inside from 1,200 m to 1,800 m.
    const day = new ScriptedDay(START, HOME).step(120, 0, { acc: true }).step(300, 36, { acc: true, heading: 90 });
    const within = (r: LocationInput) => metresBetween(center, r) <= 300;
    const firstIn = day.reports.find(within)!.time as number;
    const firstOut = day.reports.find((r) => (r.time as number) > firstIn && !within(r))!.time as number;
    const crossings = async () =>
      (
        await sql<{ id: number; type: string; begin: Date; fence_id: number }>`
        SELECT id, type, begin_time AS begin, fence_id FROM alarm WHERE vehicle_id = ${vehicleId} AND type IN ('FenceIn', 'FenceOut') ORDER BY begin_time`.execute(
          rig.s.database.db,
        )
      ).rows.map((r) => ({ ...r, begin: new Date(r.begin).getTime() }));
    let early: Awaited<ReturnType<typeof crossings>> = [];
    await sendThroughFailingPasses(demoTerminal(7), day.reports, async () => {
      early = await crossings();
      expect(early.map((c) => [c.type, c.begin, c.fence_id])).toEqual([
        ['FenceIn', firstIn, fenceId],
        ['FenceOut', firstOut, fenceId],
      ]);
    });
    expect(await crossings()).toEqual(early);
    const announced = rig.raised.filter((a) => a.vehicleId === vehicleId && a.fenceId === fenceId).map((a) => a.id);
    expect(announced).toEqual(early.map((c) => c.id));
  });

  it("raises Low where the battery dip reaches the policy's minute, or the under-voltage bit comes on", async () => {
    const lows = async (vehicleId: number) =>
      (
        await sql<{ id: number; begin: Date; fired: Date; value: number | null }>`
        SELECT id, begin_time AS begin, fired_at AS fired, value FROM alarm WHERE vehicle_id = ${vehicleId} AND type = 'Low' ORDER BY begin_time`.execute(
          rig.s.database.db,
        )
      ).rows.map((r) => ({ ...r, begin: new Date(r.begin).getTime(), fired: new Date(r.fired).getTime() }));
    // The battery: two minutes at 13.8 V, then 11.0 V (under the policy's 11.8 V) for two minutes.
    const battery = new ScriptedDay(START, HOME).step(120, 0, { acc: true, volts: 13.8 }).step(120, 0, { acc: true, volts: 11 });
    const batteryVehicle = await rig.vehicleOf(demoTerminal(8));
    const dipAt = battery.reports[12].time as number;
    let early: Awaited<ReturnType<typeof lows>> = [];
    await sendThroughFailingPasses(demoTerminal(8), battery.reports, async () => {
      early = await lows(batteryVehicle);
      expect(early.map((l) => [l.begin, l.fired])).toEqual([[dipAt, dipAt + 60_000]]);
    });
    expect((await lows(batteryVehicle)).map((l) => l.id)).toEqual([early[0].id]);
    expect(rig.raised.filter((a) => a.vehicleId === batteryVehicle && a.type === 'Low').map((a) => a.id)).toEqual([early[0].id]);
    // The bit, from a terminal with no battery reading.
    const bit = new ScriptedDay(START, HOME).step(90, 0, { acc: true }).step(60, 0, { acc: true, alarmBits: [7] });
    const bitVehicle = await rig.vehicleOf(demoTerminal(9));
    const bitAt = bit.reports[9].time as number;
    await sendThroughFailingPasses(demoTerminal(9), bit.reports, async () => {
      early = await lows(bitVehicle);
      expect(early.map((l) => [l.begin, l.fired])).toEqual([[bitAt, bitAt]]);
    });
    expect((await lows(bitVehicle)).map((l) => l.id)).toEqual([early[0].id]);
    expect(rig.raised.filter((a) => a.vehicleId === bitVehicle && a.type === 'Low').map((a) => a.id)).toEqual([early[0].id]);
  });
  const alarmsOf = async (vehicleId: number, type: string) =>
    (
      await sql<{ id: number; begin: Date; fired: Date; end: Date | null }>`
      SELECT id, begin_time AS begin, fired_at AS fired, end_time AS "end" FROM alarm WHERE vehicle_id = ${vehicleId} AND type = ${type} ORDER BY begin_time`.execute(
        rig.s.database.db,
      )
    ).rows.map((r) => ({
      id: r.id,
      begin: new Date(r.begin).getTime(),
      fired: new Date(r.fired).getTime(),
      end: r.end === null ? null : new Date(r.end).getTime(),
    }));
  const announcedIds = (vehicleId: number, type: string) =>
    rig.raised.filter((a) => a.vehicleId === vehicleId && a.type === type).map((a) => a.id);

  /** Runs `test` with this HN policy in force, then disables it (the tests after it see none). */
  async function withPolicy(body: Record<string, unknown> & { name: string }, test: () => Promise<void>): Promise<void> {
    const hn = await rig.s.memberToken('HN', 'administrator');
    const policy = await rig.s.call(hn, 'PUT', '/api/vehicle/policy', body);
    expect(policy.status).toBe(201);
    try {
      await test();
    } finally {
      await sql`UPDATE policy SET enabled = false WHERE name = ${body.name}`.execute(rig.s.database.db);
    }
  }

  it("raises OverSpeed where speeding reaches the policy's seconds, or the speeding bit comes on", async () => {
    // Two minutes at 60 km/h, then a minute at 100: over the policy's 80 km/h for its 30 s.
    const policy = new ScriptedDay(START, HOME).step(120, 60).step(60, 100);
    const policyVehicle = await rig.vehicleOf(demoTerminal(10));
    const fastAt = policy.reports[12].time as number;
    let early: Awaited<ReturnType<typeof alarmsOf>> = [];
    await sendThroughFailingPasses(demoTerminal(10), policy.reports, async () => {
      early = await alarmsOf(policyVehicle, 'OverSpeed');
      expect(early.map((a) => [a.begin, a.fired, a.end])).toEqual([[fastAt, fastAt + 30_000, null]]);
      expect(announcedIds(policyVehicle, 'OverSpeed')).toEqual([early[0].id]);
    });
    expect((await alarmsOf(policyVehicle, 'OverSpeed')).map((a) => a.id)).toEqual([early[0].id]);
    expect(announcedIds(policyVehicle, 'OverSpeed')).toEqual([early[0].id]);
    // The terminal's own speeding bit, under the policy's limit: at the bit.
    const bit = new ScriptedDay(START, HOME).step(90, 60).step(60, 60, { alarmBits: [1] });
    const bitVehicle = await rig.vehicleOf(demoTerminal(11));
    const bitAt = bit.reports[9].time as number;
    await sendThroughFailingPasses(demoTerminal(11), bit.reports, async () => {
      early = await alarmsOf(bitVehicle, 'OverSpeed');
      expect(early.map((a) => [a.begin, a.fired])).toEqual([[bitAt, bitAt]]);
    });
    expect((await alarmsOf(bitVehicle, 'OverSpeed')).map((a) => a.id)).toEqual([early[0].id]);
    expect(announcedIds(bitVehicle, 'OverSpeed')).toEqual([early[0].id]);
  });

  it("raises Idle where idling reaches the policy's minute, and a red light raises nothing", async () => {
    // Driving, 40 s at a red light, driving, then two minutes standing with the engine on.
    const day = new ScriptedDay(START, HOME).step(60, 40).step(40, 0, { acc: true }).step(60, 40).step(120, 0, { acc: true });
    const vehicleId = await rig.vehicleOf(demoTerminal(12));
    const idleAt = day.reports[16].time as number;
    let early: Awaited<ReturnType<typeof alarmsOf>> = [];
    await sendThroughFailingPasses(demoTerminal(12), day.reports, async () => {
      early = await alarmsOf(vehicleId, 'Idle');
      expect(early.map((a) => [a.begin, a.fired])).toEqual([[idleAt, idleAt + 60_000]]);
      expect(announcedIds(vehicleId, 'Idle')).toEqual([early[0].id]);
    });
    expect((await alarmsOf(vehicleId, 'Idle')).map((a) => a.id)).toEqual([early[0].id]);
    expect(announcedIds(vehicleId, 'Idle')).toEqual([early[0].id]);
  });

  it("raises Trail at the report that takes the vehicle beyond the policy's metres from where the ignition went off", async () => {
    // Ten minutes parked, then towed at 36 km/h: 300 m from where it was parked after 30 s.
    const day = new ScriptedDay(START, HOME).step(60, 30).step(600, 0, { acc: false, every: 30 }).step(120, 36, { acc: false });
    const parked = day.reports[6];
    const vehicleId = await rig.vehicleOf(demoTerminal(3));
    const beyond = day.reports.find((r) => (r.time as number) > (parked.time as number) && metresBetween(parked, r) > 300)!.time as number;
    let early: Awaited<ReturnType<typeof alarmsOf>> = [];
    await sendThroughFailingPasses(demoTerminal(3), day.reports, async () => {
      early = await alarmsOf(vehicleId, 'Trail');
      expect(early.map((a) => [a.begin, a.fired, a.end])).toEqual([[beyond, beyond, null]]);
      expect(announcedIds(vehicleId, 'Trail')).toEqual([early[0].id]);
    });
    expect((await alarmsOf(vehicleId, 'Trail')).map((a) => a.id)).toEqual([early[0].id]);
    expect(announcedIds(vehicleId, 'Trail')).toEqual([early[0].id]);
  });

  it("raises Fatigue where driving reaches the policy's hour after a full rest, and from the first report when the rest is out of view", async () => {
    // 25 minutes parked, then 70 minutes of driving: the policy's hour runs out at minute 85.
    const day = new ScriptedDay(START, HOME).step(25 * 60, 0, { acc: false, every: 60 }).step(70 * 60, 40, { every: 60 });
    const vehicleId = await rig.vehicleOf(demoTerminal(13));
    const drove = START + 25 * 60_000;
    let early: Awaited<ReturnType<typeof alarmsOf>> = [];
    await sendThroughFailingPasses(demoTerminal(13), day.reports, async () => {
      early = await alarmsOf(vehicleId, 'Fatigue');
      expect(early.map((a) => [a.begin, a.fired, a.end])).toEqual([[drove, drove + 3_600_000, null]]);
      expect(announcedIds(vehicleId, 'Fatigue')).toEqual([early[0].id]);
    });
    expect((await alarmsOf(vehicleId, 'Fatigue')).map((a) => a.id)).toEqual([early[0].id]);
    expect(announcedIds(vehicleId, 'Fatigue')).toEqual([early[0].id]);
    // Driving from the first report, a 10-minute stop in it: the drive counts from where the reports begin.
    const unsure = new ScriptedDay(START, HOME)
      .step(30 * 60, 40, { every: 60 })
      .step(10 * 60, 0, { every: 60 })
      .step(40 * 60, 40, { every: 60 });
    const other = await rig.vehicleOf(demoTerminal(14));
    await sendThroughFailingPasses(demoTerminal(14), unsure.reports, {});
    const derived = await alarmsOf(other, 'Fatigue');
    expect(derived.map((a) => [a.begin, a.fired])).toEqual([[START, START + 3_600_000]]);
    expect(announcedIds(other, 'Fatigue')).toEqual([derived[0].id]);
  });

  it('raises OverSpeed whose seconds outlast the minute of context every window gets, also for a vehicle with a speed-limiting fence it is outside of', async () => {
    // A minute at 60 km/h, then two at 100: over the policy's 80 km/h for its 90 s; each report in a
    // batch of its own, so the stretch read must reach back past the batch to where the run began.
    // Every 7 s: the 90 s run out between two reports, and the one after fires it.
    const day = new ScriptedDay(START, HOME).step(60, 60).step(120, 100, { every: 7 });
    const fastAt = day.reports[6].time as number;
    // The day from a vehicle: raised from the batch while every pass fails, then kept (and announced once) by the pass.
    const raisedAhead = async (phone: string, vehicleId: number) => {
      let early: Awaited<ReturnType<typeof alarmsOf>> = [];
      await sendThroughFailingPasses(
        phone,
        day.reports,
        async () => {
          early = await alarmsOf(vehicleId, 'OverSpeed');
          expect(early.map((a) => [a.begin, a.fired])).toEqual([[fastAt, fastAt + 90_000]]);
        },
        [],
        true,
      );
      expect((await alarmsOf(vehicleId, 'OverSpeed')).map((a) => a.id)).toEqual([early[0].id]);
      expect(announcedIds(vehicleId, 'OverSpeed')).toEqual([early[0].id]);
    };
    await raisedAhead(demoTerminal(17), await rig.vehicleOf(demoTerminal(17)));
    // A vehicle with a fence of its own (far away) that limits speed: the stretch shows it settled
    // outside before the run, so the batch raises the policy's OverSpeed as the pass will.
    const hn = await rig.s.memberToken('HN', 'administrator');
    const fenced = await rig.vehicleOf(demoTerminal(18));
    const far = east(HOME, 50_000);
    const fence = await rig.s.call(hn, 'PUT', '/api/vehicle/fence', {
      name: 'far depot',
      fenceType: 'circle',
      geometry: { center: [far.longitude, far.latitude], radius: 300 },
      speedLimit: 30,
      dwellSeconds: 30,
    });
    expect(fence.status).toBe(201);
    expect(
      (await rig.s.call(hn, 'PUT', '/api/vehicle/vehicleFence', { fenceId: (fence.body as { id: number }).id, vehicleIds: [fenced] }))
        .status,
    ).toBe(200);
    await raisedAhead(demoTerminal(18), fenced);
  });

  it("raises OverSpeed over a fence's speed limit once the vehicle has settled inside, also when a gap comes before the run", async () => {
    // A town zone round home (limit 30 km/h, 30 s dwell), for two vehicles of HD.
    const hd = await rig.s.memberToken('HD', 'administrator');
    const [settled, unsettled] = [await rig.vehicleOf(demoTerminal(15)), await rig.vehicleOf(demoTerminal(16))];
    const zone = await rig.s.call(hd, 'PUT', '/api/vehicle/fence', {
      name: 'home zone',
      fenceType: 'circle',
      geometry: { center: [HOME.longitude, HOME.latitude], radius: 3000 },
      speedLimit: 30,
      dwellSeconds: 30,
    });
    expect(zone.status).toBe(201);
    expect(
      (
        await rig.s.call(hd, 'PUT', '/api/vehicle/vehicleFence', {
          fenceId: (zone.body as { id: number }).id,
          vehicleIds: [settled, unsettled],
        })
      ).status,
    ).toBe(200);
    // Two minutes at 20 km/h inside, then a minute at 40: over the zone's limit from its first report at 40.
    const day = new ScriptedDay(START + 3_600_000, HOME).step(120, 20).step(60, 40);
    const fastAt = START + 3_600_000 + 120_000;
    let early: Awaited<ReturnType<typeof alarmsOf>> = [];
    await sendThroughFailingPasses(
      demoTerminal(15),
      day.reports,
      async () => {
        early = await alarmsOf(settled, 'OverSpeed');
        expect(early.map((a) => [a.begin, a.fired])).toEqual([[fastAt, fastAt]]);
        expect(announcedIds(settled, 'OverSpeed')).toEqual([early[0].id]);
      },
      [],
      true,
    );
    expect((await alarmsOf(settled, 'OverSpeed')).map((a) => a.id)).toEqual([early[0].id]);
    expect(announcedIds(settled, 'OverSpeed')).toEqual([early[0].id]);
    // Settled inside at 20 km/h, quiet for five minutes, then, in one upload, 20 and 40 km/h: the
    // pass, reading from before the gap, knows the vehicle settled inside and finds the speeding
    // from the first report at 40, not after a dwell that begins at the gap.
    const back = START + 2 * 3_600_000;
    const settling = new ScriptedDay(back, HOME).step(60, 20).reports;
    const upload = new ScriptedDay(back + 6 * 60_000, HOME).step(10, 20).step(60, 40);
    const after = new ScriptedDay(upload.time, upload.position).step(10, 40).reports;
    await sendThroughFailingPasses(demoTerminal(16), [...settling, ...after], {}, [], true, upload.reports);
    const derived = await alarmsOf(unsettled, 'OverSpeed');
    expect(derived.map((a) => [a.begin, a.fired])).toEqual([[back + 6 * 60_000 + 10_000, back + 6 * 60_000 + 10_000]]);
    expect(announcedIds(unsettled, 'OverSpeed')).toEqual([derived[0].id]);
  });

  it("raises StopLongTime where a stop reaches the policy's minutes, or at the report that ends a quiet stop that long", async () => {
    await withPolicy({ name: 'p-StopLongTime', alarmType: 'StopLongTime', threshold: null, durationMinutes: 2 }, async () => {
      // A minute's drive, three minutes parked reporting every 10 s, then off again: the stop
      // reaches the policy's two minutes at its thirteenth standing report.
      const reporting = new ScriptedDay(START, HOME).step(60, 36).step(180, 0, { acc: false }).step(30, 36);
      const stopped = START + 60_000;
      const vehicleId = await rig.vehicleOf(demoTerminal(20));
      let early: Awaited<ReturnType<typeof alarmsOf>> = [];
      await sendThroughFailingPasses(
        demoTerminal(20),
        reporting.reports,
        async () => {
          early = await alarmsOf(vehicleId, 'StopLongTime');
          // Closed by the report that ended the stop.
          expect(early.map((a) => [a.begin, a.fired, a.end])).toEqual([[stopped, stopped + 120_000, START + 240_000]]);
          expect(announcedIds(vehicleId, 'StopLongTime')).toEqual([early[0].id]);
        },
        [],
        true,
      );
      expect(await alarmsOf(vehicleId, 'StopLongTime')).toEqual(early);
      expect(announcedIds(vehicleId, 'StopLongTime')).toEqual([early[0].id]);

      // Parked with one report, quiet for 140 s, then driving: the report that ends the stop raises it
      // (within the look-back, as the pass reads it; a longer quiet stop is the clock's: stopClock.ts).
      const parked = new ScriptedDay(START, HOME).step(60, 36).step(10, 0, { acc: false });
      const quiet = [...parked.reports, ...new ScriptedDay(START + 200_000, parked.position).step(30, 36).reports];
      const other = await rig.vehicleOf(demoTerminal(21));
      await sendThroughFailingPasses(
        demoTerminal(21),
        quiet,
        async () => {
          early = await alarmsOf(other, 'StopLongTime');
          expect(early.map((a) => [a.begin, a.fired, a.end])).toEqual([[stopped, stopped + 120_000, START + 200_000]]);
          expect(announcedIds(other, 'StopLongTime')).toEqual([early[0].id]);
        },
        [],
        true,
      );
      expect(await alarmsOf(other, 'StopLongTime')).toEqual(early);
      expect(announcedIds(other, 'StopLongTime')).toEqual([early[0].id]);
    });
  });

  it("raises Skewing where the vehicle has been off its task's route for the policy's minutes", async () => {
    const hn = await rig.s.memberToken('HN', 'administrator');
    await withPolicy({ name: 'p-Skewing', alarmType: 'Skewing', threshold: 300, durationMinutes: 2 }, async () => {
      const vehicleId = await rig.vehicleOf(demoTerminal(22));
      // The route runs east from home; the vehicle follows it for a minute, then turns north.
      const line = [
        [HOME.longitude, HOME.latitude],
        [HOME.longitude + 0.2, HOME.latitude],
      ];
      const task = await rig.s.call(hn, 'POST', '/api/vehicle/task', {
        name: 'e2e route',
        vehicleId,
        routeLine: line,
        startTime: new Date(START - 3_600_000).toISOString(),
        endTime: new Date(START + 3_600_000).toISOString(),
      });
      expect(task.status).toBe(201);
      const taskId = (task.body as { id: number }).id;
      const day = new ScriptedDay(START, HOME).step(60, 36).step(240, 36, { heading: 0 });
      const off = routeDistance({ id: taskId, name: 'e2e route', line, begin: -Infinity, end: Infinity });
      const left = day.reports.find((r) => off(r) > 300)!.time as number;
      let early: Array<{ id: number; subject: string; begin: number; fired: number }> = [];
      const skewingOf = async () =>
        (
          await sql<{ id: number; subject: string; begin: Date; fired: Date }>`
          SELECT id, subject, begin_time AS begin, fired_at AS fired FROM alarm WHERE vehicle_id = ${vehicleId} AND type = 'Skewing'`.execute(
            rig.s.database.db,
          )
        ).rows.map((r) => ({
          id: r.id,
          subject: r.subject,
          begin: new Date(r.begin).getTime(),
          fired: new Date(r.fired).getTime(),
        }));
      await sendThroughFailingPasses(
        demoTerminal(22),
        day.reports,
        async () => {
          early = await skewingOf();
          expect(early).toEqual([{ id: expect.any(Number), subject: `task:${taskId}`, begin: left, fired: left + 120_000 }]);
          expect(announcedIds(vehicleId, 'Skewing')).toEqual([early[0].id]);
        },
        [],
        true,
      );
      expect(await skewingOf()).toEqual(early);
      expect(announcedIds(vehicleId, 'Skewing')).toEqual([early[0].id]);
    });
  });

  it("raises RepeatArrival where the third visit to one place has lasted a visit's minutes", async () => {
    await withPolicy(
      {
        name: 'p-RepeatArrival',
        alarmType: 'RepeatArrival',
        threshold: null,
        durationMinutes: null,
        params: { radiusM: 200, count: 3, windowHours: 1 },
      },
      async () => {
        // Arriving home, then three four-minute stops there, each followed by a minute's drive out and a minute back.
        const day = new ScriptedDay(START, HOME).step(60, 36, { heading: 270 }).step(60, 36, { heading: 90 });
        const visits: number[] = [];
        for (let i = 0; i < 3; i++) {
          visits.push(day.time);
          day.step(240, 0, { acc: false, every: 30 }).step(60, 36, { heading: 90 }).step(60, 36, { heading: 270 });
        }
        // Two hours later, a stretch that begins inside a stop: parked at home from t (reporting every
        // 5 minutes) to t + 20 min, a visit at t + 22 min, an hour away, a visit at t + 65 min. The
        // first stop truly began 65 minutes before the third visit, so within the hour there are two
        // visits, and no second alarm.
        const later = new ScriptedDay(START + 2 * 3_600_000, HOME)
          .step(20 * 60, 0, { acc: false, every: 300 })
          .step(60, 36, { heading: 90 })
          .step(60, 36, { heading: 270 })
          .step(240, 0, { acc: false, every: 30 })
          .step(60, 36, { heading: 90 })
          .step(37 * 60, 0, { acc: false, every: 60 })
          .step(60, 36, { heading: 270 });
        expect(later.time).toBe(START + 2 * 3_600_000 + 65 * 60_000);
        later.step(240, 0, { acc: false, every: 30 }).step(60, 36, { heading: 90 });
        const vehicleId = await rig.vehicleOf(demoTerminal(23));
        let early: Awaited<ReturnType<typeof alarmsOf>> = [];
        await sendThroughFailingPasses(
          demoTerminal(23),
          [...day.reports, ...later.reports],
          async () => {
            early = await alarmsOf(vehicleId, 'RepeatArrival');
            expect(early.map((a) => [a.begin, a.fired, a.end])).toEqual([[visits[2], visits[2] + 180_000, visits[2]]]);
            expect(announcedIds(vehicleId, 'RepeatArrival')).toEqual([early[0].id]);
          },
          [],
          true,
        );
        expect(await alarmsOf(vehicleId, 'RepeatArrival')).toEqual(early);
        expect(announcedIds(vehicleId, 'RepeatArrival')).toEqual([early[0].id]);
      },
    );
  });

  it("raises FuelDrain where a parked vehicle's level first reads as drained, and keeps that one alarm while the level goes on falling", async () => {
    // HN's FuelDrain policy. A minute's drive and two minutes parked at 200 L, derived; then siphoned
    // 10 L every 30 s while every pass fails; then, passes back, on down by 10 L a report.
    const day = new ScriptedDay(START, HOME).step(60, 36, { fuelL: 200 }).step(120, 0, { acc: false });
    const settled = day.reports.length;
    for (const level of [190, 180, 170, 160]) day.step(30, 0, { acc: false, fuelL: level });
    const failingFrom = settled;
    const failingTo = day.reports.length;
    for (const level of [150, 140, 130]) day.step(10, 0, { acc: false, fuelL: level });
    const vehicleId = await rig.vehicleOf(demoTerminal(24));
    const tank = (
      await sql<{ tank: number | null }>`SELECT tank_capacity AS tank FROM vehicle WHERE id = ${vehicleId}`.execute(rig.s.database.db)
    ).rows[0].tank;
    const seen = drainReadAt(day.reports, 6, Math.max(5, (tank ?? 0) * 0.05));
    expect(seen).toBeGreaterThan(failingFrom);
    expect(seen).toBeLessThan(failingTo);
    const drains = async () =>
      (
        await sql<{
          id: number;
          begin: Date;
          value: number;
        }>`SELECT id, begin_time AS begin, value FROM alarm WHERE vehicle_id = ${vehicleId} AND type = 'FuelDrain'`.execute(
          rig.s.database.db,
        )
      ).rows.map((r) => ({
        id: r.id,
        begin: new Date(r.begin).getTime(),
        value: r.value,
      }));
    let early: Awaited<ReturnType<typeof drains>> = [];
    const terminal = await sendThroughFailingPasses(
      demoTerminal(24),
      day.reports.slice(settled, failingTo + 1),
      async () => {
        early = await drains();
        expect(early.map((a) => a.begin)).toEqual([day.reports[seen].time]);
        expect(announcedIds(vehicleId, 'FuelDrain')).toEqual([early[0].id]);
      },
      [],
      true,
      [],
      day.reports.slice(0, settled),
    );
    // Each further report derived by a pass of its own: the drain grows (its last three levels’ median 140 L), its alarm stays one.
    for (const r of day.reports.slice(failingTo + 1)) {
      terminal.report(r);
      await terminal.drain(60_000);
      await rig.settled();
    }
    expect(await drains()).toEqual([{ id: early[0].id, begin: early[0].begin, value: 60 }]);
    expect(announcedIds(vehicleId, 'FuelDrain')).toEqual([early[0].id]);
    expect(rig.published.filter((p) => p.vehicleId === vehicleId && p.type === 'FuelDrain').map((p) => p.alarmId)).toEqual([early[0].id]);
  });
});
