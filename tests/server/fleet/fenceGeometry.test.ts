import { areaOf, inside } from '../../../server/intelligence/alarms/detectors/fences';
import { BACKENDS, type TestServer, useTestServer } from '../../helpers/testServer';

jest.setTimeout(180_000);

/** The fence types the map editor draws, as the server stores them, and the geometry it refuses. */
describe.each(BACKENDS)('fence geometry on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });

  const put = (body: Record<string, unknown>, lang = 'zh-CN') => s.call(admin, 'PUT', '/api/vehicle/fence', body, lang);

  it('stores rectangles and route corridors with their geometry', async () => {
    const rect = await put({
      name: '矩形围栏',
      fenceType: 'rectangle',
      geometry: {
        points: [
          [121.4, 31.1],
          [121.5, 31.1],
          [121.5, 31.2],
          [121.4, 31.2],
        ],
      },
    });
    expect(rect.status).toBe(201);
    expect(rect.body.geometry.points).toHaveLength(4);
    const route = await put({
      name: '路线围栏',
      fenceType: 'route',
      geometry: {
        path: [
          [121.4, 31.1],
          [121.45, 31.15],
          [121.5, 31.12],
        ],
        width: 200,
      },
    });
    expect(route.status).toBe(201);
    expect(route.body).toMatchObject({
      fenceType: 'route',
      geometry: {
        path: [
          [121.4, 31.1],
          [121.45, 31.15],
          [121.5, 31.12],
        ],
        width: 200,
      },
    });
    const got = await s.call(admin, 'GET', `/api/vehicle/fence/${route.body.id}`);
    expect(got.body.geometry.width).toBe(200);
  });

  it.each([
    [
      'a polygon whose edges cross',
      {
        fenceType: 'polygon',
        geometry: {
          points: [
            [121.4, 31.1],
            [121.5, 31.2],
            [121.5, 31.1],
            [121.4, 31.2],
          ],
        },
      },
      '多边形的边相互交叉，请重新绘制',
      "The polygon's edges cross each other; draw it again",
    ],
    [
      'a circle given as points',
      {
        fenceType: 'circle',
        geometry: {
          points: [
            [121.4, 31.1],
            [121.5, 31.2],
            [121.5, 31.1],
          ],
        },
      },
      '圆形围栏需要圆心和半径',
      'A circle fence needs a centre and a radius',
    ],
    [
      'a polygon with no area',
      {
        fenceType: 'polygon',
        geometry: {
          points: [
            [121.4, 31.1],
            [121.45, 31.15],
            [121.5, 31.2],
          ],
        },
      },
      '围栏没有面积（各点重合或共线）',
      'The fence has no area (its points coincide or lie on one line)',
    ],
    [
      'a rectangle that is not one',
      {
        fenceType: 'rectangle',
        geometry: {
          points: [
            [121.4, 31.1],
            [121.5, 31.1],
            [121.55, 31.2],
            [121.4, 31.2],
          ],
        },
      },
      '矩形围栏需要正好 4 个沿经纬线的角点',
      'A rectangle fence needs exactly 4 corners along meridians and parallels',
    ],
    [
      'a route repeating a point',
      {
        fenceType: 'route',
        geometry: {
          path: [
            [121.4, 31.1],
            [121.4, 31.1],
          ],
          width: 100,
        },
      },
      '路线第 2 个点与前一个点重合',
      'Point 2 of the route repeats the one before it',
    ],
    [
      'a latitude beyond the pole',
      { fenceType: 'circle', geometry: { center: [121.4, 95], radius: 100 } },
      '围栏坐标超出经纬度范围',
      'A fence point lies outside valid longitudes and latitudes',
    ],
  ])('refuses %s on the geometry field, in the caller’s language', async (_what, body, zh, en) => {
    const r = await put({ name: '坏围栏', ...body });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(zh);
    expect(r.body.errors[0].field).toBe('geometry');
    expect((await put({ name: '坏围栏', ...body }, 'en-US')).body.message).toBe(en);
  });

  it('checks an update against the stored fence: changing only the type must fit the stored geometry', async () => {
    const c = await put({ name: '改类型', fenceType: 'circle', geometry: { center: [121.4, 31.1], radius: 300 } });
    expect(c.status).toBe(201);
    const bad = await s.call(admin, 'PUT', `/api/vehicle/fence/${c.body.id}`, { fenceType: 'route' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('路线围栏需要路线和宽度');
    const ok = await s.call(admin, 'PUT', `/api/vehicle/fence/${c.body.id}`, {
      fenceType: 'route',
      geometry: {
        path: [
          [121.4, 31.1],
          [121.41, 31.1],
        ],
        width: 50,
      },
    });
    expect(ok.status).toBe(200);
    expect((await s.call(admin, 'PUT', '/api/vehicle/fence/99999999', { name: 'x' })).status).toBe(404);
  });
});

describe('route corridor', () => {
  it('holds the positions within half its width of the path, and a rectangle is a polygon', () => {
    // Along the parallel 31.1 from 121.40 to 121.41 (about 950 m), 100 m wide.
    const area = areaOf('route', {
      path: [
        [121.4, 31.1],
        [121.41, 31.1],
      ],
      width: 100,
    })!;
    expect(inside(area, { longitude: 121.405, latitude: 31.1 })).toBe(true);
    expect(inside(area, { longitude: 121.405, latitude: 31.1 + 40 / 111_000 })).toBe(true);
    expect(inside(area, { longitude: 121.405, latitude: 31.1 + 60 / 111_000 })).toBe(false);
    const rect = areaOf('rectangle', {
      points: [
        [121.4, 31.1],
        [121.5, 31.1],
        [121.5, 31.2],
        [121.4, 31.2],
      ],
    })!;
    expect(inside(rect, { longitude: 121.45, latitude: 31.15 })).toBe(true);
    expect(inside(rect, { longitude: 121.55, latitude: 31.15 })).toBe(false);
  });
});
