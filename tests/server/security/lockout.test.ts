import { ROOT_ORG } from '../../../server/seed/fixtures';
import { DEFAULT_THROTTLE } from '../../../server/passport/throttle';
import { ADMIN_PASSWORD, BACKENDS, MEMBER_PASSWORD, type TestServer, useTestServer } from '../../helpers/testServer';

/** No one locks the platform out from inside, and no stranger locks an account out everywhere (issue 18 #5, L2). */
describe.each(BACKENDS)('lock-outs on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  // No slowing, so the locks are reached quickly; the limits are the real ones.
  useTestServer(
    backend,
    (server, token) => {
      s = server;
      admin = token;
    },
    { throttle: { ...DEFAULT_THROTTLE, slowMs: 0, maxSlowMs: 0 } },
  );

  const adminId = async () =>
    (await s.database.db.selectFrom('member').select('id').where('login_name', '=', 'admin').executeTakeFirstOrThrow()).id;
  const loginFrom = async (ip: string, loginName: string, password: string, headers: Record<string, string> = {}) => {
    const r = await s.app.inject({ method: 'POST', url: '/api/login', remoteAddress: ip, headers, payload: { loginName, password } });
    return { status: r.statusCode, body: JSON.parse(r.body) };
  };

  it("refuses to disable, expire or demote oneself, and to disable one's own organisation (406, localised)", async () => {
    const me = await adminId();
    const off = await s.call(admin, 'PUT', `/api/passport/member/${me}`, { status: 'disabled' });
    expect(off.status).toBe(406);
    expect(off.body).toMatchObject({ code: 'security.selfDisable', message: '不能停用或降级自己的账号' });
    expect((await s.call(admin, 'PUT', `/api/passport/member/${me}`, { expireDate: '2000-01-01' })).body.code).toBe('security.selfDisable');
    expect((await s.call(admin, 'PUT', `/api/passport/member/${me}`, { memberType: 'orgUser' }, 'en-US')).body.message).toBe(
      'You cannot disable or demote your own account',
    );
    // A manager's own organisation.
    const manager = await s.addMember('HD', 'orgUser', ['org-edit', 'appMember-edit']);
    const own = await s.call(manager.token, 'PUT', `/api/vehicle/org/${await s.orgId('HD')}`, { status: 'disabled' });
    expect(own.status).toBe(406);
    expect(own.body.code).toBe('security.ownOrgDisable');
    // Their own App account too.
    await s.database.db.insertInto('member_application').values({ member_id: manager.id, application: 'vehicle-app' }).execute();
    expect((await s.call(manager.token, 'PUT', `/api/passport/app-member/${manager.id}`, { status: 'disabled' })).body.code).toBe(
      'security.selfDisable',
    );
    // Nothing changed: both still sign in, the organisation is enabled.
    expect(await s.login('admin', ADMIN_PASSWORD)).toBeTruthy();
    expect(await s.login(manager.loginName, MEMBER_PASSWORD)).toBeTruthy();
    // Other changes to oneself still work.
    expect((await s.call(admin, 'PUT', `/api/passport/member/${me}`, { name: '平台管理员' })).status).toBe(200);
  });

  it('keeps the last enabled platform administrator, and lets one go once another exists', async () => {
    const second = await s.addMember(ROOT_ORG, 'administrator');
    const me = await adminId();
    // With two administrators, one may disable the other…
    const off = await s.call(second.token, 'PUT', `/api/passport/member/${me}`, { status: 'disabled' });
    expect(off.status).toBe(200);
    // …but now `second` is the last: admin's session is gone, and nobody can remove the last one.
    const third = await s.addMember(ROOT_ORG, 'orgUser', ['member-edit', 'org-edit']);
    const last = await s.call(third.token, 'PUT', `/api/passport/member/${second.id}`, { status: 'disabled' });
    expect(last.status).toBe(406);
    expect(last.body.code).toBe('security.lastAdministrator');
    expect((await s.call(third.token, 'PUT', `/api/passport/member/${second.id}`, { expireDate: '2001-01-01' })).body.code).toBe(
      'security.lastAdministrator',
    );
    // Nor by disabling or un-systeming the organisation they are in.
    expect((await s.call(second.token, 'PUT', `/api/vehicle/org/${await s.orgId(ROOT_ORG)}`, { isSystem: false })).body.code).toBe(
      'security.lastAdministrator',
    );
    // Re-enable admin: now either may go.
    expect((await s.call(second.token, 'PUT', `/api/passport/member/${me}`, { status: 'enabled' })).status).toBe(200);
    expect((await s.call(third.token, 'PUT', `/api/passport/member/${second.id}`, { status: 'disabled' })).status).toBe(200);
    admin = await s.login('admin', ADMIN_PASSWORD);
  });

  it("locks an account per address: a stranger's wrong passwords lock only the stranger out", async () => {
    const member = await s.addMember('HD', 'orgUser');
    for (let i = 0; i < DEFAULT_THROTTLE.lockAccountAfter; i++)
      expect((await loginFrom('198.51.100.7', member.loginName, 'wrong-pass1')).status).toBe(400);
    const locked = await loginFrom('198.51.100.7', member.loginName, MEMBER_PASSWORD);
    expect(locked.body.code).toBe('passport.locked');
    // The owner, elsewhere, is not locked out.
    const owner = await loginFrom('198.51.100.8', member.loginName, MEMBER_PASSWORD);
    expect(owner.status).toBe(200);
    expect(owner.body.success).toBe(true);
  });

  it("lets an administrator lift an account's lock (member-unlock, audited), and nobody else", async () => {
    const member = await s.addMember('HD', 'orgUser');
    for (let i = 0; i < DEFAULT_THROTTLE.lockAccountAfter; i++) await loginFrom('198.51.100.9', member.loginName, 'wrong-pass1');
    expect((await loginFrom('198.51.100.9', member.loginName, MEMBER_PASSWORD)).body.code).toBe('passport.locked');
    const nobody = await s.memberToken('HD', 'orgUser', ['member-edit']);
    expect((await s.call(nobody, 'POST', '/api/passport/member/unlock', { id: member.id })).status).toBe(403);
    const hn = await s.memberToken('HN', 'orgUser', ['member-unlock']);
    expect((await s.call(hn, 'POST', '/api/passport/member/unlock', { id: member.id })).status).toBe(404);
    const done = await s.call(admin, 'POST', '/api/passport/member/unlock', { id: member.id });
    expect(done.status).toBe(200);
    expect(done.body.message).toBe('已解除该账号的登录锁定');
    expect((await loginFrom('198.51.100.9', member.loginName, MEMBER_PASSWORD)).status).toBe(200);
    const audit = await s.database.db.selectFrom('audit_log').select(['action', 'target']).where('action', '=', 'memberUnlock').execute();
    expect(audit).toEqual([{ action: 'memberUnlock', target: String(member.id) }]);
  });

  it("locks guesses of the old password in a password change as sign-in guesses are: one count, one lock, the login's answer (issue 39 #9)", async () => {
    const member = await s.addMember('HD', 'orgUser');
    const change = async (ip: string, oldPassword: string, lang = 'zh-CN') => {
      const r = await s.app.inject({
        method: 'POST',
        url: '/api/passport/member/change-password',
        remoteAddress: ip,
        headers: { authorization: `Bearer ${member.token}`, 'accept-language': lang },
        payload: { oldPassword, newPassword: 'Moved2027y' },
      });
      return { status: r.statusCode, body: JSON.parse(r.body) };
    };
    for (let i = 0; i < DEFAULT_THROTTLE.lockAccountAfter; i++)
      expect((await change('198.51.100.20', 'wrong-pass1')).body.code).toBe('passport.oldPasswordWrong');
    // Now even the right old password is refused, with the status and message a locked sign-in gets.
    const locked = await change('198.51.100.20', MEMBER_PASSWORD, 'en-US');
    const atLogin = await s.app.inject({
      method: 'POST',
      url: '/api/login',
      remoteAddress: '198.51.100.20',
      headers: { 'accept-language': 'en-US' },
      payload: { loginName: member.loginName, password: MEMBER_PASSWORD },
    });
    expect(locked.status).toBe(400);
    expect(locked.body).toMatchObject({ success: false, code: 'passport.locked' });
    expect(locked.body.message).toMatch(/^Too many failed logins; try again in 1[45] minutes$/);
    expect(atLogin.statusCode).toBe(locked.status);
    expect(JSON.parse(atLogin.body)).toMatchObject({ code: 'passport.locked', message: locked.body.message });
    // Per address, as at sign-in: from elsewhere the owner changes the password.
    expect((await change('198.51.100.21', MEMBER_PASSWORD)).status).toBe(200);
  });

  it('without TRUST_PROXY believes the socket address, not X-Forwarded-For, and sends no upgrade-insecure-requests', async () => {
    const member = await s.addMember('HD', 'orgUser');
    for (let i = 0; i < DEFAULT_THROTTLE.lockAccountAfter; i++)
      await loginFrom('192.0.2.1', member.loginName, 'wrong-pass1', { 'x-forwarded-for': `203.0.113.${i}` });
    expect((await loginFrom('192.0.2.1', member.loginName, MEMBER_PASSWORD, { 'x-forwarded-for': '203.0.113.99' })).body.code).toBe(
      'passport.locked',
    );
    const page = await s.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
  });
});

describe('behind a trusted proxy (TRUST_PROXY)', () => {
  let s: TestServer;
  useTestServer(
    'pglite',
    (server) => {
      s = server;
    },
    { trustProxy: ['127.0.0.1'], throttle: { ...DEFAULT_THROTTLE, slowMs: 0, maxSlowMs: 0, lockAddressAfter: 3 } },
  );

  const viaProxy = async (client: string, loginName: string, password: string) => {
    const r = await s.app.inject({
      method: 'POST',
      url: '/api/login',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': client },
      payload: { loginName, password },
    });
    return JSON.parse(r.body);
  };

  it("locks the client address the proxy names, not the proxy, so one client's failures lock out no one else", async () => {
    for (let i = 0; i < 3; i++) await viaProxy('203.0.113.5', `nobody${i}`, 'wrong-pass1');
    expect((await viaProxy('203.0.113.5', 'admin', ADMIN_PASSWORD)).code).toBe('passport.locked');
    expect((await viaProxy('203.0.113.6', 'admin', ADMIN_PASSWORD)).success).toBe(true);
    // An untrusted sender's X-Forwarded-For is ignored: its own address counts.
    const direct = await s.app.inject({
      method: 'POST',
      url: '/api/login',
      remoteAddress: '192.0.2.50',
      headers: { 'x-forwarded-for': '203.0.113.5' },
      payload: { loginName: 'admin', password: ADMIN_PASSWORD },
    });
    expect(JSON.parse(direct.body).success).toBe(true);
  });

  it('sends upgrade-insecure-requests only when the proxy says the client used HTTPS', async () => {
    const csp = async (headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
      String((await s.app.inject({ method: 'GET', url: '/api/health', remoteAddress, headers })).headers['content-security-policy']);
    expect(await csp({ 'x-forwarded-proto': 'https' })).toContain('upgrade-insecure-requests');
    expect(await csp({ 'x-forwarded-proto': 'http' })).not.toContain('upgrade-insecure-requests');
    expect(await csp({})).not.toContain('upgrade-insecure-requests');
    expect(await csp({ 'x-forwarded-proto': 'https' }, '192.0.2.50')).not.toContain('upgrade-insecure-requests');
  });
});
