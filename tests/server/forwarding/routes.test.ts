import { sql } from 'kysely';
import { parseTargetAllow } from '../../../server/notify/target';
import { BACKENDS, startTestServer, type TestServer } from '../../helpers/testServer';
import { until } from '../telematics/gateway/harness';
import { Superior } from './superior';

const account = { userId: 8090, password: 'pw809sec', accessCode: 44030012 };

/**
 * GET /api/vehicle/forwarding through the real server running its links: a link's live state,
 * backlog and counters for members of its organisation, nothing for another organisation, a
 * disabled link shown 'off', and never the account's password.
 */
describe.each(BACKENDS)('forwarding links route on %s', (backend) => {
  let s: TestServer;
  let superior: Superior;

  beforeAll(async () => {
    // The superior runs on this machine: the outbound address guard refuses loopback unless allowed.
    s = await startTestServer(backend, { forwarding: true, forwardAllow: parseTargetAllow('127.0.0.1') });
    superior = new Superior({ edition: 2019, ...account });
    await superior.start();
    const hd = await s.orgId('HD');
    await sql`
      INSERT INTO forward_link (org_id, name, protocol, host, port, access_code, user_id, password, down_link_port)
      VALUES (${hd}, 'province', 'jt809', '127.0.0.1', ${superior.port}, ${account.accessCode}, ${account.userId}, ${account.password}, 0),
             (${hd}, 'spare', 'jt808', '127.0.0.1', 1, NULL, NULL, NULL, NULL)`.execute(s.database.db);
    await sql`UPDATE forward_link SET enabled = false WHERE name = 'spare'`.execute(s.database.db);
    await s.forwarding!.reload();
  });
  afterAll(async () => {
    await s?.close();
    await superior?.stop();
  });

  it('shows each link of the subtree with its state and counters, and no secret', async () => {
    const token = await s.memberToken('HD', 'administrator');
    await until(async () => (await s.call(token, 'GET', '/api/vehicle/forwarding')).body[0]?.state === 'up');
    const r = await s.call(token, 'GET', '/api/vehicle/forwarding');
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      expect.objectContaining({
        name: 'province',
        protocol: 'jt809',
        host: '127.0.0.1',
        port: superior.port,
        enabled: true,
        state: 'up',
        subLink: 'none',
        backlog: 0,
        connects: 1,
        loginFailures: 0,
        lastLoginResult: 0,
        upSince: expect.any(String),
      }),
      expect.objectContaining({ name: 'spare', protocol: 'jt808', enabled: false, state: 'off' }),
    ]);
    expect(JSON.stringify(r.body)).not.toContain(account.password);
  });

  it("shows another organisation's members none, and refuses the anonymous", async () => {
    const hn = await s.memberToken('HN', 'administrator');
    expect((await s.call(hn, 'GET', '/api/vehicle/forwarding')).body).toEqual([]);
    expect((await s.call(null, 'GET', '/api/vehicle/forwarding')).status).toBe(401);
  });
});
