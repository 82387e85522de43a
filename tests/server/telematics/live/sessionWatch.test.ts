/**
 * The live WebSocket lives only as long as its session (issue 39 #3): each kind of session end
 * closes it with the session-ended code, a move to another organisation closes it with the
 * scope-changed code (a new socket gets the new scope), and a weak-password session opens none.
 */
import { LIVE_CLOSE } from '../../../../schemas/kit/monitor';
import { closedWithin, openSocket } from '../../../helpers/wsClient';
import { ADMIN_PASSWORD, BACKENDS, MEMBER_PASSWORD, startTestServer, type TestServer } from '../../../helpers/testServer';

describe.each(BACKENDS)('the live socket and the end of its session on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let ws: string;
  beforeAll(async () => {
    s = await startTestServer(backend, { telematics: true });
    admin = await s.login('admin', ADMIN_PASSWORD);
    ws = (await s.app.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws') + '/api/vehicle/live';
  });
  afterAll(() => s?.close());

  const live = async (token: string) => {
    const socket = await openSocket(ws, ['fleetstar', token]);
    await socket.until((m) => m.some((x) => x.type === 'hello'));
    return socket;
  };
  const ended = { code: LIVE_CLOSE.sessionEnded.code, reason: 'session ended' };

  it('closes on logout, and leaves the sockets of other sessions open', async () => {
    const member = await s.addMember('HD', 'orgUser');
    const other = await live(await s.login(member.loginName, MEMBER_PASSWORD));
    const socket = await live(member.token);
    expect((await s.call(member.token, 'POST', '/api/logout')).status).toBe(204);
    expect(await closedWithin(socket)).toEqual(ended);
    // The member's other session (another browser) goes on.
    let otherClosed = false;
    void other.closed.then(() => (otherClosed = true));
    expect((await s.call(admin, 'GET', '/api/passport/member/current')).status).toBe(200);
    expect(otherClosed).toBe(false);
    other.close();
  });

  it('closes on a password change, and on a reset by an administrator', async () => {
    const member = await s.addMember('HD', 'orgUser');
    const socket = await live(member.token);
    const changed = await s.call(member.token, 'POST', '/api/passport/member/change-password', {
      oldPassword: MEMBER_PASSWORD,
      newPassword: 'Moved2027y',
    });
    expect(changed.status).toBe(200);
    expect(await closedWithin(socket)).toEqual(ended);

    const again = await live(await s.login(member.loginName, 'Moved2027y'));
    expect((await s.call(admin, 'PUT', '/api/passport/member/reset-password', { id: member.id, password: 'Reset2026x' })).status).toBe(200);
    expect(await closedWithin(again)).toEqual(ended);
  });

  it('closes when the account is disabled, and when its organisation or one above it is', async () => {
    const member = await s.addMember('HD', 'orgUser');
    const socket = await live(member.token);
    expect((await s.call(admin, 'PUT', `/api/passport/member/${member.id}`, { status: 'disabled' })).status).toBe(200);
    expect(await closedWithin(socket)).toEqual(ended);

    const parent = await s.call(admin, 'POST', '/api/vehicle/org', { code: 'LIVE-P', name: '实时上级', parentId: await s.orgId('HN') });
    const child = await s.call(admin, 'POST', '/api/vehicle/org', { code: 'LIVE-C', name: '实时下级', parentId: parent.body.id });
    expect(child.status).toBe(201);
    const inChild = await s.addMember('LIVE-C', 'orgUser');
    const childSocket = await live(inChild.token);
    expect((await s.call(admin, 'PUT', `/api/vehicle/org/${parent.body.id}`, { status: 'disabled' })).status).toBe(200);
    expect(await closedWithin(childSocket)).toEqual(ended);
  });

  it('stops the old scope when the account moves to another organisation: the socket closes, a new one sees the new scope', async () => {
    const member = await s.addMember('HD', 'orgUser');
    const socket = await live(member.token);
    expect(socket.messages[0]).toMatchObject({ type: 'hello', orgPath: expect.any(String) });
    const before = socket.messages[0].orgPath;
    expect((await s.call(admin, 'PUT', `/api/passport/member/${member.id}`, { orgId: await s.orgId('HN') })).status).toBe(200);
    expect(await closedWithin(socket)).toEqual({ code: LIVE_CLOSE.scopeChanged.code, reason: 'session scope changed' });
    const again = await live(member.token);
    expect(again.messages[0].orgPath).not.toBe(before);
    expect(again.messages[0].orgPath).toBe(
      (await s.database.db.selectFrom('organisation').select('path').where('code', '=', 'HN').executeTakeFirstOrThrow()).path,
    );
    again.close();
  });

  it('closes a simulated login’s socket when the session behind it logs out', async () => {
    const boss = await s.addMember('HD', 'orgUser', ['member-simulate']);
    const inside = await s.addMember('HD-SH', 'orgUser');
    const sim = (await s.call(boss.token, 'POST', `/api/passport/member/${inside.id}/simulate-login`)).body.object.token as string;
    const socket = await live(sim);
    expect((await s.call(boss.token, 'POST', '/api/logout')).status).toBe(204);
    expect(await closedWithin(socket)).toEqual(ended);
  });

  it('refuses a weak-password session (403, as REST does), and opens for the full session after the change', async () => {
    const r = await s.call(admin, 'POST', '/api/passport/passport/register', {
      loginName: 'live-weak',
      name: '弱密码',
      memberType: 'orgUser',
      password: 'aaa111',
      orgId: await s.orgId('HD'),
    });
    expect(r.status).toBe(201);
    const weak = await s.call(null, 'POST', '/api/login', { loginName: 'live-weak', password: 'aaa111' });
    expect(weak.body.code).toBe('weakPassword');
    await expect(openSocket(ws, ['fleetstar', weak.body.object.token])).rejects.toThrow('HTTP 403');
    await expect(openSocket(`${ws}?token=${weak.body.object.token}`)).rejects.toThrow('HTTP 403');
    const changed = await s.call(weak.body.object.token, 'POST', '/api/passport/member/change-password', {
      oldPassword: 'aaa111',
      newPassword: 'Better2026x',
    });
    expect(changed.status).toBe(200);
    const socket = await live(await s.login('live-weak', 'Better2026x'));
    socket.close();
  });
});
