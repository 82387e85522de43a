import { ADMIN_PASSWORD, type TestServer, useTestServer } from '../../../helpers/testServer';

/** JSON bodies: nesting is bounded before parsing, and Fastify's prototype-poisoning refusal stays (issue 39 #8). */
describe('JSON request bodies', () => {
  let s: TestServer;
  let admin: string;
  useTestServer('pglite', (server, token) => {
    s = server;
    admin = token;
  });

  const post = async (url: string, body: string, lang = 'zh-CN', token?: string) => {
    const r = await s.app.inject({
      method: 'POST',
      url,
      payload: body,
      headers: { 'content-type': 'application/json', 'accept-language': lang, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    return { status: r.statusCode, body: JSON.parse(r.body) as { code?: string; message: string } };
  };

  it('refuses a body nested 300,000 levels deep with a localised 400, at once, on a public and a signed-in route', async () => {
    const arrays = `${'['.repeat(300_000)}${']'.repeat(300_000)}`;
    const started = process.cpuUsage();
    const login = await post('/api/login', arrays);
    const spent = process.cpuUsage(started);
    expect(login).toEqual({ status: 400, body: { success: false, code: 'error.jsonTooDeep', message: '请求内容嵌套超过64层' } });
    expect((spent.user + spent.system) / 1000).toBeLessThan(100);
    const objects = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    expect(await post('/api/vehicle/vehicleBrand/query', objects, 'en-US', admin)).toMatchObject({
      status: 400,
      body: { code: 'error.jsonTooDeep', message: 'The request body is nested deeper than 64 levels' },
    });
    // Just past the limit inside an otherwise valid login body.
    const deep = JSON.stringify({ loginName: 'admin', password: ADMIN_PASSWORD, extra: JSON.parse(`${'['.repeat(64)}${']'.repeat(64)}`) });
    expect((await post('/api/login', deep, 'ja-JP')).body).toMatchObject({
      code: 'error.jsonTooDeep',
      message: 'リクエスト本文の入れ子が64階層を超えています',
    });
  });

  it('counts brackets only outside strings, escaped quotes included, and takes bodies up to the limit', async () => {
    // Brackets, a backslash and quotes inside strings (JSON text `"\\\"[[…{\""`), 74 in all.
    const inString = JSON.stringify({ loginName: `\\"${'['.repeat(59)}{"`, password: `x1${'{'.repeat(14)}` });
    expect((await post('/api/login', inString)).body.code).toBe('error.loginFailed');
    const atLimit = JSON.stringify({ criteria: {}, pageSize: 10, x: JSON.parse(`${'['.repeat(62)}${']'.repeat(62)}`) });
    const r = await post('/api/vehicle/vehicleBrand/query', atLimit, 'zh-CN', admin);
    expect(r.body.code).not.toBe('error.jsonTooDeep');
    const login = await post('/api/login', JSON.stringify({ loginName: 'admin', password: ADMIN_PASSWORD }));
    expect(login.status).toBe(200);
  });

  it('still refuses prototype poisoning keys', async () => {
    for (const body of [
      '{"loginName":"admin","password":"x","__proto__":{"isAdmin":true}}',
      '{"loginName":"admin","password":"x","constructor":{"prototype":{"isAdmin":true}}}',
    ]) {
      expect(await post('/api/login', body)).toEqual({
        status: 400,
        body: { success: false, code: 'error.badJson', message: '请求内容不是有效的 JSON' },
      });
    }
  });
});
