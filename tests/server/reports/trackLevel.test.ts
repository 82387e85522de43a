import { sql } from 'kysely';
import { intelligenceDerivers } from '../../../server/intelligence';
import { DerivationPipeline } from '../../../server/intelligence/pipeline';
import { LEVEL_MINUTES, minuteRows, trackMinuteDeriver } from '../../../server/intelligence/track/minuteDeriver';
import { simplifyTrack } from '../../../server/reports/simplify';
import { pointAt, readTrack } from '../../../server/reports/track';
import { readTrackForSimplify } from '../../../server/reports/trackLevel';
import { playLegs } from '../../../server/simulator/dayScript';
import type { LocationInput } from '../../../server/telematics/jt808/codec';
import { ADMIN_PASSWORD, BACKENDS, startTestServer, type TestServer } from '../../helpers/testServer';
import { at, LEGS, START } from '../intelligence/days';
import { demoTerminal, startDeriveHarness, type DeriveHarness } from '../intelligence/harness';

const iso = (ms: number) => new Date(ms).toISOString();
/** The scripted day reporting every 5 s while driving: ~12 reports a driving minute, so the level pays. */
const denseDay = () => playLegs({ ...START }, LEGS, { driveEveryS: 5 });
const MAX_POINTS = 300;

type Db = TestServer['database']['db'];

/** The vehicle's level rows without the vehicle, by level and time. */
const levelOf = async (db: Db, vehicleId: number) =>
  (
    await db.selectFrom('track_minute').selectAll().where('vehicle_id', '=', vehicleId).orderBy('span_minutes').orderBy('minute').execute()
  ).map(({ vehicle_id: _v, ...r }) => r);

/** The level's rows as the deriver makes them from every stored report of the vehicle. */
const levelFromRaw = async (db: Db, vehicleId: number) => {
  const r = await sql<{
    ms: number;
    latitude: number;
    longitude: number;
    speed: number;
    direction: number;
    acc: boolean;
    mileage_km: number | null;
  }>`
    SELECT (extract(epoch FROM device_time) * 1000)::float8 AS ms, latitude, longitude, speed, direction, acc, mileage_km
    FROM position WHERE vehicle_id = ${vehicleId} ORDER BY device_time, terminal_id`.execute(db);
  const points = r.rows.map((p) => ({
    time: Math.round(Number(p.ms)),
    latitude: p.latitude,
    longitude: p.longitude,
    speed: Number(p.speed),
    direction: p.direction,
    acc: p.acc,
    mileageKm: p.mileage_km,
  }));
  const rows = LEVEL_MINUTES.flatMap((m) => minuteRows(vehicleId, points, m));
  // As the table answers them: real columns in float4, timestamps as Dates.
  return rows.map(({ vehicle_id: _v, ...row }) => ({
    ...row,
    max_speed: Math.fround(row.max_speed as number),
    minute: new Date(row.minute as Date),
  }));
};

/** A level and the raw read of a range agree: the same summary, the same ends, at most maxPoints points. */
async function expectAgreement(
  db: Db,
  vehicleId: number,
  from: number,
  to: number,
  maxPoints = MAX_POINTS,
  source: 'minutes' | 'tenMinutes' = 'minutes',
) {
  const level = await readTrackForSimplify(db, vehicleId, from, to, maxPoints);
  expect(level.source).toBe(source);
  const raw = await readTrack(db, vehicleId, from, to);
  expect(level.summary).toEqual(raw.summary);
  const kept = simplifyTrack(level.track, maxPoints);
  expect(kept.length).toBeLessThanOrEqual(maxPoints);
  expect(pointAt(level.track, kept[0])).toEqual(pointAt(raw.track, 0));
  expect(pointAt(level.track, kept[kept.length - 1])).toEqual(pointAt(raw.track, raw.track.length - 1));
  return { level, raw };
}

describe.each(BACKENDS)('the replay from the minute level on %s', (backend) => {
  let h: DeriveHarness;
  let admin: string;
  let vehicleId: number;
  const reports = denseDay();
  beforeAll(async () => {
    h = await startDeriveHarness(backend);
    admin = await h.s.login('admin', ADMIN_PASSWORD);
    const phone = demoTerminal(2);
    await h.send(await h.terminal(phone), reports, 'batch');
    await h.derived();
    vehicleId = await h.vehicleOf(phone);
  });
  afterAll(() => h.close());

  it('holds every report of the day, a row per minute and per ten minutes', async () => {
    const db = h.s.database.db;
    const level = await levelOf(db, vehicleId);
    expect(h.derivation.pipeline.stats.failures).toBe(0);
    // Each level holds every report once.
    for (const m of LEVEL_MINUTES) expect(level.filter((r) => r.span_minutes === m).reduce((s, r) => s + r.n, 0)).toBe(reports.length);
    expect(level).toEqual(await levelFromRaw(db, vehicleId));
  });

  it('answers the summary and the ends of the raw read, keeping where it stood and set off', async () => {
    const db = h.s.database.db;
    // Whole minutes, and edges inside minutes (read raw).
    await expectAgreement(db, vehicleId, at('00:00'), at('23:59'));
    await expectAgreement(db, vehicleId, at('07:41') + 25_000, at('14:20') + 35_000);
    // Fewer points wanted: the ten-minute level.
    await expectAgreement(db, vehicleId, at('00:00'), at('23:59'), 100, 'tenMinutes');
    await expectAgreement(db, vehicleId, at('00:13') + 25_000, at('23:21') + 35_000, 100, 'tenMinutes');

    const raw = await h.s.call(admin, 'POST', '/api/vehicle/track/replay', { vehicleId, begin: iso(at('00:00')), end: iso(at('23:59')) });
    const simple = await h.s.call(admin, 'POST', '/api/vehicle/track/replay', {
      vehicleId,
      begin: iso(at('00:00')),
      end: iso(at('23:59')),
      maxPoints: MAX_POINTS,
    });
    expect(simple.status).toBe(200);
    expect(simple.body.summary).toEqual(raw.body.summary);
    expect(simple.body.points.length).toBeLessThanOrEqual(MAX_POINTS);
    expect(simple.body.points.length).toBeGreaterThan(MAX_POINTS / 2);
    expect(simple.body.points[0]).toEqual(raw.body.points[0]);
    expect(simple.body.points.at(-1)).toEqual(raw.body.points.at(-1));
    const times: string[] = simple.body.points.map((p: [string]) => p[0]);
    expect([...times].sort()).toEqual(times);
    for (const hhmm of ['08:00', '09:03', '10:03', '10:43', '13:00', '13:30', '14:00', '14:30']) expect(times).toContain(iso(at(hhmm)));
    // Every stop shows standing points.
    expect(simple.body.stops.length).toBeGreaterThan(0);
    for (const stop of simple.body.stops as Array<{ begin: string; end: string }>)
      expect(simple.body.points.some((p: [string, number, number, number]) => p[0] >= stop.begin && p[0] <= stop.end && p[3] < 5)).toBe(
        true,
      );
  });

  it('takes a late upload into the middle of a derived range into its minutes', async () => {
    const db = h.s.database.db;
    const phone = demoTerminal(3);
    const late = (r: LocationInput) => Number(r.time) >= at('10:10') && Number(r.time) < at('10:20') + 30_000;
    const t = await h.terminal(phone);
    await h.send(
      t,
      reports.filter((r) => !late(r)),
      'batch',
    );
    await h.derived();
    const lateVehicle = await h.vehicleOf(phone);
    const before = await readTrackForSimplify(db, lateVehicle, at('00:00'), at('23:59'), MAX_POINTS);
    expect(before.source).toBe('minutes');
    await h.send(t, reports.filter(late), 'blind');
    await h.derived();
    const level = await levelOf(db, lateVehicle);
    expect(h.derivation.pipeline.stats.failures).toBe(0);
    for (const m of LEVEL_MINUTES) expect(level.filter((r) => r.span_minutes === m).reduce((s, r) => s + r.n, 0)).toBe(reports.length);
    expect(level).toEqual(await levelOf(db, vehicleId));
    const { level: after } = await expectAgreement(db, lateVehicle, at('00:00'), at('23:59'));
    // The late minutes are in the level's track now (first, fastest and last point of each).
    const inLate = (t: { length: number; time: Float64Array }) =>
      Array.from(t.time.subarray(0, t.length)).filter((ms) => ms >= at('10:10') && ms < at('10:20') + 30_000).length;
    expect(inLate(before.track)).toBe(0);
    expect(inLate(after.track)).toBeGreaterThanOrEqual(2 * 10);
  });

  it("is rebuilt by `npm run derive` (the pipeline with this feature's derivers), the same rows", async () => {
    const db = h.s.database.db;
    const rows = await levelOf(db, vehicleId);
    await db.deleteFrom('track_minute').where('vehicle_id', '=', vehicleId).execute();
    await db.deleteFrom('track_minute_cover').where('vehicle_id', '=', vehicleId).execute();
    // Without the level the replay reads raw, the same answer.
    expect((await readTrackForSimplify(db, vehicleId, at('00:00'), at('23:59'), MAX_POINTS)).source).toBe('raw');
    // What deriveCli runs for `--vehicle <id> --from 2026-11-20 --to 2026-11-20`.
    const pipeline = new DerivationPipeline({ db, timeZone: 'Asia/Shanghai', derivers: intelligenceDerivers() });
    await pipeline.rebuild(vehicleId, { from: at('00:00'), to: at('00:00') + 86_400_000 });
    expect(await levelOf(db, vehicleId)).toEqual(rows);
    await expectAgreement(db, vehicleId, at('00:00'), at('23:59'));
  });
});

/**
 * The summary's GNSS side: without an odometer (or with one that runs backwards) the distance is the
 * GNSS track with standing jitter left out, which the level sums per minute and the reader between
 * minutes; it must equal the raw read's to the metre.
 */
describe.each(BACKENDS)('the minute level without a trustworthy odometer on %s', (backend) => {
  let s: TestServer;
  let vehicleId: number;
  const from = Date.parse('2026-11-20T00:00:07Z');
  const N = 6000;
  beforeAll(async () => {
    s = await startTestServer(backend);
    const db = s.database.db;
    vehicleId = (await sql<{ id: number }>`SELECT id FROM vehicle ORDER BY id LIMIT 1`.execute(db)).rows[0].id;
    // Every 7 s: moving, then standing with jitter; the odometer absent mostly and once running backwards.
    await sql`INSERT INTO position (terminal_id, device_time, vehicle_id, latitude, longitude, speed, direction, acc, fixed, mileage_km)
      SELECT 900001, ${new Date(from)}::timestamptz + n * interval '7 seconds', ${vehicleId},
             31.2 + n * 0.0000123456789 + CASE WHEN n % 400 < 100 THEN 0.00001 * (n % 3) ELSE 0 END, 121.4 - n * 0.00000987654321,
             CASE WHEN n % 400 < 100 THEN (n % 4) * 1.3 ELSE 30 + (n % 11) * 3.7 END, (n * 13) % 360, n % 400 >= 100, true,
             CASE WHEN n % 50 = 0 THEN 10000 + n * 0.01 - CASE WHEN n = 3000 THEN 50 ELSE 0 END ELSE NULL END
      FROM generate_series(0, ${N - 1}) AS n`.execute(db);
    await new DerivationPipeline({ db, timeZone: 'Asia/Shanghai', derivers: [trackMinuteDeriver()] }).rebuild(vehicleId, {
      from: -Infinity,
      to: Infinity,
    });
  });
  afterAll(() => s.close());

  it('answers the raw summary, whole minutes and partial ones', async () => {
    const db = s.database.db;
    const { level } = await expectAgreement(db, vehicleId, from, from + N * 7_000);
    expect(level.summary.distanceKm).toBeGreaterThan(0);
    await expectAgreement(db, vehicleId, from + 3 * 60_000 + 13_000, from + 500 * 60_000 + 1_000);
    // Past the odometer running backwards: the odometer distance again, through the level.
    await expectAgreement(db, vehicleId, from + 400 * 60_000, from + 680 * 60_000);
    await expectAgreement(db, vehicleId, from + 3 * 60_000 + 13_000, from + 690 * 60_000 + 1_000, 100, 'tenMinutes');
  });

  it('reads what is not derived yet raw: a range past the watermark', async () => {
    const db = s.database.db;
    const extra = from + N * 7_000;
    await sql`INSERT INTO position (terminal_id, device_time, vehicle_id, latitude, longitude, speed, direction, acc, fixed)
      SELECT 900001, ${new Date(extra)}::timestamptz + n * interval '7 seconds', ${vehicleId}, 31.3 + n * 0.0001, 121.3, 40, 0, true, true
      FROM generate_series(0, 99) AS n`.execute(db);
    await expectAgreement(db, vehicleId, from, extra + 100 * 7_000);
  });
});
