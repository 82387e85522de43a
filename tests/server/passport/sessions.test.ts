import { ADMIN_PASSWORD, BACKENDS, MEMBER_PASSWORD, type TestServer, useTestServer } from '../../helpers/testServer';

/** Logins, passwords, lockout, logout and impersonation through the real server and database. */
describe.each(BACKENDS)('passport sessions on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });

  const login = (loginName: string, password: string, lang?: string) =>
    s.call(null, 'POST', '/api/login', { loginName, password, application: 'obd-web' }, lang);
  const register = (body: Record<string, unknown>, token = admin) =>
    s.call(token, 'POST', '/api/passport/passport/register', {
      memberType: 'orgUser',
      expireDate: '2099-12-31',
      password: 'Start2026x',
      ...body,
    });

  it('answers a good login in SPEC shape and a bad one with a localised 400', async () => {
    const ok = await login('admin', ADMIN_PASSWORD);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ success: true, message: '登录成功' });
    expect(ok.body.object).toEqual(
      expect.objectContaining({
        token: expect.any(String),
        uid: expect.any(String),
        name: '系统管理员',
        memberType: 'administrator',
        id: expect.any(Number),
        branch: 'FS',
        firstSign: false,
      }),
    );
    const bad = await login('admin', 'Wrong2026x', 'en-US');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, message: 'Wrong login name or password' });
    const nobody = await login('nobody-here', 'Wrong2026x');
    expect(nobody.status).toBe(400);
    expect(nobody.body.message).toBe('用户名或密码错误');
  });

  it('refuses expired accounts and members of disabled organisations, and records sign-ins', async () => {
    const expired = await register({ loginName: 'expired-1', name: '过期', expireDate: '2020-01-01', orgId: await s.orgId('HD') });
    expect(expired.status).toBe(201);
    expect((await login('expired-1', 'Start2026x')).body.message).toBe('账号已过期');

    const org = await s.call(admin, 'POST', '/api/vehicle/org', { code: 'TMP-DIS', name: '停用测试', parentId: await s.orgId('HN') });
    expect(org.status).toBe(201);
    expect((await register({ loginName: 'disorg-1', name: '停用组织成员', orgId: org.body.id })).status).toBe(201);
    const first = await login('disorg-1', 'Start2026x');
    expect(first.status).toBe(200);
    expect((await s.call(admin, 'PUT', `/api/vehicle/org/${org.body.id}`, { status: 'disabled' })).status).toBe(200);
    expect((await login('disorg-1', 'Start2026x')).body.message).toBe('所属组织已停用');
    // A token issued before the organisation was disabled stops working too.
    expect((await s.call(first.body.object.token, 'GET', '/api/passport/member/current')).status).toBe(401);

    const m = await s.call(admin, 'GET', `/api/passport/member/${first.body.object.id}`);
    expect(m.body).toMatchObject({ loginName: 'disorg-1', signInCount: 1, lastSignIn: expect.any(String) });
    const signins = await s.call(admin, 'GET', `/api/passport/member/${first.body.object.id}/signin/obd-web`);
    expect(signins.body.records).toHaveLength(1);
  });

  it('marks a first sign-in, and clears it once the password is changed', async () => {
    const r = await register({ loginName: 'first-1', name: '首次登录', orgId: await s.orgId('HD') });
    expect(r.status).toBe(201);
    const l = await login('first-1', 'Start2026x');
    expect(l.body.object.firstSign).toBe(true);
    const token = l.body.object.token;
    const changed = await s.call(token, 'POST', '/api/passport/member/change-password', {
      oldPassword: 'Start2026x',
      newPassword: 'Moved2027y',
      confirmPassword: 'Moved2027y',
      uid: l.body.object.uid,
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ success: true, message: '密码修改成功，请重新登录' });
    // Changing the password revokes every session, this one included.
    expect((await s.call(token, 'GET', '/api/passport/member/current')).status).toBe(401);
    expect((await login('first-1', 'Moved2027y')).body.object.firstSign).toBe(false);
  });

  it('rejects bad password changes with field messages and keeps the old password', async () => {
    await register({ loginName: 'change-1', name: '改密', orgId: await s.orgId('HD') });
    const token = (await login('change-1', 'Start2026x')).body.object.token;
    const call = (body: Record<string, unknown>, lang?: string) =>
      s.call(token, 'POST', '/api/passport/member/change-password', body, lang);
    const wrongOld = await call({ oldPassword: 'Wrong2026x', newPassword: 'Moved2027y' });
    expect(wrongOld.status).toBe(400);
    expect(wrongOld.body.errors[0]).toMatchObject({ field: 'oldPassword', message: '原密码不正确' });
    const weak = await call({ oldPassword: 'Start2026x', newPassword: 'abc12345' });
    expect(weak.status).toBe(400);
    expect(weak.body.errors[0]).toMatchObject({ field: 'newPassword', message: '密码强度太弱' });
    const mismatch = await call({ oldPassword: 'Start2026x', newPassword: 'Moved2027y', confirmPassword: 'Moved2027z' });
    expect(mismatch.body.message).toBe('两次输入的密码不一致，请重新输入');
    const missing = await call({ newPassword: 'Moved2027y' }, 'es-ES');
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].field).toBe('oldPassword');
    const other = await call({ oldPassword: 'Start2026x', newPassword: 'Moved2027y', uid: 'someone-else' });
    expect(other.status).toBe(403);
    // Nothing changed: the old password still logs in and the session is alive.
    expect((await s.call(token, 'GET', '/api/passport/member/current')).status).toBe(200);
    expect((await login('change-1', 'Start2026x')).status).toBe(200);
  });

  it('runs the weak-password flow end to end', async () => {
    // An administrator may set a 6–20 character password that breaks the strength rules.
    expect((await register({ loginName: 'weak-1', name: '弱密码', password: 'aaa111', orgId: await s.orgId('HD') })).status).toBe(201);
    const l = await login('weak-1', 'aaa111');
    expect(l.status).toBe(200);
    expect(l.body).toMatchObject({
      success: false,
      code: 'weakPassword',
      message: '密码强度太弱，请修改密码后重新登录',
      object: { weakPassword: true, token: expect.any(String), uid: expect.any(String) },
    });
    const weakToken = l.body.object.token;
    // The weak token opens nothing but the password change.
    const denied = await s.call(weakToken, 'POST', '/api/vehicle/vehicle/query', {});
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe('密码强度太弱，请先修改密码');
    expect((await s.call(weakToken, 'GET', '/api/passport/resource/authorized/obd-web')).status).toBe(403);
    const changed = await s.call(weakToken, 'POST', '/api/passport/member/change-password', {
      oldPassword: 'aaa111',
      newPassword: 'Better2026x',
      uid: l.body.object.uid,
    });
    expect(changed.status).toBe(200);
    expect(
      (await s.call(weakToken, 'POST', '/api/passport/member/change-password', { oldPassword: 'Better2026x', newPassword: 'Better2027y' }))
        .status,
    ).toBe(401);
    const full = await login('weak-1', 'Better2026x');
    expect(full.body.success).toBe(true);
    expect((await s.call(full.body.object.token, 'POST', '/api/vehicle/vehicle/query', {})).status).toBe(200);
  });

  it('slows, then locks an account after repeated failures, and a correct password does not open it early', async () => {
    await register({ loginName: 'lock-1', name: '锁定', orgId: await s.orgId('HD') });
    const started = Date.now();
    for (let i = 0; i < 5; i++) expect((await login('lock-1', 'Wrong2026x')).body.message).toBe('用户名或密码错误');
    // Failures beyond the second are answered more and more slowly.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    const locked = await login('lock-1', 'Start2026x', 'en-US');
    expect(locked.status).toBe(400);
    expect(locked.body.message).toMatch(/^Too many failed logins; try again in 1[45] minutes$/);
    const audit = await s.call(admin, 'POST', '/api/vehicle/audit/query', { criteria: { action: 'loginFailed', keyword: 'lock-1' } });
    expect(audit.body.total).toBe(5);
    // The lock is per account: others log in from the same address.
    expect((await login('admin', ADMIN_PASSWORD)).status).toBe(200);
  });

  it('revokes the token on logout, and on a password reset by an administrator', async () => {
    const { id, loginName, token } = await s.addMember('HD', 'orgUser');
    expect((await s.call(token, 'POST', '/api/logout')).status).toBe(204);
    expect((await s.call(token, 'GET', '/api/passport/member/current')).status).toBe(401);

    const t2 = await s.login(loginName, MEMBER_PASSWORD);
    const reset = await s.call(admin, 'PUT', '/api/passport/member/reset-password', { id, password: 'Reset2026x' });
    expect(reset.body).toEqual({ success: true, message: '密码重置成功' });
    expect((await s.call(t2, 'GET', '/api/passport/member/current')).status).toBe(401);
    const again = await login(loginName, 'Reset2026x');
    expect(again.body.object.firstSign).toBe(true);
    const badReset = await s.call(admin, 'PUT', '/api/passport/member/reset-password', { id, password: '12' });
    expect(badReset.status).toBe(400);
    expect(badReset.body.errors[0].field).toBe('password');
  });

  it('ends sessions for good when an account or an organisation above it is disabled: re-enabling revives no old token (issue 39 #10)', async () => {
    const current = (token: string) => s.call(token, 'GET', '/api/passport/member/current').then((r) => r.status);
    const member = await s.addMember('HD', 'orgUser');
    expect((await s.call(admin, 'PUT', `/api/passport/member/${member.id}`, { status: 'disabled' })).status).toBe(200);
    expect(await current(member.token)).toBe(401);
    expect((await s.call(admin, 'PUT', `/api/passport/member/${member.id}`, { status: 'enabled' })).status).toBe(200);
    expect(await current(member.token)).toBe(401);
    expect(await current(await s.login(member.loginName, MEMBER_PASSWORD))).toBe(200);
    // An expiry date in the past is a disable too.
    const expiring = await s.addMember('HD', 'orgUser');
    expect((await s.call(admin, 'PUT', `/api/passport/member/${expiring.id}`, { expireDate: '2001-01-01' })).status).toBe(200);
    expect((await s.call(admin, 'PUT', `/api/passport/member/${expiring.id}`, { expireDate: '2099-12-31' })).status).toBe(200);
    expect(await current(expiring.token)).toBe(401);

    // An organisation: its own accounts and those of the organisations below it.
    const top = await s.call(admin, 'POST', '/api/vehicle/org', { code: 'END-TOP', name: '停用上级', parentId: await s.orgId('HN') });
    expect((await s.call(admin, 'POST', '/api/vehicle/org', { code: 'END-SUB', name: '停用下级', parentId: top.body.id })).status).toBe(
      201,
    );
    const atTop = await s.addMember('END-TOP', 'orgUser');
    const below = await s.addMember('END-SUB', 'orgUser');
    expect((await s.call(admin, 'PUT', `/api/vehicle/org/${top.body.id}`, { status: 'disabled' })).status).toBe(200);
    expect(await current(atTop.token)).toBe(401);
    expect(await current(below.token)).toBe(401);
    // While it is disabled nobody below it signs in either.
    expect((await login(below.loginName, MEMBER_PASSWORD)).body).toMatchObject({ code: 'error.orgDisabled', message: '所属组织已停用' });
    expect((await s.call(admin, 'PUT', `/api/vehicle/org/${top.body.id}`, { status: 'enabled' })).status).toBe(200);
    expect(await current(atTop.token)).toBe(401);
    expect(await current(below.token)).toBe(401);
    expect(await current(await s.login(below.loginName, MEMBER_PASSWORD))).toBe(200);
  });

  it('lets nobody grant, through a simulated login, a code the member behind it lacks', async () => {
    const ids = new Map<string, number>();
    const walk = (nodes: Array<{ id: number; code: string; children: unknown[] }>) =>
      nodes.forEach((n) => (ids.set(n.code, n.id), walk(n.children as typeof nodes)));
    walk((await s.call(admin, 'GET', '/api/passport/resource/all')).body);
    const boss = await s.addMember('HD', 'orgUser', ['member-simulate', 'role-add', 'vehicle-add']);
    const inside = await s.addMember('HD-SH', 'orgUser', ['role-add', 'vehicle-add', 'vehicle-remove']);
    // The member alone may grant vehicle-remove; acting as them, the boss may not.
    expect(
      (await s.call(inside.token, 'POST', '/api/passport/role', { name: '自有删除', resourceIds: [ids.get('vehicle-remove')] })).status,
    ).toBe(201);
    const sim = (await s.call(boss.token, 'POST', `/api/passport/member/${inside.id}/simulate-login`)).body.object.token;
    const widen = await s.call(sim, 'POST', '/api/passport/role', { name: '借道删除', resourceIds: [ids.get('vehicle-remove')] });
    expect(widen.status).toBe(406);
    expect(widen.body.message).toBe('不能授予自己没有的权限：vehicle-remove');
    expect((await s.call(sim, 'POST', '/api/passport/role', { name: '共有新增', resourceIds: [ids.get('vehicle-add')] })).status).toBe(201);
  });

  it('lets a member simulate login inside their subtree only, restores the origin, and audits both', async () => {
    const boss = await s.addMember('HD', 'orgUser', ['member-simulate', 'vehicle-add']);
    const inside = await s.addMember('HD-SH', 'orgUser', ['vehicle-add', 'vehicle-remove']);
    const outside = await s.addMember('HN', 'orgUser');
    expect((await s.call(boss.token, 'POST', `/api/passport/member/${outside.id}/simulate-login`)).status).toBe(404);
    expect((await s.call(boss.token, 'POST', `/api/passport/member/${boss.id}/simulate-login`)).status).toBe(406);
    expect((await s.call(inside.token, 'POST', `/api/passport/member/${boss.id}/simulate-login`)).status).toBe(403);

    const sim = await s.call(boss.token, 'POST', `/api/passport/member/${inside.id}/simulate-login`);
    expect(sim.status).toBe(200);
    expect(sim.body).toMatchObject({
      success: true,
      message: '模拟登录成功',
      object: { id: inside.id, name: inside.loginName, token: expect.any(String) },
    });
    const simToken = sim.body.object.token;
    const me = await s.call(simToken, 'GET', '/api/passport/member/current');
    expect(me.body).toMatchObject({ memberId: inside.id, simulated: true });
    // Acting as someone holds only what both hold: vehicle-remove is the target's alone.
    const menu = await s.call(simToken, 'GET', '/api/passport/resource/authorized/obd-web');
    const codes = JSON.stringify(menu.body);
    expect(codes).toContain('"vehicle-add"');
    expect(codes).not.toContain('"vehicle-remove"');
    expect((await s.call(simToken, 'DELETE', '/api/vehicle/vehicle/999999')).status).toBe(403);

    const out = await s.call(simToken, 'POST', '/api/passport/member/simulate-logout');
    expect(out.body).toEqual({ success: true, message: '模拟登录退出成功' });
    expect((await s.call(simToken, 'GET', '/api/passport/member/current')).status).toBe(401);
    // The origin session carries on.
    expect((await s.call(boss.token, 'GET', '/api/passport/member/current')).body.memberId).toBe(boss.id);
    expect((await s.call(boss.token, 'POST', '/api/passport/member/simulate-logout')).status).toBe(406);

    const log = await s.call(admin, 'POST', '/api/vehicle/audit/query', { criteria: { memberId: boss.id } });
    expect(log.body.data.map((r: { action: string }) => r.action)).toContain('simulateLogin');
    const outLog = await s.call(admin, 'POST', '/api/vehicle/audit/query', { criteria: { action: 'simulateLogout', memberId: inside.id } });
    expect(outLog.body.data[0]).toMatchObject({ actorName: boss.loginName, memberName: inside.loginName });

    // Logging out of the origin ends an impersonation that was left open.
    const again = await s.call(boss.token, 'POST', `/api/passport/member/${inside.id}/simulate-login`);
    expect((await s.call(boss.token, 'POST', '/api/logout')).status).toBe(204);
    expect((await s.call(again.body.object.token, 'GET', '/api/passport/member/current')).status).toBe(401);
  });
});
