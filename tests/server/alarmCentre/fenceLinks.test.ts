import { sql } from 'kysely';
import { fencesFor } from '../../../server/intelligence/alarms/deriver';
import { ADMIN_PASSWORD, BACKENDS, startTestServer, type TestServer } from '../../helpers/testServer';

describe.each(BACKENDS)('fence links on %s', (backend) => {
  let s: TestServer;
  let hd: string;
  let shVehicles: number[];
  let hnVehicle: number;
  let fenceId: number;
  beforeAll(async () => {
    s = await startTestServer(backend);
    hd = await s.memberToken('HD', 'administrator');
    const ids = async (org: string) =>
      (
        await sql<{
          id: number;
        }>`SELECT v.id FROM vehicle v JOIN organisation o ON o.id = v.org_id WHERE o.code = ${org} ORDER BY v.id`.execute(s.database.db)
      ).rows.map((r) => r.id);
    shVehicles = await ids('HD-SH');
    hnVehicle = (await ids('HN-SZ'))[0];
    const f = await s.call(hd, 'PUT', '/api/vehicle/fence', {
      name: '仓库',
      fenceType: 'circle',
      geometry: { center: [121.4, 31.2], radius: 300 },
    });
    expect(f.status).toBe(201);
    fenceId = f.body.id;
  });
  afterAll(() => s.close());
  const path = async (vehicleId: number) =>
    (
      await sql<{ path: string }>`SELECT o.path FROM vehicle v JOIN organisation o ON o.id = v.org_id WHERE v.id = ${vehicleId}`.execute(
        s.database.db,
      )
    ).rows[0].path;
  const applies = async (vehicleId: number) =>
    (await fencesFor(s.database.db, vehicleId, await path(vehicleId))).map((f) => f.id).includes(fenceId);

  it('a fence with no links applies to its organisation’s subtree; links narrow it to the linked vehicles', async () => {
    expect(await applies(shVehicles[0])).toBe(true);
    expect(await applies(shVehicles[1])).toBe(true);
    expect(await applies(hnVehicle)).toBe(false);
    const r = await s.call(hd, 'PUT', '/api/vehicle/vehicleFence', { fenceId, vehicleIds: [shVehicles[0]] });
    expect(r.status).toBe(200);
    expect(r.body.data.map((l: { vehicleId: number; fenceName: string }) => [l.vehicleId, l.fenceName])).toEqual([[shVehicles[0], '仓库']]);
    // Linking again keeps one link.
    expect((await s.call(hd, 'PUT', '/api/vehicle/vehicleFence', { fenceId, vehicleIds: [shVehicles[0]] })).body.total).toBe(1);
    expect(await applies(shVehicles[0])).toBe(true);
    expect(await applies(shVehicles[1])).toBe(false);
    // Only open fences count.
    await s.call(hd, 'POST', `/api/vehicle/fence/stop/${fenceId}`);
    expect(await applies(shVehicles[0])).toBe(false);
    await s.call(hd, 'POST', `/api/vehicle/fence/open/${fenceId}`);
    expect(await applies(shVehicles[0])).toBe(true);
  });

  it('lists and removes links within the caller’s subtree only', async () => {
    const list = await s.call(hd, 'POST', '/api/vehicle/vehicleFence/query', { criteria: { fenceId } });
    expect(list.body.total).toBe(1);
    const linkId = list.body.data[0].id;
    const hn = await s.memberToken('HN', 'administrator');
    expect((await s.call(hn, 'POST', '/api/vehicle/vehicleFence/query', { criteria: { fenceId } })).body.total).toBe(0);
    expect((await s.call(hn, 'DELETE', `/api/vehicle/vehicleFence/deleteRel/${linkId}`)).status).toBe(404);
    expect((await s.call(hn, 'PUT', '/api/vehicle/vehicleFence', { fenceId, vehicleIds: [hnVehicle] })).status).toBe(404);
    const viewer = await s.memberToken('HD', 'orgUser');
    expect((await s.call(viewer, 'DELETE', `/api/vehicle/vehicleFence/deleteRel/${linkId}`)).status).toBe(403);
    expect((await s.call(hd, 'DELETE', `/api/vehicle/vehicleFence/deleteRel/${linkId}`)).status).toBe(204);
    expect((await s.call(hd, 'DELETE', `/api/vehicle/vehicleFence/deleteRel/${linkId}`)).status).toBe(404);
    expect(await applies(shVehicles[1])).toBe(true);
  });

  it('refuses vehicles outside the subtree and bad bodies, naming the field, linking nothing', async () => {
    const r = await s.call(hd, 'PUT', '/api/vehicle/vehicleFence', { fenceId, vehicleIds: [shVehicles[2], hnVehicle] });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].field).toBe('vehicleIds.1');
    expect(r.body.message).toBe('车辆不存在或无权使用');
    for (const body of [
      { fenceId },
      { fenceId, vehicleIds: [] },
      { fenceId, vehicleIds: [1, 1] },
      { fenceId: 'x', vehicleIds: [1] },
      { fenceId, vehicleIds: [1], extra: 1 },
    ])
      expect((await s.call(hd, 'PUT', '/api/vehicle/vehicleFence', body)).status).toBe(400);
    expect((await s.call(hd, 'POST', '/api/vehicle/vehicleFence/query', { criteria: { fenceId } })).body.total).toBe(0);
    const admin = await s.login('admin', ADMIN_PASSWORD);
    expect((await s.call(admin, 'PUT', '/api/vehicle/vehicleFence', { fenceId: 999999, vehicleIds: [hnVehicle] })).status).toBe(404);
  });
});
