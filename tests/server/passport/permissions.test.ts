import { entityFiles } from '../../../schemas/generated/registry';
import { WRITE_OPERATIONS } from '../../../schemas/kit/entity';
import { parseRoute } from '../../../server/platform/crud/routeSpec';
import { ROOT_ORG } from '../../../server/seed/fixtures';
import { actionCodes, MENUS } from '../../../server/seed/menu';
import { BACKENDS, type TestServer, useTestServer } from '../../helpers/testServer';

/** The server decides permissions (never X-Authority) and keeps every organisation inside its subtree. */
describe.each(BACKENDS)('passport permissions and isolation on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });

  const concrete = (url: string) => url.replace(':app', 'obd-web').replace(/:\w+/g, '1');

  it('guards every route with a seeded code, and answers 403 to a member without it whatever X-Authority says', async () => {
    const seeded = new Set([...actionCodes(MENUS['obd-web']), 'NONE', 'PUBLIC']);
    const guarded = s.app.routeCatalogue.flatMap((r) =>
      typeof r.permission === 'string'
        ? [{ ...r, code: r.permission, app: 'obd-web' }]
        : Object.entries(r.permission).map(([app, code]) => ({ ...r, code, app })),
    );
    // Every code a route declares is one an administrator can grant through a role.
    expect(guarded.filter((g) => !seeded.has(g.code)).map((g) => `${g.method} ${g.url} ${g.code}`)).toEqual([]);
    const nobody = await s.memberToken('HD', 'orgUser', []);
    const checked: string[] = [];
    for (const g of guarded.filter((x) => x.code !== 'NONE' && x.code !== 'PUBLIC')) {
      const r = await s.call(
        nobody,
        g.method as 'GET',
        concrete(g.url),
        g.method === 'GET' || g.method === 'DELETE' ? undefined : {},
        undefined,
        {
          'x-authority': g.code,
          'x-application-code': g.app,
        },
      );
      expect({ route: `${g.method} ${g.url} (${g.app})`, status: r.status }).toEqual({
        route: `${g.method} ${g.url} (${g.app})`,
        status: 403,
      });
      checked.push(g.code);
    }
    // Every code of the §6 list guards at least one route.
    for (const code of [
      'org-add',
      'org-edit',
      'org-remove',
      'org-editLink',
      'resource-add',
      'resource-edit',
      'resource-remove',
      'resource-add-app-vehicle',
      'resource-edit-app-vehicle',
      'resource-remove-app-vehicle',
      'role-add',
      'role-edit',
      'role-remove',
      'role-authorize',
      'role-add-app-vehicle',
      'role-edit-app-vehicle',
      'role-remove-app-vehicle',
      'role-authorize-app-vehicle',
      'member-register',
      'member-edit',
      'member-resetpassword',
    ]) {
      expect(checked).toContain(code);
    }
  });

  it('lets only members of a system organisation write shared entities and the menu tree, and everyone read them', async () => {
    // Rows of no organisation belong to everyone: each such schema says so.
    expect(
      Object.values(entityFiles)
        .filter((f) => !f['x-entity'].orgScoped && !f['x-entity'].shared)
        .map((f) => f['x-entity'].name),
    ).toEqual([]);
    const marked = s.app.routeCatalogue.filter((r) => r.sharedWrite).map((r) => `${r.method} ${r.url}`);
    const expected: string[] = [];
    for (const f of Object.values(entityFiles).filter((e) => e['x-entity'].shared)) {
      for (const [op, routes] of Object.entries(f['x-entity'].routes)) {
        if (WRITE_OPERATIONS.has(op as never)) expected.push(...(routes ?? []).map((r) => parseRoute(r).join(' ')));
      }
    }
    expect(expected).toEqual(
      expect.arrayContaining([
        'POST /api/vehicle/expertFault',
        'PUT /api/vehicle/expertFault/:id',
        'DELETE /api/vehicle/expertFault/:id',
        'POST /api/vehicle/expertFault/import',
      ]),
    );
    for (const e of expected) expect(marked).toContain(e);
    for (const e of ['POST /api/passport/resource', 'PUT /api/passport/resource/:id', 'DELETE /api/passport/resource/:id'])
      expect(marked).toContain(e);
    // Reading is never marked.
    expect(marked.filter((m) => /\/(query|options|export|template)\b/.test(m) || m.startsWith('GET '))).toEqual([]);

    // A tenant's administrator holding every code is refused every shared write, and changes nothing.
    const fault = (
      await s.call(admin, 'POST', '/api/vehicle/expertFault', {
        spn: 523999,
        fmi: 1,
        name: '平台故障',
        unit: 'ECU',
        level: 'high',
        description: '说明',
        resolvent: '处理',
      })
    ).body;
    const tenant = await s.memberToken('HN', 'administrator');
    for (const m of marked) {
      const [method, url] = m.split(' ');
      const r = await s.call(
        tenant,
        method as 'GET',
        concrete(url).replace('/1', `/${fault.id}`),
        method === 'DELETE' ? undefined : { name: '改共享' },
        undefined,
        { 'x-application-code': 'obd-web' },
      );
      expect({ route: m, status: r.status, code: r.body?.code }).toEqual({ route: m, status: 403, code: 'security.sharedSystemOnly' });
    }
    expect((await s.call(tenant, 'PUT', `/api/vehicle/expertFault/${fault.id}`, { name: '改共享' }, 'en-US')).body.message).toMatch(
      /only members of a system organisation/,
    );
    const after = await s.call(tenant, 'GET', `/api/vehicle/expertFault/${fault.id}`);
    expect(after.status).toBe(200);
    expect(after.body.name).toBe(fault.name);
    // A member of the system organisation with the code (not an administrator) writes it.
    const operator = await s.memberToken(ROOT_ORG, 'orgUser', ['expertFault-add', 'expertFault-edit']);
    const made = await s.call(operator, 'POST', '/api/vehicle/expertFault', {
      spn: 524000,
      fmi: 31,
      name: '共享故障',
      unit: 'ECU',
      level: 'low',
      description: '说明',
      resolvent: '处理',
    });
    expect(made.status).toBe(201);
    expect((await s.call(operator, 'PUT', `/api/vehicle/expertFault/${made.body.id}`, { name: '共享故障2' })).status).toBe(200);
    expect((await s.call(tenant, 'GET', `/api/vehicle/expertFault/${made.body.id}`)).body.name).toBe('共享故障2');
  });

  it('builds the menu from the caller roles: fewer grants, fewer menus', async () => {
    const full = await s.call(admin, 'GET', '/api/passport/resource/authorized/obd-web');
    const few = await s.call(await s.memberToken('HD', 'orgUser', ['vehicle-add']), 'GET', '/api/passport/resource/authorized/obd-web');
    const flat = (tree: Array<{ code: string; children: unknown[] }>): string[] =>
      tree.flatMap((n) => [n.code, ...flat(n.children as typeof tree)]);
    expect(flat(full.body)).toEqual(
      expect.arrayContaining(['dashboard', 'system', 'system-role', 'role-authorize', 'fleet-vehicleList', 'vehicle-add']),
    );
    expect(flat(few.body)).toEqual(['fleet', 'fleet-vehicleList', 'vehicle-add']);
    expect(few.body[0]).toMatchObject({ name: '车队管理', kind: 'Menu', path: '/fleet', url: null, icon: 'CarOutlined' });
    const app = await s.call(admin, 'GET', '/api/passport/resource/authorized/vehicle-app');
    expect(flat(app.body)).toContain('app-vehicle-track');
    expect((await s.call(admin, 'GET', '/api/passport/resource/authorized/elsewhere')).status).toBe(400);
  });

  it('lets no member grant a role a code they lack, nor assign such a role', async () => {
    const res = (await s.call(admin, 'GET', '/api/passport/resource/all')).body;
    const idOf = (code: string) => {
      const find = (nodes: Array<{ id: number; code: string; children: unknown[] }>): number | undefined => {
        for (const n of nodes) {
          if (n.code === code) return n.id;
          const hit = find(n.children as typeof nodes);
          if (hit) return hit;
        }
      };
      return find(res)!;
    };
    const lead = await s.addMember('HD', 'orgUser', ['role-add', 'role-authorize', 'member-register', 'vehicle-add']);
    const mine = await s.call(lead.token, 'POST', '/api/passport/role', { name: '录入员', resourceIds: [idOf('vehicle-add')] });
    expect(mine.status).toBe(201);
    expect(mine.body).toMatchObject({ name: '录入员', orgId: await s.orgId('HD'), resourceIds: [idOf('vehicle-add')] });
    const tooMuch = await s.call(lead.token, 'POST', '/api/passport/role', { name: '越权', resourceIds: [idOf('vehicle-remove')] });
    expect(tooMuch.status).toBe(406);
    expect(tooMuch.body.message).toBe('不能授予自己没有的权限：vehicle-remove');
    const widen = await s.call(lead.token, 'PUT', `/api/passport/role/${mine.body.id}/authorize`, {
      resourceIds: [idOf('vehicle-add'), idOf('org-remove')],
    });
    expect(widen.status).toBe(406);
    expect((await s.call(lead.token, 'GET', `/api/passport/role/${mine.body.id}/authorize`)).body.resourceIds).toEqual([
      idOf('vehicle-add'),
    ]);
    // A role the administrator made with more codes cannot be handed out by the lead.
    const big = await s.call(admin, 'POST', '/api/passport/role', {
      name: '大角色',
      orgId: await s.orgId('HD'),
      resourceIds: [idOf('org-remove')],
    });
    expect(big.status).toBe(201);
    const reg = await s.call(lead.token, 'POST', '/api/passport/passport/register', {
      loginName: 'via-big',
      name: '借角色',
      memberType: 'orgUser',
      expireDate: '2099-01-01',
      password: 'Start2026x',
      roleIds: [big.body.id],
    });
    expect(reg.status).toBe(406);
    const admType = await s.call(lead.token, 'POST', '/api/passport/passport/register', {
      loginName: 'via-type',
      name: '管理员',
      memberType: 'administrator',
      expireDate: '2099-01-01',
      password: 'Start2026x',
    });
    expect(admType.status).toBe(403);
    // Unknown resources and resources of another application are refused on the field.
    const foreign = await s.call(admin, 'POST', '/api/passport/role', { name: 'x', resourceIds: [idOf('vehicle-add'), 99999] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors[0].field).toBe('resourceIds');
    // The vehicle-app variant needs its own code and creates a role of that application.
    const appRole = await s.call(admin, 'POST', '/api/passport/role', { name: 'App 司机' }, undefined, {
      'x-application-code': 'vehicle-app',
    });
    expect(appRole.body.application).toBe('vehicle-app');
    expect(
      (await s.call(lead.token, 'POST', '/api/passport/role', { name: 'y' }, undefined, { 'x-application-code': 'vehicle-app' })).status,
    ).toBe(403);
    // A role in use cannot be deleted; an unused one can.
    const used = await s.call(admin, 'POST', '/api/passport/passport/register', {
      loginName: 'holder',
      name: '持有人',
      memberType: 'orgUser',
      expireDate: '2099-01-01',
      password: 'Start2026x',
      orgId: await s.orgId('HD'),
      roleIds: [mine.body.id],
    });
    expect(used.status).toBe(201);
    expect((await s.call(admin, 'DELETE', `/api/passport/role/${mine.body.id}`)).body.message).toBe('该角色已分配给账号，无法删除');
    expect((await s.call(admin, 'DELETE', `/api/passport/role/${big.body.id}`)).status).toBe(204);
  });

  it("keeps organisation A away from sibling B's rows on every entity route", async () => {
    const hd = await s.memberToken(
      'HD',
      'orgUser',
      actionCodes(MENUS['obd-web']).filter((c) => !c.startsWith('resource-')),
    );
    const hn = await s.orgId('HN');
    const pick = async (url: string, criteria: Record<string, unknown> = { orgId: hn }) =>
      (await s.call(admin, 'POST', url, { criteria, pageSize: 1 })).body.data[0].id as number;
    const hnMember = (await s.addMember('HN', 'orgUser')).id;
    const hnRole = (await s.call(admin, 'POST', '/api/passport/role', { name: '华南角色', orgId: hn })).body.id;
    const hnApiUser = (await s.call(admin, 'POST', '/api/vehicle/apiUser', { name: '华南集成', appKey: 'hn-integrator', orgId: hn })).body
      .id;
    const hnKey = (await s.call(admin, 'POST', `/api/vehicle/apiUser/${hnApiUser}/keys`, { name: 'k', days: 1, codes: ['vehicle-edit'] }))
      .body.id;
    const ids = {
      vehicle: await pick('/api/vehicle/vehicle/query'),
      terminal: await pick('/api/vehicle/terminal/query'),
      driver: await pick('/api/vehicle/driver/query'),
      vehicleBrand: await pick('/api/vehicle/vehicleBrand/query'),
      fuelType: await pick('/api/vehicle/fuelType/query'),
    };
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', `/api/vehicle/vehicle/queryById/${ids.vehicle}`],
      ['PUT', `/api/vehicle/vehicle/${ids.vehicle}`, { licence: '沪X99999' }],
      ['DELETE', `/api/vehicle/vehicle/${ids.vehicle}`],
      ['PUT', `/api/vehicle/terminal/${ids.terminal}`, { sim: '14400000000' }],
      ['DELETE', `/api/vehicle/terminal/${ids.terminal}`],
      ['PUT', `/api/vehicle/driver/${ids.driver}`, { name: '越界' }],
      ['DELETE', `/api/vehicle/driver/${ids.driver}`],
      ['GET', `/api/vehicle/vehicleBrand/query/${ids.vehicleBrand}`],
      ['PUT', `/api/vehicle/vehicleBrand/${ids.vehicleBrand}`, { name: '越界' }],
      ['DELETE', `/api/vehicle/vehicleBrand/${ids.vehicleBrand}`],
      ['PUT', `/api/vehicle/fuelType/${ids.fuelType}`, { price: 1 }],
      ['DELETE', `/api/vehicle/fuelType/${ids.fuelType}`],
      ['PUT', `/api/vehicle/org/${hn}`, { name: '越界' }],
      ['PUT', `/api/vehicle/org/editLink/${hn}`, { link: 'https://example.com' }],
      ['DELETE', `/api/vehicle/org/${hn}`],
      ['GET', `/api/passport/org/tree/${hn}/orgType`],
      ['GET', `/api/passport/member/${hnMember}`],
      ['PUT', `/api/passport/member/${hnMember}`, { name: '越界' }],
      ['PUT', '/api/passport/member/reset-password', { id: hnMember, password: 'Reset2026x' }],
      ['GET', `/api/passport/member/${hnMember}/signin/obd-web`],
      ['PUT', `/api/passport/role/${hnRole}`, { name: '越界' }],
      ['DELETE', `/api/passport/role/${hnRole}`],
      ['GET', `/api/passport/role/${hnRole}/authorize`],
      ['PUT', `/api/passport/role/${hnRole}/authorize`, { resourceIds: [] }],
      ['GET', `/api/passport/role/${hnRole}/resources`],
      ['GET', `/api/passport/resource/assignable/${hnRole}`],
      ['GET', `/api/vehicle/apiUser/${hnApiUser}/keys`],
      ['POST', `/api/vehicle/apiUser/${hnApiUser}/keys`, { name: '越界', days: 1, codes: ['vehicle-edit'] }],
      ['PUT', `/api/vehicle/apiKey/${hnKey}`, { enabled: false }],
      ['DELETE', `/api/vehicle/apiKey/${hnKey}`],
    ];
    for (const [method, url, body] of attempts) {
      const r = await s.call(hd, method as 'GET', url, body);
      expect({ call: `${method} ${url}`, status: r.status }).toEqual({ call: `${method} ${url}`, status: 404 });
    }
    // Lists show nothing of B either, and nothing can be placed in B.
    const orgs = await s.call(hd, 'POST', '/api/vehicle/org/query', { pageSize: 100 });
    expect(orgs.body.data.map((o: { code: string }) => o.code).sort()).toEqual(['HD', 'HD-HZ', 'HD-SH']);
    const tree = await s.call(hd, 'GET', '/api/vehicle/org/tree/options/');
    expect(tree.body).toEqual([
      expect.objectContaining({
        label: '华东物流有限公司',
        children: [expect.objectContaining({ label: '上海车队' }), expect.objectContaining({ label: '杭州车队' })],
      }),
    ]);
    const members = await s.call(hd, 'POST', '/api/passport/member/query', { pageSize: 500 });
    expect(members.body.data.some((m: { orgName: string }) => m.orgName.startsWith('华南') || m.orgName === '深圳车队')).toBe(false);
    expect((await s.call(hd, 'GET', '/api/passport/role/all')).body.some((r: { id: number }) => r.id === hnRole)).toBe(false);
    expect((await s.call(hd, 'POST', '/api/vehicle/org', { code: 'IN-HN', name: '放进华南', parentId: hn })).status).toBe(400);
    expect((await s.call(hd, 'POST', '/api/passport/role', { name: 'r', orgId: hn })).status).toBe(400);
    expect(
      (
        await s.call(hd, 'POST', '/api/passport/passport/register', {
          loginName: 'into-hn',
          name: 'x',
          memberType: 'orgUser',
          expireDate: '2099-01-01',
          password: 'Start2026x',
          orgId: hn,
        })
      ).status,
    ).toBe(400);
    // B still has everything.
    expect((await s.call(admin, 'GET', `/api/vehicle/vehicle/queryById/${ids.vehicle}`)).status).toBe(200);
  });
});
