import { sql, type Selectable } from 'kysely';
import type { BehaviourDayTable } from '../../../../server/platform/db/tables';
import { behaviourDeriver } from '../../../../server/intelligence/behaviour/deriver';
import { ADMIN_PASSWORD, BACKENDS } from '../../../helpers/testServer';
import { demoTerminal } from '../../telematics/gateway/harness';
import { startAlarmRig, type AlarmRig } from '../alarms/rig';
import { ScriptedDay } from '../alarms/scriptedDay';

/** 22:00 in Shanghai (the fleet's zone): the whole drive is night driving. */
const START = Date.parse('2026-11-20T14:00:00Z');
const DAY = '2026-11-20';
const HOME = { latitude: 31.2, longitude: 121.4 };

/**
 * A night drive with exactly one harsh acceleration, one harsh braking and one sharp turn, each
 * seen by 1 s reports, beside their traps: the same gain over 10 s reports, a gentle pick-up, a
 * tight turn at walking pace. Two minutes at 120 km/h (the OverSpeed policy says 100). Before it, a
 * resting battery at 11.5 V; during it, a trouble code and an overheating engine.
 */
function scriptedDay(): ScriptedDay['reports'] {
  const d = new ScriptedDay(START, HOME);
  d.step(5 * 60, 0, { acc: false, volts: 11.5 }); // parked, weak resting battery
  d.step(3, 0, { acc: true, every: 1 });
  d.step(1, 15, { every: 1, heading: 0 }).step(1, 30, { every: 1 }); // harsh acceleration: +30 km/h in 2 s
  d.step(10 * 60, 50); // cruise
  d.step(10, 80); // +30 km/h, but reports 10 s apart: says nothing
  d.step(5 * 60, 80);
  d.step(2 * 60, 120); // speeding
  d.step(5 * 60, 50, { dtcs: ['P0301'] }); // a trouble code
  d.step(1, 50, { every: 1 }).step(1, 35, { every: 1 }).step(1, 20, { every: 1 }); // harsh braking: −30 km/h in 2 s
  d.step(1, 25, { every: 1 }).step(1, 30, { every: 1 }); // a gentle pick-up
  d.step(60, 40, { dtcs: [] });
  d.step(1, 40, { every: 1, heading: 45 }).step(1, 40, { every: 1, heading: 90 }); // sharp turn at 40 km/h
  d.step(5 * 60, 50);
  d.step(1, 8, { every: 1, heading: 180 }).step(1, 8, { every: 1, heading: 270 }); // a tight turn at walking pace
  d.step(10, 8);
  d.step(5 * 60, 40);
  d.step(10 * 60, 0, { acc: false }); // parked: the trip ends
  const reports = d.reports;
  // The engine overheats for one report in the middle of the cruise.
  const hot = reports.findIndex((r) => Number(r.time) >= START + 12 * 60_000);
  reports[hot] = { ...reports[hot], extras: { ...(reports[hot].extras ?? {}), obd: { coolantTempC: 110 } } };
  return reports;
}

/** A behaviour_day row as the test reads it. */
type Behaviour = Omit<Selectable<BehaviourDayTable>, 'vehicle_id' | 'org_id'>;

jest.setTimeout(180_000);

describe.each(BACKENDS)('driving behaviour and health over a scripted day through the gateway on %s', (backend) => {
  let rig: AlarmRig;
  let hd: string;
  let outsider: string;
  const reports = scriptedDay();
  const db = () => rig.s.database.db;
  const rowsOf = async (vehicleId: number) => ({
    behaviour: (
      await sql<Behaviour>`SELECT day::text AS day, harsh_acceleration, harsh_braking, sharp_turn, speeding_s, fatigue, night_s, sources FROM behaviour_day WHERE vehicle_id = ${vehicleId} ORDER BY day`.execute(
        db(),
      )
    ).rows,
    health: (
      await sql<{
        faults: unknown;
      }>`SELECT day::text AS day, health_index, band, faults, min_battery_v, max_coolant_c, alarm_count FROM health_day WHERE vehicle_id = ${vehicleId} ORDER BY day`.execute(
        db(),
      )
    ).rows,
  });
  const criteria = (extra: object = {}) => ({ criteria: { begin: DAY, end: DAY, ...extra } });

  beforeAll(async () => {
    rig = await startAlarmRig(backend, { extraDerivers: [behaviourDeriver()] });
    hd = await rig.s.memberToken('HD', 'administrator');
    outsider = await rig.s.memberToken('HN-SZ', 'orgUser');
    for (const [alarmType, threshold, durationMinutes] of [
      ['OverSpeed', 100, 1],
      ['Fault', null, null],
    ] as const) {
      const r = await rig.s.call(hd, 'PUT', '/api/vehicle/policy', { name: `p-${alarmType}`, alarmType, threshold, durationMinutes });
      if (r.status !== 201) throw new Error(JSON.stringify(r.body));
    }
    const expert = await rig.s.call(await rig.s.login('admin', ADMIN_PASSWORD), 'POST', '/api/vehicle/expertFault', {
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
    await rig.send(demoTerminal(1), reports);
    // A server, a gateway and a day of reports: minutes, not seconds, on a machine shared with others.
  }, 300_000);
  afterAll(() => rig.close());

  it('counts each event once, and none at the traps', async () => {
    const { behaviour } = await rowsOf(await rig.vehicleOf(demoTerminal(1)));
    expect(behaviour).toEqual([
      {
        day: DAY,
        harsh_acceleration: 1,
        harsh_braking: 1,
        sharp_turn: 1,
        speeding_s: 120,
        fatigue: 0,
        night_s: expect.any(Number),
        sources: ['computed'],
      },
    ]);
    // Night: every second driven (the whole trip runs after 22:00), from the first moving report to the stop.
    const moving = reports.filter((r) => (r.speed ?? 0) >= 5).map((r) => Number(r.time));
    expect(behaviour[0].night_s).toBeGreaterThanOrEqual((moving.at(-1)! - moving[0]) / 1000);
    expect(behaviour[0].night_s).toBeLessThanOrEqual((moving.at(-1)! - moving[0]) / 1000 + 10);
  });

  it('derives the health index from the fault, the battery, the coolant and the alarms', async () => {
    const { health } = await rowsOf(await rig.vehicleOf(demoTerminal(1)));
    // 100 − 30 (high fault) − 15 (11.5 V resting) − 20 (110 °C) − 2 (one OverSpeed alarm) = 33.
    expect(health).toMatchObject([{ day: DAY, health_index: 33, band: 'fault', min_battery_v: 11.5, max_coolant_c: 110, alarm_count: 1 }]);
    const faults = typeof health[0].faults === 'string' ? JSON.parse(health[0].faults as string) : health[0].faults;
    expect(faults).toEqual([{ code: 'P0301', level: 'high', name: '1 缸失火', resolvent: '检查点火线圈与火花塞' }]);
  });

  it('scores the day as README says, ranks the fleet, and gives a vehicle that did not drive no score', async () => {
    const vehicleId = await rig.vehicleOf(demoTerminal(1));
    await rig.send(demoTerminal(4), new ScriptedDay(START, HOME).step(30 * 60, 0, { acc: false }).reports);
    const idleId = await rig.vehicleOf(demoTerminal(4));
    const ledger = (
      await sql<{
        km: number;
        s: number;
      }>`SELECT mileage_km AS km, driving_s AS s FROM ledger_day WHERE vehicle_id = ${vehicleId} AND day = ${DAY}`.execute(db())
    ).rows[0];
    expect(ledger.km).toBeGreaterThan(25);
    // 100 − 3 events × weight 1 × 1000 ÷ km − 120 s (moderate: 120 over 100) ÷ driving time × 100 × weight 1, within 0–100.
    const scored = (impact: number) => Math.round(Math.max(0, 100 - impact) * 10) / 10;
    const expected = scored(3000 / ledger.km + (120 / ledger.s) * 100);
    const r = await rig.s.call(hd, 'POST', '/api/vehicle/dailyDrivingBehavior/vehicleSafetyEchart', criteria());
    expect(r.status).toBe(200);
    expect(r.body.days).toEqual([
      expect.objectContaining({ date: DAY, score: expected, harshAcceleration: 1, harshBraking: 1, sharpTurn: 1, speedingS: 120 }),
    ]);
    expect(r.body.ranking[0]).toMatchObject({ rank: 1, vehicleId, score: expected });
    expect(r.body.ranking.find((x: { vehicleId: number }) => x.vehicleId === idleId)).toMatchObject({
      rank: null,
      score: null,
      distanceKm: 0,
    });
    const idle = await rig.s.call(hd, 'POST', '/api/vehicle/dailyDrivingBehavior/vehicleSafetyEchart', criteria({ vehicleId: idleId }));
    expect(idle.body.days).toEqual([expect.objectContaining({ date: DAY, score: null })]);

    const danger = await rig.s.call(hd, 'POST', '/api/vehicle/dailyDrivingBehavior/vehicleDangerEchart', criteria({ vehicleId }));
    expect(danger.body).toEqual([
      {
        date: DAY,
        harshAcceleration: 1,
        harshBraking: 1,
        sharpTurn: 1,
        fatigue: 0,
        distraction: 0,
        speedingS: 120,
        nightS: expect.any(Number),
      },
    ]);

    // A preview with other weights changes the score and saves nothing; saving them does the same.
    const weights = { harshAcceleration: 0.1, harshBraking: 0.2, sharpTurn: 0, speedingModerate: 0 };
    const withWeights = scored(300 / ledger.km);
    expect(withWeights).not.toBe(expected);
    const preview = await rig.s.call(hd, 'POST', '/api/vehicle/dailyDrivingBehavior/safetyPreview', {
      ...criteria({ vehicleId }),
      weights,
    });
    expect(preview.body.days[0].score).toBe(withWeights);
    expect(
      (await rig.s.call(hd, 'POST', '/api/vehicle/dailyDrivingBehavior/vehicleSafetyEchart', criteria({ vehicleId }))).body.days[0].score,
    ).toBe(expected);
    const orgId = await rig.s.orgId('HD');
    const put = await rig.s.call(hd, 'PUT', `/api/vehicle/safetySetting/${orgId}`, { weights });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      orgId,
      inheritedFrom: null,
      weights: { harshAcceleration: 0.1, harshBraking: 0.2, sharpTurn: 0, speedingLight: 1, speedingModerate: 0, fatigue: 2 },
    });
    expect(
      (await rig.s.call(hd, 'POST', '/api/vehicle/dailyDrivingBehavior/vehicleSafetyEchart', criteria({ vehicleId }))).body.days[0].score,
    ).toBe(withWeights);
    // Its sub-organisations inherit them.
    const sh = await rig.s.orgId('HD-SH');
    expect((await rig.s.call(hd, 'GET', `/api/vehicle/safetySetting/${sh}`)).body).toMatchObject({
      orgId: sh,
      inheritedFrom: orgId,
      weights: { harshBraking: 0.2 },
    });
    await rig.s.call(hd, 'PUT', `/api/vehicle/safetySetting/${orgId}`, {
      weights: { harshAcceleration: 1, harshBraking: 1, sharpTurn: 1, speedingModerate: 1 },
    });
  });

  it('answers the health routes: trend, bands and totals', async () => {
    const vehicleId = await rig.vehicleOf(demoTerminal(1));
    const trend = await rig.s.call(hd, 'POST', '/api/vehicle/vehicleDailyHealth/vehicleDailyHealthEchart', criteria({ vehicleId }));
    expect(trend.body).toEqual([{ date: DAY, index: 33, vehicles: 1, healthy: 0, attention: 0, fault: 1 }]);
    const fleet = await rig.s.call(hd, 'POST', '/api/vehicle/vehicleDailyHealth/vehicleDailyHealthFleet', criteria());
    expect(fleet.body.fault.map((v: { vehicleId: number }) => v.vehicleId)).toContain(vehicleId);
    expect(fleet.body.fault[0]).toMatchObject({
      vehicleId,
      index: 33,
      faults: [{ code: 'P0301', resolvent: '检查点火线圈与火花塞', cause: '点火线圈老化' }],
    });
    const total = await rig.s.call(hd, 'POST', '/api/vehicle/vehicleDailyHealth/total', criteria());
    expect(total.body).toMatchObject({ fault: 1, openFaults: 1 });
    expect(total.body.vehicles).toBe(total.body.healthy + total.body.attention + total.body.fault);
  });

  it('refuses bad input with localised messages, and hides vehicles outside the scope', async () => {
    const vehicleId = await rig.vehicleOf(demoTerminal(1));
    expect(
      (await rig.s.call(outsider, 'POST', '/api/vehicle/dailyDrivingBehavior/vehicleSafetyEchart', criteria({ vehicleId }))).status,
    ).toBe(404);
    expect((await rig.s.call(outsider, 'POST', '/api/vehicle/vehicleDailyHealth/total', criteria({ vehicleId }))).status).toBe(404);
    const backwards = await rig.s.call(
      hd,
      'POST',
      '/api/vehicle/vehicleDailyHealth/total',
      { criteria: { begin: DAY, end: '2026-11-01' } },
      'zh-CN',
    );
    expect(backwards.status).toBe(400);
    const orgId = await rig.s.orgId('HD');
    const heavy = await rig.s.call(hd, 'PUT', `/api/vehicle/safetySetting/${orgId}`, { weights: { speedingSevere: 11 } }, 'en-US');
    expect(heavy.status).toBe(400);
    expect(JSON.stringify(heavy.body)).toContain('Severe speeding');
    const night = await rig.s.call(
      hd,
      'PUT',
      `/api/vehicle/safetySetting/${orgId}`,
      { thresholds: { nightFromHour: 5, nightToHour: 5 } },
      'zh-CN',
    );
    expect(night.status).toBe(400);
    expect(JSON.stringify(night.body)).toContain('夜间开始与结束不能是同一小时');
    const preview = await rig.s.call(hd, 'POST', '/api/vehicle/dailyDrivingBehavior/safetyPreview', {
      ...criteria(),
      weights: { fatigue: -1 },
    });
    expect(preview.status).toBe(400);
    // Without the code, no edit; the member of another branch cannot touch HD's settings.
    const plain = await rig.s.memberToken('HD', 'orgUser');
    expect((await rig.s.call(plain, 'PUT', `/api/vehicle/safetySetting/${orgId}`, { weights: { speedingLight: 2 } })).status).toBe(403);
    expect((await rig.s.call(outsider, 'GET', `/api/vehicle/safetySetting/${orgId}`)).status).toBe(400);
  });

  it('gives the same rows when the first half arrives last, as a blind-area upload, and on a rebuild', async () => {
    const a = await rowsOf(await rig.vehicleOf(demoTerminal(1)));
    const split = Math.floor(reports.length / 2);
    await rig.send(demoTerminal(2), reports.slice(split));
    await rig.send(demoTerminal(2), reports.slice(0, split), { blind: true });
    const other = await rig.vehicleOf(demoTerminal(2));
    expect(await rowsOf(other)).toEqual(a);
    await rig.derivation.pipeline.rebuild(other, { from: -Infinity, to: Infinity });
    expect(await rowsOf(other)).toEqual(a);
  });

  it("counts the time over a fence's speed limit as speeding, from when the fence's dwell has settled", async () => {
    // Far from the other drives: a 10 km zone limited to 40 km/h, under the policy's 100.
    const ZONE = { latitude: 30.5, longitude: 120.5 };
    const fence = await rig.s.call(hd, 'PUT', '/api/vehicle/fence', {
      name: 'slow zone',
      fenceType: 'circle',
      geometry: { center: [ZONE.longitude, ZONE.latitude], radius: 10_000 },
      dwellSeconds: 30,
      speedLimit: 40,
    });
    expect(fence.status).toBeLessThan(300);
    const d = new ScriptedDay(START, ZONE);
    d.step(60, 0, { acc: false });
    d.step(4 * 60, 50, { heading: 0 }); // 50 km/h inside: 4 min over the zone's limit, less the 30 s dwell
    d.step(4 * 60, 30); // under it
    d.step(5 * 60, 0, { acc: false });
    await rig.send(demoTerminal(5), d.reports);
    const vehicleId = await rig.vehicleOf(demoTerminal(5));
    const { behaviour } = await rowsOf(vehicleId);
    // The vehicle starts inside: the data settles on inside after the dwell (30 s), before it drives.
    expect(behaviour).toEqual([expect.objectContaining({ day: DAY, speeding_s: 240 })]);
    const alarms = (
      await sql<{ type: string; value: number }>`SELECT type, value FROM alarm WHERE vehicle_id = ${vehicleId} ORDER BY begin_time`.execute(
        db(),
      )
    ).rows;
    expect(alarms).toEqual([{ type: 'OverSpeed', value: 50 }]);
    // The same day sent live, a few reports a pass: each pass carries the fence's walk on from the last.
    for (let i = 0; i < d.reports.length; i += 4) await rig.send(demoTerminal(6), d.reports.slice(i, i + 4));
    expect((await rowsOf(await rig.vehicleOf(demoTerminal(6)))).behaviour).toEqual([
      expect.objectContaining({ day: DAY, speeding_s: 240 }),
    ]);
    // Without the fence the same day has no speeding at all.
    await sql`UPDATE fence SET speed_limit = NULL WHERE id = ${fence.body.id as number}`.execute(db());
    await rig.derivation.pipeline.rebuild(vehicleId, { from: -Infinity, to: Infinity });
    expect((await rowsOf(vehicleId)).behaviour).toEqual([expect.objectContaining({ speeding_s: 0 })]);
  });

  it('gives the same day sent live, a few reports a pass (each pass carrying on from the last), as one rebuild', async () => {
    const phone = demoTerminal(2);
    for (let i = 0; i < reports.length; i += 7) await rig.send(phone, reports.slice(i, i + 7));
    const vehicleId = await rig.vehicleOf(phone);
    const live = await rowsOf(vehicleId);
    expect(live.behaviour).toEqual([expect.objectContaining({ harsh_acceleration: 1, harsh_braking: 1, sharp_turn: 1, speeding_s: 120 })]);
    expect(live.health).toEqual([expect.objectContaining({ min_battery_v: 11.5, max_coolant_c: 110 })]);
    await rig.derivation.pipeline.rebuild(vehicleId, { from: -Infinity, to: Infinity });
    expect(await rowsOf(vehicleId)).toEqual(live);
  });

  describe('the explanation of the score, and reviews', () => {
    const EXPLAIN = '/api/vehicle/dailyDrivingBehavior/safetyExplain';
    const REVIEW = '/api/vehicle/dailyDrivingBehavior/safetyEvent/review';
    interface Explained {
      score: number;
      orgId: number;
      weightsFrom: number | null;
      distanceKm: number;
      drivingS: number;
      percentile: number | null;
      peers: number;
      begin: string;
      end: string;
      events: Array<{
        kind: string;
        at: string;
        latitude: number | null;
        longitude: number | null;
        severity: string | null;
        durationS: number;
        weight: number;
        share: number;
        impact: number;
        review: { state: string; note: string; reviewedBy: string | null } | null;
      }>;
    }
    const explain = async (vehicleId: number, lang = 'zh-CN') => {
      const r = await rig.s.call(hd, 'POST', EXPLAIN, { criteria: { vehicleId, end: DAY } }, lang);
      expect(r.status).toBe(200);
      return r.body as Explained;
    };
    // Light weights keep the score above 0, so each share shows in full.
    const light = { harshAcceleration: 0.1, harshBraking: 0.2, sharpTurn: 0.1, speedingModerate: 1, night: 0 };
    let vehicleId: number;
    let orgId: number;

    beforeAll(async () => {
      vehicleId = await rig.vehicleOf(demoTerminal(1));
      orgId = (await explain(vehicleId)).orgId;
      expect((await rig.s.call(hd, 'PUT', `/api/vehicle/safetySetting/${orgId}`, { weights: light })).status).toBe(200);
    });

    it('lists each event with its place, weight and share over four weeks, computed as the docs say', async () => {
      const x = await explain(vehicleId);
      expect(x).toMatchObject({ begin: '2026-10-24', end: DAY, weightsFrom: orgId });
      expect(x.events.map((e) => e.kind).sort()).toEqual(['harshAcceleration', 'harshBraking', 'night', 'sharpTurn', 'speeding']);
      for (const e of x.events) {
        expect(e.latitude).toBeCloseTo(HOME.latitude, 0);
        expect(e.longitude).toBeCloseTo(HOME.longitude, 0);
      }
      const byKind = Object.fromEntries(x.events.map((e) => [e.kind, e]));
      expect(byKind.speeding).toMatchObject({ severity: 'moderate', durationS: 120, weight: 1 });
      expect(byKind.harshBraking.weight).toBe(0.2);
      // Per 1,000 km for harsh events, per cent of driving time for speeding; night weighs 0.
      expect(byKind.harshBraking.share).toBeCloseTo((0.2 * 1000) / x.distanceKm, 9);
      expect(byKind.speeding.share).toBeCloseTo((120 / x.drivingS) * 100, 9);
      expect(byKind.night.share).toBe(0);
      const total = x.events.reduce((sum, e) => sum + e.share, 0);
      expect(x.score).toBeCloseTo(100 - total, 9);
      expect(x.score).toBeGreaterThan(0);
      expect(x.percentile === null).toBe(x.peers === 0);
    });

    it('raises the score by exactly the share of a dismissed event, audits the review, and keeps it through re-derivation', async () => {
      const before = await explain(vehicleId);
      const braking = before.events.find((e) => e.kind === 'harshBraking')!;
      const r = await rig.s.call(hd, 'PUT', REVIEW, {
        vehicleId,
        kind: 'harshBraking',
        at: braking.at,
        state: 'dismissed',
        note: '误报：过减速带',
      });
      expect(r.status).toBe(200);
      const after = await explain(vehicleId);
      expect(after.score - before.score).toBeCloseTo(braking.share, 9);
      const dismissed = after.events.find((e) => e.kind === 'harshBraking')!;
      expect(dismissed).toMatchObject({ share: 0, impact: braking.share, review: { state: 'dismissed', note: '误报：过减速带' } });
      expect(dismissed.review!.reviewedBy).toEqual(expect.any(String));
      // The day's report counts it no more either.
      const danger = await rig.s.call(hd, 'POST', '/api/vehicle/dailyDrivingBehavior/vehicleDangerEchart', criteria({ vehicleId }));
      expect(danger.body[0]).toMatchObject({ harshBraking: 0, harshAcceleration: 1 });
      const audit = (
        await sql<{
          target: string;
          detail: string;
        }>`SELECT target, detail FROM audit_log WHERE action = 'safetyEventReview' ORDER BY id`.execute(db())
      ).rows;
      expect(audit.at(-1)!.target).toBe(`vehicle:${vehicleId}`);
      expect(JSON.parse(audit.at(-1)!.detail)).toMatchObject({ kind: 'harshBraking', at: braking.at, state: 'dismissed', before: null });

      // Coached: reviewed, still counted.
      const turn = after.events.find((e) => e.kind === 'sharpTurn')!;
      expect(
        (await rig.s.call(hd, 'PUT', REVIEW, { vehicleId, kind: 'sharpTurn', at: turn.at, state: 'coached', note: '已面谈' })).status,
      ).toBe(200);
      const coached = await explain(vehicleId);
      expect(coached.score).toBeCloseTo(after.score, 9);
      expect(coached.events.find((e) => e.kind === 'sharpTurn')).toMatchObject({ share: turn.share, review: { state: 'coached' } });

      // A rebuild derives the events again; the reviews stay and apply.
      await rig.derivation.pipeline.rebuild(vehicleId, { from: -Infinity, to: Infinity });
      expect(await explain(vehicleId)).toEqual(coached);
      // A threshold that no longer sees the braking drops the event, never its review; back again, it applies again.
      const hardOnly = await rig.s.call(hd, 'PUT', `/api/vehicle/safetySetting/${orgId}`, { thresholds: { harshBrakingKmh: 60 } });
      expect(hardOnly.status).toBe(200);
      await rig.derivation.pipeline.rebuild(vehicleId, { from: -Infinity, to: Infinity });
      expect((await explain(vehicleId)).events.map((e) => e.kind)).not.toContain('harshBraking');
      const kept = await sql<{ n: number }>`SELECT count(*)::int AS n FROM behaviour_review WHERE vehicle_id = ${vehicleId}`.execute(db());
      expect(kept.rows[0].n).toBe(2);
      await rig.s.call(hd, 'PUT', `/api/vehicle/safetySetting/${orgId}`, { thresholds: { harshBrakingKmh: 26 } });
      await rig.derivation.pipeline.rebuild(vehicleId, { from: -Infinity, to: Infinity });
      expect(await explain(vehicleId)).toEqual(coached);
    });

    it("applies its own organisation's weights (or its nearest ancestor's), never another's", async () => {
      const before = await explain(vehicleId);
      const other = await rig.s.orgId('HN');
      expect(other).not.toBe(orgId);
      const admin = await rig.s.login('admin', ADMIN_PASSWORD);
      expect(
        (
          await rig.s.call(admin, 'PUT', `/api/vehicle/safetySetting/${other}`, {
            weights: { harshAcceleration: 10, speedingModerate: 10 },
          })
        ).status,
      ).toBe(200);
      const after = await explain(vehicleId);
      expect(after.score).toBe(before.score);
      expect(after.weightsFrom).toBe(orgId);
      expect(after.events.find((e) => e.kind === 'harshAcceleration')!.weight).toBe(0.1);
    });

    it('refuses bad reviews and windows with localised messages, and hides what is outside the scope', async () => {
      const x = await explain(vehicleId);
      const at = x.events.find((e) => e.kind === 'speeding')!.at;
      const good = { vehicleId, kind: 'speeding', at, state: 'coached', note: '已提醒' };
      const noNote = await rig.s.call(hd, 'PUT', REVIEW, { ...good, note: undefined }, 'en-US');
      expect(noNote.status).toBe(400);
      expect(JSON.stringify(noNote.body)).toContain('Note');
      const blank = await rig.s.call(hd, 'PUT', REVIEW, { ...good, note: '   ' }, 'zh-CN');
      expect(blank.status).toBe(400);
      expect(JSON.stringify(blank.body)).toContain('备注');
      const badState = await rig.s.call(hd, 'PUT', REVIEW, { ...good, state: 'deleted' }, 'es-ES');
      expect(badState.status).toBe(400);
      expect(JSON.stringify(badState.body)).toContain('Revisión');
      const noEvent = await rig.s.call(hd, 'PUT', REVIEW, { ...good, at: '2026-11-20T00:00:00.000Z' }, 'ja-JP');
      expect(noEvent.status).toBe(404);
      // An administrator of another branch holds the code, and still does not see the vehicle.
      const otherAdmin = await rig.s.memberToken('HN-SZ', 'administrator');
      expect((await rig.s.call(otherAdmin, 'PUT', REVIEW, good)).status).toBe(404);
      expect((await rig.s.call(outsider, 'POST', EXPLAIN, { criteria: { vehicleId } })).status).toBe(404);
      const plain = await rig.s.memberToken('HD', 'orgUser');
      expect((await rig.s.call(plain, 'PUT', REVIEW, good)).status).toBe(403);
      const weeks = await rig.s.call(hd, 'POST', EXPLAIN, { criteria: { vehicleId, weeks: 0 } }, 'en-US');
      expect(weeks.status).toBe(400);
      expect(JSON.stringify(weeks.body)).toContain('Weeks');
      // Nothing was written by the refused calls.
      const reviews = await sql<{ kind: string }>`SELECT kind FROM behaviour_review WHERE vehicle_id = ${vehicleId} ORDER BY kind`.execute(
        db(),
      );
      expect(reviews.rows.map((r) => r.kind)).toEqual(['harshBraking', 'sharpTurn']);
    });
  });
});
