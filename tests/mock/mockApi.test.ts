import { entities, entityFiles } from '../../schemas/generated/registry';
import { CRUD_OPERATIONS } from '../../schemas/kit/entity';
import { passwordViolations } from '../../schemas/kit/password';
import { mockRoutes } from '../../mock/api.generated';
import { createMockServer, DEMO_PASSWORD } from '../../mock/runtime/server';
import { forwardTo } from '../../mock/runtime/umi';
import type { UmiRequest, UmiResponse } from '../../mock/runtime/umi';
import { parseRoute } from '../../server/platform/crud/routeSpec';
import { demoFixtures } from '../../server/seed/fixtures';
import { actionCodes, MENUS, OBD_WEB_MENU } from '../../server/seed/menu';
import { mockClient } from './mockClient';
import type { MockClient } from './mockClient';

/**
 * What only the mock has to get right (tests/mock/parity.test.ts compares its answers with the
 * server's): its demo logins, its route table, one database per instance, and its own failures.
 */
describe('the Umi mock', () => {
  let mock: MockClient;
  beforeAll(async () => {
    mock = await mockClient();
  }, 120_000);
  afterAll(() => mock?.close());

  it('logs the demo admin in with the server’s answer shape, and refuses a wrong or missing password in words', async () => {
    const ok = await mock.call(null, 'POST', '/api/login', { loginName: 'ADMIN', password: DEMO_PASSWORD, application: 'obd-web' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      success: true,
      message: '登录成功',
      object: { name: '系统管理员', memberType: 'administrator', branch: 'FS', firstSign: false, orgType: 'service' },
    });
    expect(typeof ok.body.object.token).toBe('string');
    expect(await mock.call(null, 'POST', '/api/login', { loginName: 'admin', password: 'Wrong2026x' })).toMatchObject({
      status: 400,
      body: { message: '用户名或密码错误' },
    });
    expect(await mock.call(null, 'POST', '/api/login', { loginName: 'admin' }, 'en-US')).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'password', key: 'validation.loginPassword.required' }] },
    });
    // The console's weak-password flow must not trigger for the demo accounts.
    expect(passwordViolations(DEMO_PASSWORD)).toEqual([]);
  });

  it('has the demo accounts, with the same password and only their own permissions', async () => {
    const manager = await mock.login('hd-manager');
    const me = await mock.call(manager, 'GET', '/api/passport/member/current');
    expect(me.body).toMatchObject({
      loginName: 'hd-manager',
      memberName: '王建国',
      orgName: '华东物流有限公司',
      memberType: 'orgUser',
      simulated: false,
    });
    const codes: string[] = [];
    const walk = (items: Array<{ code: string; children: never[] }>) => items.forEach((r) => (codes.push(r.code), walk(r.children)));
    walk((await mock.call(manager, 'GET', '/api/passport/resource/authorized/obd-web')).body);
    expect(codes).toEqual(expect.arrayContaining(['system-org', 'org-add', 'vehicle-add']));
    expect(codes).not.toContain('apiUser-add');
    expect(
      await mock.call(manager, 'POST', '/api/vehicle/apiUser', { name: 'x' }, 'en-US', { 'x-authority': 'apiUser-add' }),
    ).toMatchObject({ status: 403, body: { message: 'No permission!' } });
    // A manager sees their organisation's subtree only.
    const orgs = await mock.call(manager, 'POST', '/api/vehicle/org/query', { pageIndex: 1, pageSize: 50 });
    expect(orgs.body.data.map((o: { code: string }) => o.code).sort()).toEqual(['HD', 'HD-HZ', 'HD-SH']);
  });

  it('answers 401 without a valid token, and after logout', async () => {
    expect(await mock.call(null, 'POST', '/api/vehicle/vehicle/query', {})).toMatchObject({
      status: 401,
      body: { message: '未登录或登录已过期' },
    });
    expect((await mock.call('forged', 'GET', '/api/passport/member/current')).status).toBe(401);
    const token = await mock.login();
    expect((await mock.call(token, 'POST', '/api/vehicle/vehicle/query', {})).status).toBe(200);
    expect((await mock.call(token, 'POST', '/api/logout')).status).toBe(204);
    expect((await mock.call(token, 'POST', '/api/vehicle/vehicle/query', {})).status).toBe(401);
  });

  it('tells the signed-in admin who they are and serves the seeded menu tree with every action code, per application', async () => {
    const token = await mock.login();
    expect((await mock.call(token, 'GET', '/api/passport/member/current')).body).toEqual({
      memberId: 1,
      memberName: '系统管理员',
      orgType: 'service',
      orgId: 1,
      orgName: '车管星平台',
      loginName: 'admin',
      memberType: 'administrator',
      uid: expect.any(String),
      firstSign: false,
      simulated: false,
    });
    const tree = (await mock.call(token, 'GET', '/api/passport/resource/authorized/obd-web')).body;
    expect(tree[0]).toMatchObject({ code: 'dashboard', kind: 'Menu', path: '/dashboard', affix: true, parentId: null, sort: 10 });
    const codes: string[] = [];
    const walk = (
      items: Array<{ id: number; kind: string; code: string; parentId: number | null; children: never[] }>,
      parent: number | null,
    ) =>
      items.forEach((r) => {
        expect(r.parentId).toBe(parent);
        if (r.kind === 'Action') codes.push(r.code);
        walk(r.children, r.id);
      });
    walk(tree, null);
    expect(codes.sort()).toEqual(actionCodes(OBD_WEB_MENU).sort());
    expect(
      (await mock.call(token, 'GET', '/api/passport/resource/authorized/vehicle-app')).body.map((r: { code: string }) => r.code),
    ).toEqual(MENUS['vehicle-app'].map((r) => r.code));
    expect((await mock.call(token, 'GET', '/api/passport/resource/authorized/nope')).status).toBe(400);
  });

  it('takes every path the schemas declare, and answers 404 in words for a path the server does not have', async () => {
    for (const f of Object.values(entityFiles)) {
      for (const op of CRUD_OPERATIONS)
        for (const r of f['x-entity'].routes[op] ?? []) expect(mock.routes).toContain(parseRoute(r).join(' '));
    }
    const token = await mock.login();
    expect((await mock.call(token, 'GET', '/api/vehicle/fuelType/options')).status).toBe(200);
    expect(await mock.call(token, 'GET', '/api/vehicle/nothing', undefined, 'en-US')).toMatchObject({
      status: 404,
      body: { code: 'error.routeNotFound', message: expect.any(String) },
    });
    expect(await mock.call(token, 'DELETE', '/api/passport/nothing/1')).toMatchObject({
      status: 404,
      body: { code: 'error.routeNotFound' },
    });
  });

  it('keeps each instance’s data to itself, starting from the demo fixtures, with MOCK_ADMIN_PASSWORD as the demo password', async () => {
    const other = createMockServer({ entities, fixtures: demoFixtures, adminPassword: 'Other2026x', logLevel: 'silent' });
    const { app, close } = await other.start();
    try {
      const login = async (password: string) =>
        app.inject({ method: 'POST', url: '/api/login', payload: { loginName: 'hd-manager', password } });
      expect((await login(DEMO_PASSWORD)).statusCode).toBe(400);
      const b = (await login('Other2026x')).json().object.token as string;
      const count = async () =>
        (
          await app.inject({ method: 'POST', url: '/api/vehicle/vehicle/query', payload: {}, headers: { authorization: `Bearer ${b}` } })
        ).json().total as number;
      const before = await count();
      expect(before).toBe(demoFixtures.vehicles.filter((v) => v.org.startsWith('HD')).length);
      const a = await mock.login();
      expect((await mock.call(a, 'POST', '/api/vehicle/vehicle', { licence: '沪M00001' })).status).toBe(201);
      expect(await count()).toBe(before);
    } finally {
      await close();
    }
  }, 120_000);

  it('starts its database once, however many calls and tables share it', async () => {
    const idle = createMockServer({ entities, fixtures: demoFixtures, logLevel: 'silent' });
    expect(Object.keys(mockRoutes(idle))).toEqual(mock.routes);
    const started = idle.start();
    expect(idle.start()).toBe(started);
    const { app, close } = await started;
    expect((await idle.start()).app).toBe(app);
    await close();
  }, 120_000);

  it('answers the server’s localised 500 when the in-memory server cannot start', async () => {
    const handler = forwardTo(() => Promise.reject(new Error('no database')));
    const answer = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve) => {
      let status = 0;
      const headers: Record<string, unknown> = {};
      const res: UmiResponse = {
        status: (s) => ((status = s), res),
        setHeader: (k, v) => (headers[k] = v),
        end: (b) => resolve({ status, headers, body: b?.toString('utf8') ?? '' }),
      };
      const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
      handler({ method: 'GET', url: '/api/health', headers: { 'accept-language': 'en-US' } } as UmiRequest, res);
      setTimeout(() => error.mockRestore(), 100);
    });
    expect(answer.status).toBe(500);
    expect(answer.headers['content-type']).toMatch(/json/);
    expect(JSON.parse(answer.body)).toEqual({ success: false, code: 'http.serverError', message: expect.stringMatching(/\w/) });
  });
});
