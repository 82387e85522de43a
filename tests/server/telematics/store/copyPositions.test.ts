/**
 * The COPY storage path stores exactly what the unnest statement stores: the same rows, the same
 * inserted keys (duplicates left out), text that COPY's format would misread kept intact, and a
 * batch that fails leaves nothing behind.
 */
import { sql } from 'kysely';
import type { PositionRecord } from '../../../../server/platform/telemetry';
import { copyPositions, copyText } from '../../../../server/telematics/store/copyPositions';
import { insertPositions } from '../../../../server/telematics/store/writer';
import { startTestServer, type TestServer } from '../../../helpers/testServer';

const T0 = Date.parse('2026-11-20T00:00:00Z');
const position = (terminalId: number, i: number, extras: PositionRecord['extras'] = null): PositionRecord => ({
  terminalId,
  vehicleId: null,
  deviceTime: T0 + i * 1000,
  latitude: 31.2304 + i * 1e-6,
  longitude: -121.4737,
  altitude: -3,
  speed: 42.5,
  direction: 359,
  alarm: 0xffffffff,
  status: 3,
  acc: i % 2 === 0,
  fixed: true,
  mileageKm: i === 1 ? null : 1000.25,
  fuelL: null,
  blind: i === 2,
  extras,
  dtcs: i === 3 ? ['P0301', 'U0100'] : null,
});

describe('positions stored with COPY (PostgreSQL)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer('postgres');
  });
  afterAll(() => s.close());

  const rows = (terminalId: number) =>
    sql<
      Record<string, unknown>
    >`SELECT device_time, latitude, longitude, altitude, speed, direction, alarm, status, acc, fixed, mileage_km, fuel_l, blind, extras
      FROM position WHERE terminal_id = ${terminalId} ORDER BY device_time`
      .execute(s.database.db)
      .then((r) => r.rows);

  it('stores the same rows and reports the same inserted keys as the unnest statement', async () => {
    const awkward = { text: 'tab\there, back\\slash, new\nline, cr\r, \\N, 中文', n: 1.5 };
    const batch = (t: number) => [position(t, 0, awkward), position(t, 1), position(t, 2, { a: [1, null] }), position(t, 3)];
    const viaCopy = await copyPositions(s.database.pool!, batch(880_001));
    const viaUnnest = await insertPositions(s.database.db, batch(880_002));
    expect([...viaCopy].map((k) => k.split('|')[1])).toEqual([...viaUnnest].map((k) => k.split('|')[1]));
    expect(viaCopy.size).toBe(4);
    expect(await rows(880_001)).toEqual(await rows(880_002));
    expect((await rows(880_001))[0].extras).toEqual(awkward);
    // Again with one new position: only that one is reported inserted.
    const again = await copyPositions(s.database.pool!, [...batch(880_001), position(880_001, 9)]);
    expect([...again]).toEqual([`880001|${T0 + 9000}`]);
  });

  it('writes one line per position with COPY text escapes', () => {
    const text = copyText([position(1, 1, { s: 'a\tb' })]);
    expect(text.split('\n')).toHaveLength(2);
    expect(text).toContain('{"s":"a\\\\tb"}'); // JSON's \t, its backslash doubled for COPY
    expect(text).toContain('\t\\N\t'); // null mileage
  });

  it('leaves nothing behind when a batch fails, and the next batch goes through', async () => {
    const bad = [position(880_003, 0), { ...position(880_003, 1), latitude: Number.NaN, direction: 1e12 }];
    await expect(copyPositions(s.database.pool!, bad)).rejects.toThrow();
    expect(await rows(880_003)).toEqual([]);
    expect((await copyPositions(s.database.pool!, [position(880_003, 0)])).size).toBe(1);
  });
});
