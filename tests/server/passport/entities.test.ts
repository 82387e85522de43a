import { BACKENDS, type TestServer, useTestServer } from '../../helpers/testServer';

/** Organisations, resources and accounts: each route's success and its business and validation refusals. */
describe.each(BACKENDS)('passport entities on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });

  it('creates, edits, moves, links and deletes organisations, refusing deletes that would orphan data', async () => {
    const hd = await s.orgId('HD');
    const a = await s.call(admin, 'POST', '/api/vehicle/org', {
      code: 'HD-NJ',
      name: '南京车队',
      parentId: hd,
      type: 'serviceTeam',
      phone: '02588880001',
    });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ code: 'HD-NJ', parentId: hd, parentName: '华东物流有限公司', type: 'serviceTeam', status: 'enabled' });
    const child = await s.call(admin, 'POST', '/api/vehicle/org', { code: 'HD-NJ-1', name: '南京一队', parentId: a.body.id });
    expect(child.status).toBe(201);

    const dup = await s.call(admin, 'POST', '/api/vehicle/org', { code: 'HD-NJ', name: '重复', parentId: hd });
    expect(dup.status).toBe(406);
    const bad = await s.call(admin, 'POST', '/api/vehicle/org', { code: '', name: '', parentId: hd, phone: '123' }, 'en-US');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining(['code', 'name', 'phone']));
    expect(bad.body.errors.find((e: { field: string }) => e.field === 'phone').message).toBe(
      'Contact number must be a mobile number or a landline with its area code (e.g. 025-88880005)',
    );

    expect((await s.call(admin, 'PUT', `/api/vehicle/org/editLink/${a.body.id}`, { link: 'ftp://x' })).status).toBe(400);
    const link = await s.call(admin, 'PUT', `/api/vehicle/org/editLink/${a.body.id}`, { link: 'https://nj.example.com' });
    expect(link.body.link).toBe('https://nj.example.com');

    // Moving an organisation moves its subtree; moving it below itself is refused.
    expect((await s.call(admin, 'PUT', `/api/vehicle/org/${a.body.id}`, { parentId: child.body.id })).status).toBe(400);
    const moved = await s.call(admin, 'PUT', `/api/vehicle/org/${a.body.id}`, { parentId: await s.orgId('HN') });
    expect(moved.body.parentName).toBe('华南运输集团');
    const hnLead = await s.memberToken('HN', 'orgUser', ['org-edit']);
    const seen = await s.call(hnLead, 'POST', '/api/vehicle/org/query', { criteria: { keyword: '南京' } });
    expect(seen.body.data.map((o: { code: string }) => o.code).sort()).toEqual(['HD-NJ', 'HD-NJ-1']);

    expect((await s.call(admin, 'DELETE', `/api/vehicle/org/${a.body.id}`)).body.message).toBe('该组织下还有子组织，无法删除');
    const member = await s.call(admin, 'POST', '/api/passport/passport/register', {
      loginName: 'nj-1',
      name: '南京',
      memberType: 'orgUser',
      expireDate: '2099-01-01',
      password: 'Start2026x',
      orgId: child.body.id,
    });
    expect(member.status).toBe(201);
    expect((await s.call(admin, 'DELETE', `/api/vehicle/org/${child.body.id}`)).body.message).toBe('该组织下还有账号，无法删除');
    const hdOwn = await s.memberToken('HD', 'orgUser', ['org-remove']);
    expect((await s.call(hdOwn, 'DELETE', `/api/vehicle/org/${hd}`)).body.message).toBe('不能删除或移动自己所在的组织');
    const withVehicles = await s.call(admin, 'DELETE', `/api/vehicle/org/${await s.orgId('HD-SH')}`);
    expect(withVehicles.status).toBe(406);

    const empty = await s.call(admin, 'POST', '/api/vehicle/org', { code: 'EMPTY', name: '空组织', parentId: hd });
    expect((await s.call(admin, 'DELETE', `/api/vehicle/org/${empty.body.id}`)).status).toBe(204);
    expect((await s.call(admin, 'GET', `/api/passport/org/tree/${hd}/orgType`)).body).toEqual({ id: hd, orgType: 'client' });
  });

  it('manages resources per application with parent checks', async () => {
    const top = await s.call(admin, 'POST', '/api/passport/resource', {
      name: '报表中心',
      code: 'reports',
      kind: 'Menu',
      path: '/reports',
      sort: 99,
    });
    expect(top.status).toBe(201);
    const leaf = await s.call(admin, 'POST', '/api/passport/resource', {
      name: '月报',
      code: 'reports-month',
      kind: 'Menu',
      path: '/reports/month',
      url: 'reports/month',
      sort: 1,
      parentId: top.body.id,
    });
    expect(leaf.body).toMatchObject({ parentId: top.body.id, application: 'obd-web' });
    const missing = await s.call(admin, 'POST', '/api/passport/resource', { name: '' }, 'ja-JP');
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining(['code', 'kind', 'sort']));
    expect((await s.call(admin, 'POST', '/api/passport/resource', { name: '重复', code: 'reports', kind: 'Menu', sort: 1 })).status).toBe(
      406,
    );
    // The parent must be of the same application, and not the resource itself or below it.
    const other = await s.call(
      admin,
      'POST',
      '/api/passport/resource',
      { name: 'x', code: 'x', kind: 'Menu', sort: 1, parentId: top.body.id },
      undefined,
      { 'x-application-code': 'vehicle-app' },
    );
    expect(other.status).toBe(400);
    expect((await s.call(admin, 'PUT', `/api/passport/resource/${top.body.id}`, { parentId: leaf.body.id })).body.message).toBe(
      '上级资源不存在或不属于该应用',
    );
    expect((await s.call(admin, 'PUT', `/api/passport/resource/${top.body.id}`, { name: '报表' })).body.name).toBe('报表');
    expect((await s.call(admin, 'DELETE', `/api/passport/resource/${top.body.id}`)).body.message).toBe('该资源下还有子资源，无法删除');
    // A resource of obd-web is not found through the vehicle-app variant.
    expect(
      (
        await s.call(admin, 'DELETE', `/api/passport/resource/${leaf.body.id}`, undefined, undefined, {
          'x-application-code': 'vehicle-app',
        })
      ).status,
    ).toBe(404);
    expect((await s.call(admin, 'DELETE', `/api/passport/resource/${leaf.body.id}`)).status).toBe(204);
    expect((await s.call(admin, 'DELETE', `/api/passport/resource/${top.body.id}`)).status).toBe(204);
    expect((await s.call(admin, 'GET', '/api/passport/resource/all', undefined, undefined, { 'x-application-code': 'nope' })).status).toBe(
      400,
    );
    // AppCode chooses the application when it names one.
    const viaAppCode = await s.call(admin, 'GET', '/api/passport/resource/all', undefined, undefined, { appcode: 'vehicle-app' });
    expect(viaAppCode.body.map((r: { code: string }) => r.code)).toEqual(['app-home', 'app-vehicle', 'app-alarm', 'app-mine']);
  });

  it('registers accounts with the phone rules of §5, edits them and lists them', async () => {
    const body = { memberType: 'orgUser', expireDate: '2099-01-01', password: 'Start2026x', orgId: await s.orgId('HD') };
    const first = await s.call(admin, 'POST', '/api/passport/passport/register', {
      ...body,
      loginName: 'phone-1',
      name: '甲',
      mobile: '13900000001',
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      loginName: 'phone-1',
      mobile: '13900000001',
      applications: ['obd-web'],
      firstSign: true,
      signInCount: 0,
    });
    const again = await s.call(admin, 'POST', '/api/passport/passport/register', {
      ...body,
      loginName: 'phone-2',
      name: '乙',
      mobile: '13900000001',
    });
    expect(again.status).toBe(406);
    expect(again.body.message).toBe('手机号已存在');
    const badPhone = await s.call(admin, 'POST', '/api/passport/passport/register', {
      ...body,
      loginName: 'phone-3',
      name: '丙',
      mobile: '12345',
    });
    expect(badPhone.body.errors[0]).toMatchObject({ field: 'mobile', message: '手机号格式不正确' });
    const missing = await s.call(admin, 'POST', '/api/passport/passport/register', { memberType: 'orgUser' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining(['loginName', 'name', 'password']));
    // Expiry is optional (the seeded accounts have none).
    expect(missing.body.errors.map((e: { field: string }) => e.field)).not.toContain('expireDate');
    expect(
      (await s.call(admin, 'POST', '/api/passport/passport/register', { ...body, loginName: 'PHONE-1', name: '丁' })).body.message,
    ).toBe('登录名已存在');

    // Registered on the app only: the web asks, then enables the same account here.
    const appOnly = await s.call(
      admin,
      'POST',
      '/api/passport/passport/register',
      { ...body, loginName: 'app-1', name: '戊', mobile: '13900000002' },
      undefined,
      { 'x-application-code': 'vehicle-app' },
    );
    expect(appOnly.body.applications).toEqual(['vehicle-app']);
    const ask = await s.call(admin, 'POST', '/api/passport/passport/register', {
      ...body,
      loginName: 'web-1',
      name: '戊',
      mobile: '13900000002',
    });
    expect(ask.status).toBe(406);
    expect(ask.body).toMatchObject({ code: 'passport.phoneOnOtherPlatform', message: '该手机号已在其他平台注册，是否在本平台启用？' });
    const enable = await s.call(admin, 'POST', '/api/passport/passport/register', {
      ...body,
      loginName: 'web-1',
      name: '戊',
      mobile: '13900000002',
      enableExisting: true,
    });
    expect(enable.status).toBe(200);
    expect(enable.body.object).toMatchObject({ id: appOnly.body.id, applications: ['obd-web', 'vehicle-app'] });

    const edit = await s.call(admin, 'PUT', `/api/passport/member/${first.body.id}`, { name: '甲二', status: 'disabled' });
    expect(edit.body).toMatchObject({ name: '甲二', status: 'disabled' });
    expect((await s.call(admin, 'PUT', `/api/passport/member/${first.body.id}`, { mobile: '13900000002' })).body.message).toBe(
      '手机号已存在',
    );
    expect((await s.call(admin, 'PUT', `/api/passport/member/${first.body.id}`, { expireDate: 'tomorrow' })).status).toBe(400);
    expect((await s.call(null, 'POST', '/api/login', { loginName: 'phone-1', password: 'Start2026x' })).body.message).toBe('账号已停用');

    const list = await s.call(admin, 'POST', '/api/passport/member/query', {
      criteria: { keyword: '1390000000' },
      order: { property: 'loginName', direction: 'DESC' },
    });
    expect(list.body.data.map((m: { loginName: string }) => m.loginName)).toEqual(['phone-1', 'app-1']);
    expect((await s.call(admin, 'POST', '/api/passport/member/query', { criteria: { password: 'x' } })).status).toBe(400);
    const apps = await s.call(admin, 'GET', '/api/passport/member/applications', undefined, 'en-US');
    expect(apps.body).toEqual([
      { code: 'obd-web', name: 'Fleet Star web' },
      { code: 'vehicle-app', name: 'Fleet Star app' },
    ]);
  });

  it('records client audit events and deletions, and shows them only to holders of log-view', async () => {
    expect((await s.call(admin, 'POST', '/api/vehicle/audit/audit/obd-web', { action: 'export', target: 'vehicles' })).status).toBe(201);
    expect((await s.call(admin, 'POST', '/api/vehicle/audit/audit/obd-web', { target: 'no action' })).status).toBe(400);
    const brand = await s.call(admin, 'POST', '/api/vehicle/vehicleBrand', { name: '待删品牌' });
    expect((await s.call(admin, 'DELETE', `/api/vehicle/vehicleBrand/${brand.body.id}`)).status).toBe(204);
    const log = await s.call(admin, 'POST', '/api/vehicle/audit/query', { pageSize: 5 });
    expect(log.body.data.slice(0, 2).map((r: { action: string; target: string }) => `${r.action} ${r.target}`)).toEqual([
      `entityDelete vehicleBrand:${brand.body.id}`,
      'client:export vehicles',
    ]);
    expect((await s.call(await s.memberToken('HD', 'orgUser', []), 'POST', '/api/vehicle/audit/query', {})).status).toBe(403);
  });
});
