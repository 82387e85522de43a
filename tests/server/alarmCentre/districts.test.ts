import { sql } from 'kysely';
import { fencesFor } from '../../../server/intelligence/alarms/deriver';
import { inside } from '../../../server/intelligence/alarms/detectors/fences';
import { BACKENDS, startTestServer, type TestServer } from '../../helpers/testServer';

/** A square around West Lake district's centre, as an admin would upload it (a Feature). */
const WEST_LAKE = {
  type: 'Feature',
  properties: { name: '西湖区' },
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [120.0, 30.1],
        [120.2, 30.1],
        [120.2, 30.3],
        [120.0, 30.3],
        [120.0, 30.1],
      ],
    ],
  },
};

describe.each(BACKENDS)('district fences on %s', (backend) => {
  let s: TestServer;
  let hd: string;
  beforeAll(async () => {
    s = await startTestServer(backend);
    hd = await s.memberToken('HD', 'administrator');
  });
  afterAll(() => s.close());

  it('serves the province → city → county tree and names by code', async () => {
    const tree = await s.call(hd, 'GET', '/api/vehicle/district/tree/options');
    expect(tree.status).toBe(200);
    const zj = tree.body.find((p: { value: string }) => p.value === '33');
    expect(zj.label).toBe('浙江省');
    const hz = zj.children.find((c: { value: string }) => c.value === '3301');
    expect(hz.children.map((c: { label: string }) => c.label)).toContain('西湖区');
    expect((await s.call(hd, 'GET', '/api/vehicle/district/name/330106')).body).toEqual({
      code: '330106',
      name: '西湖区',
      fullName: '浙江省杭州市西湖区',
      level: 3,
    });
    expect((await s.call(hd, 'GET', '/api/vehicle/district/name/110101')).body.fullName).toBe('北京市东城区');
    expect((await s.call(hd, 'GET', '/api/vehicle/district/name/999999')).status).toBe(404);
    const bad = await s.call(hd, 'GET', '/api/vehicle/district/name/33a', undefined, 'en-US');
    expect(bad).toMatchObject({ status: 400, body: { message: 'A district code has 2, 4 or 6 digits' } });
  });

  it('refuses to open a district fence without a boundary (406), evaluates it once the boundary is uploaded', async () => {
    const created = await s.call(hd, 'PUT', '/api/vehicle/fence', {
      name: '西湖区',
      fenceType: 'district',
      geometry: { districtCode: '330106' },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    const vehicle = (
      await sql<{
        id: number;
        path: string;
      }>`SELECT v.id, o.path FROM vehicle v JOIN organisation o ON o.id = v.org_id WHERE o.code = 'HD-HZ' ORDER BY v.id LIMIT 1`.execute(
        s.database.db,
      )
    ).rows[0];
    const applies = async () => (await fencesFor(s.database.db, vehicle.id, vehicle.path)).find((f) => f.id === id);
    expect(await applies()).toBeUndefined();
    await s.call(hd, 'POST', `/api/vehicle/fence/stop/${id}`);
    const refused = await s.call(hd, 'POST', `/api/vehicle/fence/open/${id}`);
    expect(refused).toMatchObject({ status: 406, body: { message: '该行政区围栏尚未上传边界，无法开启：请先上传行政区边界（GeoJSON）' } });
    expect((await s.call(hd, 'GET', `/api/vehicle/fence/${id}`)).body.status).toBe('stopped');

    for (const body of [
      { type: 'Point', coordinates: [120, 30] },
      {
        type: 'Polygon',
        coordinates: [
          [
            [120, 30],
            [121, 30],
          ],
        ],
      },
      {
        type: 'Polygon',
        coordinates: [
          [
            [200, 30],
            [121, 30],
            [121, 31],
            [200, 30],
          ],
        ],
      },
      { type: 'FeatureCollection', features: [] },
    ]) {
      const r = await s.call(hd, 'PUT', `/api/vehicle/fence/${id}/boundary`, body, 'en-US');
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/GeoJSON Polygon or MultiPolygon/);
    }
    const circle = await s.call(hd, 'PUT', '/api/vehicle/fence', {
      name: '圆',
      fenceType: 'circle',
      geometry: { center: [120.1, 30.2], radius: 100 },
    });
    expect((await s.call(hd, 'PUT', `/api/vehicle/fence/${circle.body.id}/boundary`, WEST_LAKE)).status).toBe(406);
    expect((await s.call(await s.memberToken('HN', 'administrator'), 'PUT', `/api/vehicle/fence/${id}/boundary`, WEST_LAKE)).status).toBe(
      404,
    );

    const up = await s.call(hd, 'PUT', `/api/vehicle/fence/${id}/boundary`, { type: 'FeatureCollection', features: [WEST_LAKE] });
    expect(up).toMatchObject({ status: 200, body: { id, polygons: 1 } });
    expect((await s.call(hd, 'POST', `/api/vehicle/fence/open/${id}`)).status).toBe(200);
    const fence = await applies();
    expect(fence).toBeDefined();
    expect(inside(fence!.area, { latitude: 30.2, longitude: 120.1 })).toBe(true);
    expect(inside(fence!.area, { latitude: 30.4, longitude: 120.1 })).toBe(false);
  });

  it('answers fence options by POST as by GET', async () => {
    const get = await s.call(hd, 'GET', '/api/vehicle/fence/options?q=西湖');
    const post = await s.call(hd, 'POST', '/api/vehicle/fence/options', { q: '西湖' });
    expect(post.status).toBe(200);
    expect(post.body).toEqual(get.body);
    expect(post.body.map((o: { label: string }) => o.label)).toEqual(['西湖区']);
    expect((await s.call(hd, 'POST', '/api/vehicle/fence/options', {})).body.length).toBe(2);
    expect((await s.call(hd, 'POST', '/api/vehicle/fence/options', { limit: 0 })).status).toBe(400);
  });
});
