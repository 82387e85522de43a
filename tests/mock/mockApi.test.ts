import { entities, entityFiles } from '../../schemas/generated/registry';
import { CRUD_OPERATIONS } from '../../schemas/kit/entity';
import { passwordViolations } from '../../schemas/kit/password';
import { mockRoutes } from '../../mock/api.generated';
import { createMockServer, DEMO_PASSWORD } from '../../mock/runtime/server';
import { parseRoute } from '../../server/crud/routeSpec';
import { demoFixtures } from '../../server/seed/fixtures';
import { actionCodes, MENUS, OBD_WEB_MENU } from '../../server/seed/menu';
import { mockClient, type MockClient } from './mockClient';

/** What the mock adds to the CRUD (which tests/mock/parity.test.ts compares with the server): the passport side. */
describe('the Umi mock', () => {
  let mock: MockClient;
  beforeEach(() => {
    mock = mockClient();
  });

  it('logs the demo admin in with the server’s answer shape, and refuses a wrong or missing password in words', () => {
    const ok = mock.call(null, 'POST', '/api/login', { loginName: 'ADMIN', password: DEMO_PASSWORD, application: 'obd-web' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ success: true, message: '登录成功', object: { name: '系统管理员', memberType: 'administrator', branch: 'FS', firstSign: false, orgType: 'service' } });
    expect(typeof ok.body.object.token).toBe('string');
    expect(mock.call(null, 'POST', '/api/login', { loginName: 'admin', password: 'Wrong2026x' })).toMatchObject({ status: 400, body: { message: '用户名或密码错误' } });
    expect(mock.call(null, 'POST', '/api/login', { loginName: 'admin' }, 'en-US')).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'password', key: 'validation.loginPassword.required' }] },
    });
    // The console's weak-password flow must not trigger for the demo account.
    expect(passwordViolations(DEMO_PASSWORD)).toEqual([]);
  });

  it('answers 401 without a valid token, and after logout', () => {
    expect(mock.call(null, 'POST', '/api/vehicle/vehicle/query', {})).toMatchObject({ status: 401, body: { message: '未登录或登录已过期' } });
    expect(mock.call('forged', 'GET', '/api/passport/member/current').status).toBe(401);
    const token = mock.login();
    expect(mock.call(token, 'POST', '/api/vehicle/vehicle/query', {}).status).toBe(200);
    expect(mock.call(token, 'POST', '/api/logout').status).toBe(204);
    expect(mock.call(token, 'POST', '/api/vehicle/vehicle/query', {}).status).toBe(401);
  });

  it('tells the signed-in member who they are', () => {
    const r = mock.call(mock.login(), 'GET', '/api/passport/member/current');
    expect(r.body).toEqual({ memberId: 1, memberName: '系统管理员', orgType: 'service', orgId: 1, orgName: '车管星平台', loginName: 'admin', memberType: 'administrator', uid: 'mock-admin', firstSign: false, simulated: false });
  });

  it('serves the seeded menu tree with every action code, per application', () => {
    const token = mock.login();
    const tree = mock.call(token, 'GET', '/api/passport/resource/authorized/obd-web').body;
    expect(tree[0]).toMatchObject({ code: 'dashboard', kind: 'Menu', path: '/dashboard', affix: true, parentId: null, sort: 10 });
    const codes: string[] = [];
    const walk = (items: Array<{ id: number; kind: string; code: string; parentId: number | null; children: never[] }>, parent: number | null) =>
      items.forEach((r) => {
        expect(r.parentId).toBe(parent);
        if (r.kind === 'Action') codes.push(r.code);
        walk(r.children, r.id);
      });
    walk(tree, null);
    expect(codes.sort()).toEqual(actionCodes(OBD_WEB_MENU).sort());
    expect(mock.call(token, 'GET', '/api/passport/resource/authorized/vehicle-app').body.map((r: { code: string }) => r.code)).toEqual(MENUS['vehicle-app'].map((r) => r.code));
    expect(mock.call(token, 'GET', '/api/passport/resource/authorized/nope').status).toBe(400);
  });

  it('routes every path the schemas declare, static paths before parameters, and answers 404 for the rest', () => {
    const routes = Object.keys(mockRoutes(createMockServer({ entities, fixtures: demoFixtures, menus: MENUS })));
    for (const f of Object.values(entityFiles)) {
      // The mock serves the CRUD operations; spreadsheet import and export need the real server.
      for (const op of CRUD_OPERATIONS) for (const r of f['x-entity'].routes[op] ?? []) expect(routes).toContain(parseRoute(r).join(' '));
    }
    const token = mock.login();
    expect(mock.call(token, 'GET', '/api/vehicle/fuelType/options').status).toBe(200); // not taken for GET …/:id
    expect(mock.call(token, 'GET', '/api/vehicle/nothing', undefined, 'en-US')).toMatchObject({ status: 404, body: { code: 'error.routeNotFound' } });
  });

  it('keeps each instance’s data to itself, starting from the demo fixtures', () => {
    const other = mockClient();
    const a = mock.login();
    const b = other.login();
    const before = other.call(b, 'POST', '/api/vehicle/vehicle/query', {}).body.total;
    expect(before).toBe(demoFixtures.vehicles.length);
    expect(mock.call(a, 'POST', '/api/vehicle/vehicle', { licence: '沪M00001' }).status).toBe(201);
    expect(mock.call(a, 'POST', '/api/vehicle/vehicle/query', {}).body.total).toBe(before + 1);
    expect(other.call(b, 'POST', '/api/vehicle/vehicle/query', {}).body.total).toBe(before);
  });
});
