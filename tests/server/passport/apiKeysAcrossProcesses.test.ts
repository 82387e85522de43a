/**
 * Two server processes on one PostgreSQL: a key revoked or disabled through one, or whose API user
 * is disabled there, is refused on the very next request to the other, and both share one rate count.
 */
import path from 'node:path';
import { http, startServerProcess, type ServerProcess } from '../../helpers/serverProcess';
import { ADMIN_PASSWORD, freshPostgres } from '../../helpers/testServer';

const root = path.resolve(__dirname, '../../..');

describe('API keys across processes', () => {
  let pg: { url: string; drop: () => Promise<void> };
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    pg = await freshPostgres({ seeded: true });
    const env = { DATABASE_URL: pg.url, SEED: 'demo', ADMIN_PASSWORD };
    // One after the other: the first finds the database migrated and seeded, and so does the second.
    a = await startServerProcess(root, env);
    b = await startServerProcess(root, env);
  }, 400_000);
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await pg?.drop();
  });

  it('refuses a key on one process on the next request after it is revoked or disabled on the other', async () => {
    const admin = (await http(`${a.url}/api/login`, 'POST', { loginName: 'admin', password: ADMIN_PASSWORD })).json.object.token as string;
    const user = await http(`${a.url}/api/vehicle/apiUser`, 'POST', { name: '跨进程集成', appKey: 'across-processes' }, admin);
    expect(user.status).toBe(201);
    const newKey = async (body: Record<string, unknown> = {}) => {
      const r = await http(
        `${a.url}/api/vehicle/apiUser/${user.json.id}/keys`,
        'POST',
        { name: 'k', days: 1, codes: ['vehicle-edit'], ...body },
        admin,
      );
      expect(r.status).toBe(201);
      return r.json as { id: number; key: string };
    };
    const read = (on: ServerProcess, key: string) =>
      http(`${on.url}/api/vehicle/vehicle/query`, 'POST', { pageSize: 1 }, undefined, { 'x-api-key': key });

    const revoked = await newKey();
    expect((await read(b, revoked.key)).status).toBe(200);
    expect((await http(`${a.url}/api/vehicle/apiKey/${revoked.id}`, 'DELETE', undefined, admin)).status).toBe(204);
    const afterRevoke = await read(b, revoked.key);
    expect({ status: afterRevoke.status, code: afterRevoke.json.code }).toEqual({ status: 401, code: 'apiKey.refused.revoked' });

    const disabled = await newKey();
    expect((await read(a, disabled.key)).status).toBe(200);
    expect((await http(`${b.url}/api/vehicle/apiKey/${disabled.id}`, 'PUT', { enabled: false }, admin)).status).toBe(200);
    expect((await read(a, disabled.key)).json.code).toBe('apiKey.refused.disabled');

    const live = await newKey({ rateLimit: 4 });
    expect((await read(a, live.key)).status).toBe(200);
    expect((await http(`${b.url}/api/vehicle/apiUser/${user.json.id}`, 'PUT', { enabled: false }, admin)).status).toBe(200);
    expect((await read(a, live.key)).json.code).toBe('apiKey.refused.apiUserDisabled');
    expect((await http(`${b.url}/api/vehicle/apiUser/${user.json.id}`, 'PUT', { enabled: true }, admin)).status).toBe(200);

    // One count across processes: 4 a minute in all, wherever they land.
    const statuses = [];
    for (const on of [b, a, b, a]) statuses.push((await read(on, live.key)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  }, 60_000);
});
