import { BACKENDS, type TestServer, useTestServer } from '../../helpers/testServer';

/** A NUL character anywhere a client can put text is a 400 on the field, never a database error (issue 18 L1). */
describe.each(BACKENDS)('NUL characters in requests on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });

  it('refuses a NUL in a JSON body field with a localised 400 naming the field, and stores nothing', async () => {
    const r = await s.call(admin, 'POST', '/api/vehicle/vehicleBrand', { name: 'NUL\u0000品牌' });
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatchObject({ field: 'name', key: 'security.nulByte' });
    expect(r.body.message).toMatch(/空字符/);
    const en = await s.call(admin, 'POST', '/api/vehicle/vehicleBrand', { name: 'NUL\u0000brand' }, 'en-US');
    expect(en.body.message).toMatch(/must not contain a NUL character/);
    const found = await s.call(admin, 'POST', '/api/vehicle/vehicleBrand/query', { criteria: { keyword: 'NUL' } });
    expect(found.body.total).toBe(0);
  });

  it('refuses a NUL in a nested keyword, a login name, an array item and a property name', async () => {
    const keyword = await s.call(admin, 'POST', '/api/vehicle/vehicle/query', { criteria: { keyword: '沪A\u0000' } });
    expect(keyword.status).toBe(400);
    expect(keyword.body.errors[0].field).toBe('criteria.keyword');
    const login = await s.call(null, 'POST', '/api/login', { loginName: 'adm\u0000in', password: 'whatever1' });
    expect(login.status).toBe(400);
    expect(login.body.code).toBe('security.nulByte');
    const members = await s.call(admin, 'POST', '/api/passport/member/query', { criteria: { loginName: '\u0000' } });
    expect(members.status).toBe(400);
    const key = await s.call(admin, 'POST', '/api/vehicle/vehicleBrand', { ['na\u0000me']: 'x' });
    expect(key.status).toBe(400);
  });

  it('refuses a NUL in a query string and in a path parameter', async () => {
    const q = await s.call(admin, 'GET', '/api/vehicle/vehicleBrand/query?q=%00&limit=5');
    expect(q.status).toBe(400);
    expect(q.body.code).toBe('security.nulByte');
    const p = await s.call(admin, 'GET', '/api/passport/resource/authorized/obd%00web');
    expect(p.status).toBe(400);
    expect(p.body.success).toBe(false);
  });
});
