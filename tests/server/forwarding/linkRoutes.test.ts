import { sql } from 'kysely';
import { hostRefused, NO_ALLOW, parseTargetAllow } from '../../../server/notify/target';
import { BACKENDS, startTestServer, type TestServer } from '../../helpers/testServer';
import { until } from '../telematics/gateway/harness';
import { Superior } from './superior';

const account = { userId: 8090, password: 'pw809sec', accessCode: 44030012 };

/**
 * Forwarding links managed through the API of the real server running its links: a link created
 * logs in to the superior without a restart, is stopped by disabling and runs again on enabling
 * (its stored password kept), goes when deleted; bodies are checked by the schema and the link's
 * rules in the caller's language, the target by the outbound address guard; other subtrees see
 * nothing, members without the codes are refused, every change is audited without the password.
 */
describe.each(BACKENDS)('forwarding link routes on %s', (backend) => {
  let s: TestServer;
  let superior: Superior;
  let admin: string;

  beforeAll(async () => {
    // The superior runs on this machine: loopback is allowed as an operator would allow a private line.
    s = await startTestServer(backend, { forwarding: true, forwardAllow: parseTargetAllow('127.0.0.1') });
    superior = new Superior({ edition: 2019, ...account });
    await superior.start();
    admin = await s.memberToken('HD', 'administrator');
  });
  afterAll(async () => {
    await s?.close();
    await superior?.stop();
  });

  const listed = async (token = admin) => (await s.call(token, 'GET', '/api/vehicle/forwarding')).body as Array<Record<string, unknown>>;
  const link809 = () => ({ name: '省级平台', protocol: 'jt809', host: '127.0.0.1', port: superior.port, ...account, downLinkPort: 0 });

  it('creates a link that the running server starts at once, and never answers its password', async () => {
    const r = await s.call(admin, 'POST', '/api/vehicle/forwardLink', link809());
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      name: '省级平台',
      protocol: 'jt809',
      port: superior.port,
      accessCode: account.accessCode,
      hasPassword: true,
    });
    expect(JSON.stringify(r.body)).not.toContain(account.password);
    await until(async () => (await listed())[0]?.state === 'up');
    expect(superior.logins).toEqual([expect.objectContaining({ userId: account.userId, password: account.password })]);
    const got = await s.call(admin, 'GET', `/api/vehicle/forwardLink/${r.body.id}`);
    expect(got.body).toMatchObject({
      id: r.body.id,
      host: '127.0.0.1',
      edition: 2019,
      version: '1.0.0',
      backlogLimit: 10000,
      enabled: true,
    });
    const audit = await sql<{ detail: unknown }>`SELECT detail FROM audit_log WHERE action = 'forwardLinkCreate'`.execute(s.database.db);
    expect(audit.rows).toHaveLength(1);
    expect(JSON.stringify(audit.rows[0].detail)).not.toContain(account.password);
  });

  it('stops a disabled link and starts it again, keeping the stored password', async () => {
    const [{ id }] = await listed();
    expect((await s.call(admin, 'PUT', `/api/vehicle/forwardLink/${id}`, { enabled: false })).status).toBe(200);
    await until(async () => (await listed())[0]?.state === 'off');
    expect(s.forwarding!.links()).toEqual([]);
    const r = await s.call(admin, 'PUT', `/api/vehicle/forwardLink/${id}`, { enabled: true, password: null, name: '省平台' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: '省平台', enabled: true, hasPassword: true });
    await until(async () => (await listed())[0]?.state === 'up');
    expect(superior.logins.map((l) => l.password)).toEqual([account.password, account.password]);
  });

  it('refuses a target the address guard forbids, an 809 link without its account, half a cipher, in the caller’s language', async () => {
    const post = (body: object, lang?: string) => s.call(admin, 'POST', '/api/vehicle/forwardLink', body, lang);
    for (const host of ['169.254.169.254', '10.1.2.3', 'localhost', '0xa9fea9fe', '[::ffff:192.168.1.1]']) {
      const r = await post({ ...link809(), host }, 'en-US');
      expect(r.status).toBe(400);
      expect(r.body.errors).toEqual([expect.objectContaining({ field: 'host', key: 'forwarding.targetForbidden' })]);
    }
    const en = await post({ ...link809(), host: '192.168.0.9' }, 'en-US');
    expect(en.body.message).toBe(
      'Target host points at this server, a private network or a reserved address, which forwarding may not reach (an operator can allow it in FORWARD_ALLOW)',
    );
    const zh = await post({ ...link809(), host: '192.168.0.9' }, 'zh-CN');
    expect(zh.body.message).toContain('目标地址');
    const noAccount = await post({ name: 'x', protocol: 'jt809', host: '203.0.113.9', port: 9000 }, 'en-US');
    expect(noAccount.status).toBe(400);
    expect(noAccount.body.errors.map((e: { field: string; key: string }) => `${e.field}:${e.key}`)).toEqual([
      'accessCode:forwarding.jt809Required',
      'userId:forwarding.jt809Required',
      'password:forwarding.jt809Required',
    ]);
    const halfCipher = await post({ ...link809(), host: '203.0.113.9', m1: 30000000 }, 'es-ES');
    expect(halfCipher.body.errors).toEqual([expect.objectContaining({ field: 'm1', key: 'forwarding.cipherIncomplete' })]);
    expect(halfCipher.body.message).toContain('M1, IA1 e IC1');
    const badPort = await post({ ...link809(), port: 70000 }, 'ja-JP');
    expect(badPort.status).toBe(400);
    expect(badPort.body.errors[0]).toMatchObject({ field: 'port' });
    // A raw 808 link needs no account; a public target is allowed without any list.
    const raw = await post({ name: 'partner', protocol: 'jt808', host: '203.0.113.10', port: 7008, enabled: false });
    expect(raw.status).toBe(201);
    // The one rule: refused by default, whatever the spelling.
    expect(['127.0.0.1', '127.1', '0x7f.1', '::1', 'localhost', '169.254.0.1'].filter((h) => !hostRefused(h, NO_ALLOW))).toEqual([]);
  });

  it('shows another subtree nothing and refuses members without the codes', async () => {
    const [{ id }] = await listed();
    const hn = await s.memberToken('HN', 'administrator');
    expect((await s.call(hn, 'GET', `/api/vehicle/forwardLink/${id}`)).status).toBe(404);
    expect((await s.call(hn, 'PUT', `/api/vehicle/forwardLink/${id}`, { enabled: false })).status).toBe(404);
    expect((await s.call(hn, 'DELETE', `/api/vehicle/forwardLink/${id}`)).status).toBe(404);
    const viewer = await s.memberToken('HD', 'orgUser', []);
    expect((await s.call(viewer, 'POST', '/api/vehicle/forwardLink', link809())).status).toBe(403);
    expect((await s.call(viewer, 'DELETE', `/api/vehicle/forwardLink/${id}`)).status).toBe(403);
  });

  it('deletes a link: it stops at once', async () => {
    const [{ id }] = await listed();
    expect((await s.call(admin, 'DELETE', `/api/vehicle/forwardLink/${id}`)).status).toBe(204);
    await until(() => !s.forwarding!.links().some((l) => l.id === id));
    expect((await listed()).map((l) => l.name)).toEqual(['partner']);
  });
});
