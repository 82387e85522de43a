import { sql } from 'kysely';
import { SettingsCache, type DeriveLookups } from '../../../server/intelligence/settingsCache';
import { loadVehicleContext } from '../../../server/intelligence/windowLoad';
import { parseDtc } from '../../../server/intelligence/alarms/detectors/obd';
import type { VehicleContext } from '../../../server/intelligence/deriver';
import { BACKENDS, startTestServer, type TestServer } from '../../helpers/testServer';

/**
 * The settings the pipeline holds between passes: read once and served again while nothing is
 * edited, never served after an edit committed — through the routes, or by SQL as another process
 * (or an operator) would change them.
 */
describe.each(BACKENDS)('settings held between derivation passes on %s', (backend) => {
  let s: TestServer;
  let hd: string;
  let orgPath: string;
  let orgId: number;
  let vehicle: VehicleContext;
  const db = () => s.database.db;

  beforeAll(async () => {
    s = await startTestServer(backend);
    hd = await s.memberToken('HD', 'administrator');
    orgId = await s.orgId('HD');
    const hdPath = (await sql<{ path: string }>`SELECT path FROM organisation WHERE id = ${orgId}`.execute(db())).rows[0].path;
    const fuel = await sql<{
      id: number;
    }>`INSERT INTO fuel_type (org_id, name, category, price) VALUES (${orgId}, '0号柴油测试', 'diesel', 7.1) RETURNING id`.execute(db());
    // A vehicle of HD's subtree, with this fuel type.
    const v = await sql<{
      id: number;
    }>`SELECT v.id FROM vehicle v JOIN organisation o ON o.id = v.org_id WHERE o.path LIKE ${hdPath + '%'} ORDER BY v.id LIMIT 1`.execute(
      db(),
    );
    await sql`UPDATE vehicle SET fuel_type_id = ${fuel.rows[0].id} WHERE id = ${v.rows[0].id}`.execute(db());
    vehicle = (await loadVehicleContext(db(), v.rows[0].id, 'Asia/Shanghai'))!;
    orgPath = vehicle.orgPath;
    // The types this test edits start without policies, so what it reads is what it wrote.
    await sql`DELETE FROM policy WHERE alarm_type IN ('OverSpeed', 'Idle')`.execute(db());
  });
  afterAll(() => s?.close());

  /** A pass's lookups, as the pipeline takes them at the start of a pass. */
  const pass = (cache: SettingsCache): Promise<DeriveLookups> => cache.forPass(db());
  const overSpeed = async (l: DeriveLookups) => (await l.policies(orgPath)).get('OverSpeed')?.threshold ?? null;

  it('serves what it read again while nothing is edited', async () => {
    const cache = new SettingsCache();
    const first = await pass(cache);
    const again = await pass(cache);
    expect(await again.policies(orgPath)).toBe(await first.policies(orgPath));
    expect(await again.fences(vehicle.vehicleId, orgPath)).toBe(await first.fences(vehicle.vehicleId, orgPath));
    expect(await again.safety(orgPath)).toBe(await first.safety(orgPath));
    expect(await again.prices(vehicle)).toBe(await first.prices(vehicle));
    expect(cache.invalidations).toBe(0);
  });

  it('reads a policy again after it is created and edited through the routes', async () => {
    const cache = new SettingsCache();
    expect(await overSpeed(await pass(cache))).toBeNull();
    const created = await s.call(hd, 'PUT', '/api/vehicle/policy', {
      name: '超速缓存',
      alarmType: 'OverSpeed',
      threshold: 90,
      durationMinutes: 1,
    });
    expect(created.status).toBe(201);
    expect(await overSpeed(await pass(cache))).toBe(90);
    expect((await s.call(hd, 'PUT', `/api/vehicle/policy/${created.body.id}`, { threshold: 70 })).status).toBe(200);
    expect(await overSpeed(await pass(cache))).toBe(70);
    // Another process (or an operator) disables it by hand.
    await sql`UPDATE policy SET enabled = false WHERE id = ${created.body.id}`.execute(db());
    expect(await overSpeed(await pass(cache))).toBeNull();
    expect(cache.invalidations).toBe(3);
  });

  it('reads fences again after one is created, linked or stopped', async () => {
    const cache = new SettingsCache();
    const before = (await (await pass(cache)).fences(vehicle.vehicleId, orgPath)).map((f) => f.id);
    const f = await s.call(hd, 'PUT', '/api/vehicle/fence', {
      name: '缓存围栏',
      fenceType: 'circle',
      geometry: { center: [121.6, 31.2], radius: 500 },
      speedLimit: 40,
    });
    expect(f.status).toBe(201);
    expect((await (await pass(cache)).fences(vehicle.vehicleId, orgPath)).map((x) => x.id)).toEqual(
      [...before, f.body.id].sort((a, b) => a - b),
    );
    // Linked to another vehicle only: no longer this one's.
    const other = await sql<{ id: number }>`SELECT id FROM vehicle WHERE id <> ${vehicle.vehicleId} ORDER BY id LIMIT 1`.execute(db());
    await sql`INSERT INTO vehicle_fence (vehicle_id, fence_id) VALUES (${other.rows[0].id}, ${f.body.id})`.execute(db());
    expect((await (await pass(cache)).fences(vehicle.vehicleId, orgPath)).map((x) => x.id)).toEqual(before);
    await sql`DELETE FROM vehicle_fence WHERE fence_id = ${f.body.id}`.execute(db());
    expect((await (await pass(cache)).fences(vehicle.vehicleId, orgPath)).map((x) => x.id)).toContain(f.body.id);
    await sql`UPDATE fence SET status = 'stop' WHERE id = ${f.body.id}`.execute(db());
    expect((await (await pass(cache)).fences(vehicle.vehicleId, orgPath)).map((x) => x.id)).toEqual(before);
  });

  it('reads the safety settings again after they are edited through the route', async () => {
    const cache = new SettingsCache();
    const was = (await (await pass(cache)).safety(orgPath)).thresholds.harshBrakingKmh;
    expect(
      (await s.call(hd, 'PUT', `/api/vehicle/safetySetting/${vehicle.orgId}`, { thresholds: { harshBrakingKmh: was + 7 } })).status,
    ).toBe(200);
    expect((await (await pass(cache)).safety(orgPath)).thresholds.harshBrakingKmh).toBe(was + 7);
  });

  it('reads the prices again after an oil price or the fuel type changes', async () => {
    const cache = new SettingsCache();
    expect(await (await pass(cache)).prices(vehicle)).toEqual({ prices: [], fallback: 7.1 });
    const p = await s.call(hd, 'POST', '/api/vehicle/oilPrice', {
      region: vehicle.settings.region ?? '上海',
      fuelGrade: '0号柴油测试',
      price: 7.52,
      effectiveDate: '2026-11-01',
    });
    expect(p.status).toBe(201);
    expect(await (await pass(cache)).prices(vehicle)).toEqual({ prices: [{ effectiveDate: '2026-11-01', price: 7.52 }], fallback: 7.1 });
    expect((await s.call(hd, 'PUT', `/api/vehicle/oilPrice/${p.body.id}`, { price: 7.8 })).status).toBe(200);
    expect((await (await pass(cache)).prices(vehicle)).prices).toEqual([{ effectiveDate: '2026-11-01', price: 7.8 }]);
    await sql`UPDATE fuel_type SET price = 6.9 WHERE id = ${vehicle.fuelTypeId}`.execute(db());
    expect((await (await pass(cache)).prices(vehicle)).fallback).toBe(6.9);
  });

  it('reads the expert fault library again after an entry is added or edited', async () => {
    const cache = new SettingsCache();
    const p0420 = parseDtc('P0420');
    expect(await (await pass(cache)).expertFault(p0420)).toBeNull();
    const admin = await s.login('admin', 'Admin2026x');
    const e = await s.call(admin, 'POST', '/api/vehicle/expertFault', {
      spn: 4364,
      fmi: 18,
      dtcCode: 'P0420',
      name: '三元催化效率低',
      unit: '排放',
      level: 'medium',
      description: '催化效率低于阈值',
      resolvent: '检查三元催化器',
    });
    expect(e.status).toBe(201);
    const lookups = await pass(cache);
    expect(await lookups.expertFault(p0420)).toMatchObject({ id: e.body.id, name: '三元催化效率低', level: 'medium' });
    // The same entry by SPN/FMI, and served again while nothing changes.
    expect(await lookups.expertFault(parseDtc('SPN 4364 FMI 18'))).toMatchObject({ id: e.body.id });
    expect(await (await pass(cache)).expertFault(p0420)).toBe(await lookups.expertFault(p0420));
    await sql`UPDATE expert_fault SET level = 'high' WHERE id = ${e.body.id}`.execute(db());
    expect(await (await pass(cache)).expertFault(p0420)).toMatchObject({ level: 'high' });
  });

  it('never keeps what a pass read before an edit that commits while it runs', async () => {
    const cache = new SettingsCache();
    await s.call(hd, 'PUT', '/api/vehicle/policy', { name: '怠速缓存', alarmType: 'Idle', durationMinutes: 3 });
    // A pass takes its lookups; the edit commits before the pass reads the policies.
    const during = await pass(cache);
    await sql`UPDATE policy SET duration_minutes = 9 WHERE name = '怠速缓存'`.execute(db());
    expect((await during.policies(orgPath)).get('Idle')?.durationMinutes).toBe(9);
    // The next pass sees the versions moved and reads again (here the same value: never an older one).
    await sql`UPDATE policy SET duration_minutes = 4 WHERE name = '怠速缓存'`.execute(db());
    expect((await (await pass(cache)).policies(orgPath)).get('Idle')?.durationMinutes).toBe(4);
  });
});
