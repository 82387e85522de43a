import { BACKENDS, type TestServer, useTestServer } from '../../helpers/testServer';

/**
 * What the system administration pages need beyond the first passport routes: per-field account
 * and log searches, App account editing under appMember-edit, and granting the menus above what
 * one holds (the menus the assignable tree offers).
 */
describe.each(BACKENDS)('passport routes of the system pages on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });

  type Node = { id: number; code: string; children: Node[] };
  const flat = (tree: Node[]): Node[] => tree.flatMap((n) => [n, ...flat(n.children)]);
  const APP = { 'x-application-code': 'vehicle-app' };
  const body = { memberType: 'orgUser', expireDate: '2099-01-01', password: 'Start2026x' };
  const loginNames = (r: { body: { data: Array<{ loginName: string }> } }) => r.body.data.map((m) => m.loginName).sort();

  it('searches accounts by login name, name and mobile on their own, inside the caller subtree', async () => {
    const hn = await s.orgId('HN');
    await s.call(admin, 'POST', '/api/passport/passport/register', {
      ...body,
      loginName: 'find-Me',
      name: '查找甲',
      mobile: '13700000011',
      orgId: hn,
    });
    await s.call(admin, 'POST', '/api/passport/passport/register', {
      ...body,
      loginName: 'other-1',
      name: '查找乙',
      mobile: '13700000012',
      orgId: hn,
    });
    const q = (criteria: Record<string, unknown>, token = admin) =>
      s.call(token, 'POST', '/api/passport/member/query', { criteria, pageSize: 50 });

    expect(loginNames(await q({ loginName: 'FIND' }))).toEqual(['find-Me']);
    expect(loginNames(await q({ name: '查找' }))).toEqual(['find-Me', 'other-1']);
    expect(loginNames(await q({ name: '查找', mobile: '0012' }))).toEqual(['other-1']);
    // A login name that matches nothing, and a wildcard taken literally.
    expect(loginNames(await q({ loginName: 'find-Me-not' }))).toEqual([]);
    expect(loginNames(await q({ loginName: '%' }))).toEqual([]);
    // Another organisation's accounts stay out of reach.
    const hd = await s.memberToken('HD', 'orgUser', []);
    expect(loginNames(await q({ mobile: '13700000011' }, hd))).toEqual([]);
    expect(loginNames(await q({ mobile: '13916880102' }, hd))).toEqual(['sh-dispatcher']);

    const tooLong = await q({ loginName: 'x'.repeat(65) }, admin);
    expect(tooLong.status).toBe(400);
    expect((await q({ mobile: 13700000011 })).status).toBe(400);
  });

  it('searches the log by actor and target, newest first, only in the subtree and only with log-view', async () => {
    const hd = await s.addMember('HD', 'orgUser', ['log-view']);
    await s.call(hd.token, 'POST', '/api/vehicle/audit/audit/obd-web', { action: 'export', target: 'vehicles-HD' });
    await s.call(admin, 'POST', '/api/vehicle/audit/audit/obd-web', { action: 'export', target: 'vehicles-root' });
    const q = (criteria: Record<string, unknown>, token = admin) =>
      s.call(token, 'POST', '/api/vehicle/audit/query', { criteria, pageSize: 50 });

    const byTarget = await q({ target: 'VEHICLES-' });
    expect(byTarget.body.data.map((r: { target: string }) => r.target)).toEqual(['vehicles-root', 'vehicles-HD']);
    const byActor = await q({ memberName: hd.loginName, target: 'vehicles' });
    expect(byActor.body.data.map((r: { memberName: string; action: string }) => `${r.memberName} ${r.action}`)).toEqual([
      `${hd.loginName} client:export`,
    ]);
    // The member of HD sees its own event, not the platform's.
    expect((await q({ target: 'vehicles-' }, hd.token)).body.data.map((r: { target: string }) => r.target)).toEqual(['vehicles-HD']);
    expect((await q({ memberName: 'nobody-such' })).body.data).toEqual([]);

    expect((await q({ target: 'x'.repeat(201) })).status).toBe(400);
    expect((await q({ memberName: 7 })).status).toBe(400);
    expect((await q({}, await s.memberToken('HD', 'orgUser', ['member-edit']))).status).toBe(403);
  });

  it('logs a refused password change as a failure and names each target, deleted rows by the name they had', async () => {
    const hd = await s.addMember('HD', 'orgUser', []);
    const refused = await s.call(hd.token, 'POST', '/api/passport/member/change-password', {
      oldPassword: 'Wrong2026x',
      newPassword: 'Moved2027y',
    });
    expect(refused.status).toBe(400);
    const hn = await s.orgId('HN');
    const registered = await s.call(admin, 'POST', '/api/passport/passport/register', {
      ...body,
      loginName: 'named-target',
      name: '目标丙',
      orgId: hn,
    });
    expect(registered.status).toBeLessThan(300);
    const brand = await s.call(admin, 'POST', '/api/vehicle/vehicleBrand', { name: '审计品牌' });
    expect((await s.call(admin, 'DELETE', `/api/vehicle/vehicleBrand/${brand.body.id}`)).status).toBe(204);
    const terminal = await s.call(admin, 'PUT', '/api/vehicle/terminal', { terminalNo: 'AUDIT0001', sim: '13922220001' });
    expect((await s.call(admin, 'DELETE', `/api/vehicle/terminal/${terminal.body.id}`)).status).toBe(204);
    await s.call(admin, 'POST', '/api/vehicle/org', { code: 'hd-audit', name: '审计车队', parentId: await s.orgId('HD') });
    await s.call(admin, 'POST', '/api/vehicle/audit/audit/obd-web', { action: 'export', target: 'free text' });

    type Logged = {
      action: string;
      target: string | null;
      success: boolean;
      detail: string | null;
      targetKind: string | null;
      targetName: string | null;
    };
    const logged = (await s.call(admin, 'POST', '/api/vehicle/audit/query', { criteria: {}, pageSize: 50 })).body.data as Logged[];
    const one = (action: string, match: (r: Logged) => boolean = () => true) => logged.find((r) => r.action === action && match(r));
    expect(one('passwordChange', (r) => r.detail === 'oldPasswordWrong')).toMatchObject({ success: false, targetKind: null });
    expect(one('memberRegister', (r) => r.target === String(registered.body.id))).toMatchObject({
      targetKind: 'member',
      targetName: '目标丙',
    });
    expect(one('entityDelete', (r) => r.target === `vehicleBrand:${brand.body.id}`)).toMatchObject({
      success: true,
      targetKind: 'vehicleBrand',
      targetName: '审计品牌',
    });
    // A deleted terminal by the number it had, not by its id.
    expect(one('entityDelete', (r) => r.target === `terminal:${terminal.body.id}`)).toMatchObject({
      targetKind: 'terminal',
      targetName: 'AUDIT0001',
    });
    // Organisation codes are matched without case, as they are stored.
    expect(one('orgCreate', (r) => r.target === 'hd-audit')).toMatchObject({ targetKind: 'organisation', targetName: '审计车队' });
    expect(one('client:export', (r) => r.target === 'free text')).toMatchObject({ targetKind: null, targetName: null });
  });

  it('edits App accounts under appMember-edit: person, validity and App roles, leaving web roles alone', async () => {
    const hd = await s.orgId('HD');
    const all = flat((await s.call(admin, 'GET', '/api/passport/resource/all', undefined, undefined, APP)).body);
    const appRes = (code: string) => all.find((r) => r.code === code)!.id;
    const driverRole = (
      await s.call(
        admin,
        'POST',
        '/api/passport/role',
        { name: 'App 司机', orgId: hd, resourceIds: [appRes('app-vehicle'), appRes('app-vehicle-locate')] },
        undefined,
        APP,
      )
    ).body;
    const trackRole = (
      await s.call(
        admin,
        'POST',
        '/api/passport/role',
        { name: 'App 回放', orgId: hd, resourceIds: [appRes('app-vehicle-track')] },
        undefined,
        APP,
      )
    ).body;
    const webRole = (await s.call(admin, 'GET', '/api/passport/role/all')).body.find(
      (r: { name: string; orgName: string }) => r.name === '调度员',
    );
    const member = (
      await s.call(admin, 'POST', '/api/passport/passport/register', {
        ...body,
        loginName: 'app-driver',
        name: '司机甲',
        mobile: '13700000021',
        orgId: hd,
        applications: ['obd-web', 'vehicle-app'],
        roleIds: [webRole.id, driverRole.id],
      })
    ).body;
    const webOnly = (
      await s.call(admin, 'POST', '/api/passport/passport/register', { ...body, loginName: 'web-only', name: '网页', orgId: hd })
    ).body;

    const lead = await s.addMember('HD', 'orgUser', ['appMember-edit']);
    // The lead holds the driver role's App codes (through an App role of its own), not the track one.
    const leadApp = (
      await s.call(
        admin,
        'POST',
        '/api/passport/role',
        { name: 'App 组长', orgId: hd, resourceIds: [appRes('app-vehicle'), appRes('app-vehicle-locate')] },
        undefined,
        APP,
      )
    ).body;
    const leadRoles = (await s.call(admin, 'GET', `/api/passport/member/${lead.id}`)).body.roleIds;
    expect((await s.call(admin, 'PUT', `/api/passport/member/${lead.id}`, { roleIds: [...leadRoles, leadApp.id] })).status).toBe(200);
    const url = `/api/passport/app-member/${member.id}`;

    const ok = await s.call(lead.token, 'PUT', url, {
      name: '司机乙',
      mobile: '13700000022',
      expireDate: '2098-06-30',
      status: 'disabled',
      roleIds: [driverRole.id],
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      name: '司机乙',
      mobile: '13700000022',
      expireDate: '2098-06-30',
      status: 'disabled',
      loginName: 'app-driver',
    });
    expect(ok.body.roleIds.sort()).toEqual([webRole.id, driverRole.id].sort());
    // Removing the App roles keeps the web role.
    expect((await s.call(lead.token, 'PUT', url, { roleIds: [] })).body.roleIds).toEqual([webRole.id]);

    const refused = async (b: unknown, status: number, token = lead.token, target = url) => {
      const r = await s.call(token, 'PUT', target, b);
      expect({ body: b, status: r.status }).toEqual({ body: b, status });
      return r.body;
    };
    expect((await refused({ mobile: '123' }, 400)).errors[0]).toMatchObject({ field: 'mobile', message: '手机号格式不正确' });
    expect((await refused({ name: '' }, 400)).errors[0].field).toBe('name');
    // Login name, type and organisation are not the App page's to change.
    await refused({ loginName: 'renamed' }, 400);
    await refused({ memberType: 'administrator' }, 400);
    expect((await refused({ roleIds: [webRole.id] }, 400)).errors[0].field).toBe('roleIds');
    expect((await refused({ roleIds: [trackRole.id] }, 406)).message).toBe('不能授予自己没有的权限：app-vehicle-track');
    expect((await refused({ mobile: '13916880101' }, 406)).message).toBe('手机号已存在');
    // Not an App account, another organisation's account, no such account: all 404.
    await refused({ name: 'x' }, 404, lead.token, `/api/passport/app-member/${webOnly.id}`);
    const hnApp = (
      await s.call(admin, 'POST', '/api/passport/passport/register', {
        ...body,
        loginName: 'hn-app',
        name: '华南司机',
        orgId: await s.orgId('HN'),
        applications: ['vehicle-app'],
      })
    ).body;
    await refused({ name: 'x' }, 404, lead.token, `/api/passport/app-member/${hnApp.id}`);
    await refused({ name: 'x' }, 404, lead.token, '/api/passport/app-member/999999');
    // The code is required, whatever else the member holds.
    await refused({ name: 'x' }, 403, await s.memberToken('HD', 'orgUser', ['member-edit']));
    // Administrators' accounts are for administrators.
    const adm = (
      await s.call(admin, 'POST', '/api/passport/passport/register', {
        ...body,
        memberType: 'administrator',
        loginName: 'hd-adm',
        name: '管理员',
        orgId: hd,
        applications: ['vehicle-app'],
      })
    ).body;
    await refused({ name: 'x' }, 403, lead.token, `/api/passport/app-member/${adm.id}`);
    expect((await s.call(admin, 'PUT', `/api/passport/app-member/${adm.id}`, { name: '管理员二' })).body.name).toBe('管理员二');
  });

  it('lets a member grant the menus above the codes they hold, and nothing beside them', async () => {
    const all = flat((await s.call(admin, 'GET', '/api/passport/resource/all')).body);
    const id = (code: string) => all.find((r) => r.code === code)!.id;
    const lead = await s.addMember('HD', 'orgUser', ['role-add', 'role-authorize', 'vehicle-add']);
    const assignable = await s.call(lead.token, 'POST', '/api/passport/role', { name: '录入' });
    const offered = flat((await s.call(lead.token, 'GET', `/api/passport/resource/assignable/${assignable.body.id}`)).body.resources).map(
      (r) => r.code,
    );
    expect(offered).toEqual(expect.arrayContaining(['system', 'system-role', 'fleet', 'fleet-vehicleList', 'vehicle-add']));

    const put = (ids: number[]) => s.call(lead.token, 'PUT', `/api/passport/role/${assignable.body.id}/authorize`, { resourceIds: ids });
    const granted = await put([id('fleet'), id('fleet-vehicleList'), id('vehicle-add'), id('system')]);
    expect(granted.status).toBe(200);
    expect(granted.body.resourceIds).toHaveLength(4);
    // A sibling menu and a sibling code are not the lead's to grant.
    expect((await put([id('fleet-brand')])).body.message).toBe('不能授予自己没有的权限：fleet-brand');
    expect((await put([id('vehicle-edit')])).body.message).toBe('不能授予自己没有的权限：vehicle-edit');
    expect((await put([id('system-org')])).status).toBe(406);
  });
});
