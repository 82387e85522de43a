/**
 * Two server processes on one PostgreSQL and one nats-server, as a fleet of gateway/API processes
 * runs: a session ended through one process closes its live socket held by the other (issue 39 #3).
 */
import path from 'node:path';
import { LIVE_CLOSE } from '../../../../schemas/kit/monitor';
import { startNatsServer, type NatsServer } from '../../../helpers/natsServer';
import { http, startServerProcess, type ServerProcess } from '../../../helpers/serverProcess';
import { ADMIN_PASSWORD, freshPostgres } from '../../../helpers/testServer';
import { closedWithin, openSocket } from '../../../helpers/wsClient';

const root = path.resolve(__dirname, '../../../..');

describe('the live socket across processes (NATS)', () => {
  let nats: NatsServer;
  let pg: { url: string; drop: () => Promise<void> };
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    nats = await startNatsServer();
    pg = await freshPostgres();
    const env = { DATABASE_URL: pg.url, NATS_URL: nats.url, SEED: 'demo', ADMIN_PASSWORD };
    // One after the other: the first migrates and seeds, the second finds it done.
    a = await startServerProcess(root, env);
    b = await startServerProcess(root, env);
  }, 400_000);
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await pg?.drop();
    await nats?.stop();
  });

  const signIn = async (on: ServerProcess, loginName: string, password: string) =>
    (await http(`${on.url}/api/login`, 'POST', { loginName, password })).json.object as { token: string; id: number };
  const live = async (on: ServerProcess, token: string) => {
    const socket = await openSocket(`${on.url.replace('http', 'ws')}/api/vehicle/live`, ['fleetstar', token]);
    await socket.until((m) => m.some((x) => x.type === 'hello'));
    return socket;
  };
  const ended = { code: LIVE_CLOSE.sessionEnded.code, reason: LIVE_CLOSE.sessionEnded.reason };

  it('closes a socket on one process when its session logs out on the other, or its account is disabled there', async () => {
    const admin = await signIn(b, 'admin', ADMIN_PASSWORD);
    const first = await signIn(a, 'admin', ADMIN_PASSWORD);
    const socket = await live(a, first.token);
    expect((await http(`${b.url}/api/logout`, 'POST', undefined, first.token)).status).toBe(204);
    expect(await closedWithin(socket)).toEqual(ended);

    const created = await http(
      `${b.url}/api/passport/passport/register`,
      'POST',
      { loginName: 'across-1', name: '跨进程', memberType: 'orgUser', password: 'Start2026x' },
      admin.token,
    );
    expect(created.status).toBe(201);
    const member = await signIn(a, 'across-1', 'Start2026x');
    const onA = await live(a, member.token);
    const onB = await live(b, member.token);
    expect((await http(`${b.url}/api/passport/member/${created.json.id}`, 'PUT', { status: 'disabled' }, admin.token)).status).toBe(200);
    expect(await closedWithin(onA)).toEqual(ended);
    expect(await closedWithin(onB)).toEqual(ended);
  }, 60_000);
});
