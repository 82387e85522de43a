import { sql } from 'kysely';
import { readTrack, trackPages } from '../../../server/reports/track';
import { BACKENDS, startTestServer, type TestServer } from '../../helpers/testServer';

/**
 * The track reader joins each page into one text value in the database and splits it again; what
 * it answers must be exactly the rows a plain query reads, in device-time order, whatever the page
 * size, with absent odometers kept absent and rows sharing an instant never split across pages.
 */
describe.each(BACKENDS)('reading a track on %s', (backend) => {
  let s: TestServer;
  let vehicleId: number;
  const from = Date.parse('2026-11-20T00:00:00Z');
  const N = 257;
  beforeAll(async () => {
    s = await startTestServer(backend);
    const db = s.database.db;
    vehicleId = (await sql<{ id: number }>`SELECT id FROM vehicle ORDER BY id LIMIT 1`.execute(db)).rows[0].id;
    await sql`INSERT INTO position (terminal_id, device_time, vehicle_id, latitude, longitude, speed, direction, acc, fixed, mileage_km)
      SELECT 900001, ${new Date(from)}::timestamptz + n * interval '10 seconds', ${vehicleId},
             31.2 + n * 0.000123456789, 121.4 - n * 0.0000987654321, (n % 7) * 10.5, (n * 13) % 360, n % 5 <> 0, true,
             CASE WHEN n % 4 = 0 THEN NULL ELSE 10000 + n * 0.1 END
      FROM generate_series(0, ${N - 1}) AS n`.execute(db);
    // A second terminal of the vehicle reporting at the same instant as the first's 100th report.
    await sql`INSERT INTO position (terminal_id, device_time, vehicle_id, latitude, longitude, speed, direction, acc, fixed, mileage_km)
      VALUES (900002, ${new Date(from + 99 * 10_000)}, ${vehicleId}, 31.5, 121.5, 0, 0, false, true, NULL)`.execute(db);
  });
  afterAll(() => s.close());

  const plain = async () =>
    (
      await sql<{
        ms: number;
        latitude: number;
        longitude: number;
        speed: number;
        direction: number;
        acc: boolean;
        mileage_km: number | null;
      }>`
        SELECT (extract(epoch FROM device_time) * 1000)::float8 AS ms, latitude, longitude, speed, direction, acc, mileage_km
        FROM position WHERE vehicle_id = ${vehicleId} ORDER BY device_time, terminal_id`.execute(s.database.db)
    ).rows.map((r) => [Number(r.ms), r.latitude, r.longitude, Math.round(Number(r.speed) * 10) / 10, r.direction, r.acc, r.mileage_km]);

  it.each([10_000, 100, 99, 7])('answers every row as a plain query does, in pages of %i', async (pageSize) => {
    const read: unknown[][] = [];
    for await (const p of trackPages(s.database.db, vehicleId, from, from + N * 10_000, pageSize))
      for (let i = 0; i < p.length; i++)
        read.push([
          p.time[i],
          p.latitude[i],
          p.longitude[i],
          Math.round(p.speed[i] * 10) / 10,
          p.direction[i],
          p.acc[i] === 1,
          Number.isNaN(p.mileage[i]) ? null : p.mileage[i],
        ]);
    const expected = await plain();
    expect(read).toHaveLength(N + 1);
    // Rows sharing an instant come in either order; sorted by time then latitude they must match.
    const key = (r: unknown[]) => `${r[0]}|${r[1]}`;
    expect(read.map(key).sort()).toEqual(expected.map(key).sort());
    expect([...read].sort((a, b) => (key(a) < key(b) ? -1 : 1))).toEqual([...expected].sort((a, b) => (key(a) < key(b) ? -1 : 1)));
    for (let i = 1; i < read.length; i++) expect(read[i][0] as number).toBeGreaterThanOrEqual(read[i - 1][0] as number);
  });

  it('sums the track as the rows say: duration, top speed and the odometer distance', async () => {
    const { track, summary } = await readTrack(s.database.db, vehicleId, from, from + N * 10_000);
    expect(track.length).toBe(N + 1);
    expect(summary.durationS).toBe((N - 1) * 10);
    expect(summary.maxSpeed).toBeCloseTo(63, 5);
    // The odometer of the last report that has one minus the first's: reports 1 and 255.
    expect(summary.distanceKm).toBeCloseTo((255 - 1) * 0.1, 3);
  });

  it('answers nothing for a range without reports', async () => {
    const { track, summary } = await readTrack(s.database.db, vehicleId, from - 86_400_000, from - 1);
    expect(track.length).toBe(0);
    expect(summary).toEqual({ distanceKm: 0, durationS: 0, maxSpeed: 0 });
  });
});
