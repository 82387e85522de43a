import { sql } from 'kysely';
import { behaviourDeriver } from '../../../server/intelligence/behaviour/deriver';
import type { LocationInput } from '../../../server/telematics/jt808/codec';
import { BACKENDS } from '../../helpers/testServer';
import { demoTerminal } from './harness';
import { startAlarmRig, type AlarmRig } from './alarms/rig';
import { ScriptedDay } from './alarms/scriptedDay';

const START = Date.parse('2026-11-14T00:00:00Z');
const HOME = { latitude: 31.2, longitude: 121.4 };
/** The tables every deriver of the engine writes, per vehicle. */
const DERIVED = [
  'trip',
  'trip_stop',
  'fuel_event',
  'ledger_day',
  'track_minute',
  'behaviour_day',
  'health_day',
  'behaviour_event',
] as const;

/**
 * A vehicle parked for days that keeps sending heartbeats: the trips deriver walks its window back
 * to the trip before the stop, for itself, but the derivers after it (the alarms, behaviour) are
 * handed only their own widening of each live pass while nothing the trips changed lies before it
 * (Deriver.widensForItself): a few positions a pass, not the days of the stop. Every derived row
 * is what a rebuild of all the vehicle's history gives, with a late upload inside the stop too.
 */
describe.each(BACKENDS)('a vehicle parked for days, derived live, on %s', (backend) => {
  let rig: AlarmRig;
  beforeAll(async () => {
    rig = await startAlarmRig(backend, { extraDerivers: [behaviourDeriver()] });
    const hd = await rig.s.memberToken('HD', 'administrator');
    for (const body of [
      { name: 'p-Trail', alarmType: 'Trail', threshold: null, durationMinutes: null },
      { name: 'p-FuelDrain', alarmType: 'FuelDrain', threshold: null, durationMinutes: null },
    ]) {
      const r = await rig.s.call(hd, 'PUT', '/api/vehicle/policy', body);
      if (r.status !== 201) throw new Error(JSON.stringify(r.body));
    }
  }, 600_000);
  afterAll(() => rig.close());

  /** Every derived row of the vehicle (ids aside), and its alarms. */
  const derived = async (vehicleId: number) => {
    const db = rig.s.database.db;
    const out: Record<string, unknown[]> = {};
    for (const table of DERIVED)
      out[table] = (
        await sql<{
          row: unknown;
        }>`SELECT to_jsonb(t) - 'id' AS row FROM ${sql.table(table)} t WHERE vehicle_id = ${vehicleId} ORDER BY (to_jsonb(t) - 'id')::text`.execute(
          db,
        )
      ).rows.map((r) => r.row);
    out.alarm = (
      await sql<{ row: unknown }>`
      SELECT jsonb_build_object('type', type, 'subject', subject, 'begin', begin_time, 'end', end_time, 'value', value, 'level', level, 'detail', detail, 'state', state) AS row
      FROM alarm WHERE vehicle_id = ${vehicleId} ORDER BY begin_time, type, subject, state`.execute(db)
    ).rows.map((r) => r.row);
    return out;
  };

  /** Sends each report live, derived before the next; answers the positions the alarms and behaviour were handed per pass. */
  const live = async (phone: string, reports: readonly LocationInput[]) => {
    const handed: number[] = [];
    for (const r of reports) {
      const before = { ...(await rig.derivation.stats()).positionsHanded };
      await rig.send(phone, [r]);
      const after = (await rig.derivation.stats()).positionsHanded;
      handed.push(Math.max(after.alarms - before.alarms, after.behaviour - before.behaviour));
    }
    return handed;
  };

  it('hands the alarms and behaviour a few positions a pass after three days parked, and derives what a rebuild does', async () => {
    const phone = demoTerminal(13);
    const vehicleId = await rig.vehicleOf(phone);
    // Two trips, then three days parked with the ignition off, a heartbeat every ten minutes; the
    // tank drained half-way through the stop (a FuelDrain inside it).
    const day = new ScriptedDay(START, HOME)
      .step(20 * 60, 0, { acc: false, every: 300, fuelL: 90 })
      .step(20 * 60, 40, { every: 60, fuelL: 89 })
      .step(20 * 60, 0, { acc: false, every: 120 })
      .step(30 * 60, 40, { every: 60, heading: 270, fuelL: 87 })
      .step(36 * 3600, 0, { acc: false, every: 600 })
      .step(36 * 3600, 0, { acc: false, every: 600, fuelL: 20 });
    await rig.send(phone, day.reports, { blind: true, chunk: 200 });
    const stored = await derived(vehicleId);
    expect(stored.fuel_event).toEqual([expect.objectContaining({ kind: 'drain' })]);
    expect(stored.alarm).toEqual([expect.objectContaining({ type: 'FuelDrain' })]);
    // Heartbeats live: each pass hands the later derivers the policies' minute of look-back, not
    // the ~490 reports since the trip before the stop.
    const more = new ScriptedDay(day.time, day.position);
    more.step(20 * 60, 0, { acc: false, every: 120 });
    expect(Math.max(...(await live(phone, more.reports)))).toBeLessThan(10);
    // A late upload inside the stop: the trips walk their window afresh; the next passes go on as before.
    const late = new ScriptedDay(START + 40 * 3600_000 + 300_000, day.position).step(3600, 0, { acc: false, every: 600, fuelL: 87 });
    await rig.send(phone, late.reports, { blind: true });
    const after = new ScriptedDay(more.time, more.position);
    after.step(10 * 60, 0, { acc: false, every: 120 });
    expect(Math.max(...(await live(phone, after.reports)))).toBeLessThan(10);
    // Then it drives off and parks again: while a trip is open its row changes on every pass, and
    // the later derivers get the trips' whole window; parked again, a few positions once more.
    const drive = new ScriptedDay(after.time, after.position);
    drive.step(15 * 60, 40, { every: 60, heading: 90 }).step(20 * 60, 0, { acc: false, every: 120 });
    const driving = await live(phone, drive.reports);
    expect(Math.max(...driving.slice(-3))).toBeLessThan(10);
    const passes = await derived(vehicleId);
    expect(passes.trip).toHaveLength(3);
    await rig.derivation.pipeline.rebuild(vehicleId, { from: -Infinity, to: Infinity });
    expect(await derived(vehicleId)).toEqual(passes);
    const announced = rig.raised.filter((a) => a.vehicleId === vehicleId).map((a) => a.id);
    expect(new Set(announced).size).toBe(announced.length);
  }, 600_000);
});
