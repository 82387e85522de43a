import type { AddressInfo } from 'node:net';
import { DEMO_PASSWORD } from '../../mock/runtime/server';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../helpers/testServer';
import { httpCall, mockClient, type MockClient } from './mockClient';
import { comparable, consoleScenario, type Side } from './scenarios';

type Call = (method: string, url: string, body?: unknown, lang?: string) => Promise<{ status: number; body: unknown }>;

/** Timestamps differ between any two runs; everything else must not. */
function stripTimes(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripTimes);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => k !== 'createdAt' && k !== 'updatedAt')
        .map(([k, x]) => [k, stripTimes(x)]),
    );
  return v;
}

/**
 * One scripted session of the generic CRUD: every case the server's CRUD tests cover (201, 200,
 * 204, 400 in four languages, 404, 406, paging, sorting, search, options). Returns each answer.
 */
async function scenario(call: Call): Promise<Array<{ step: string; status: number; body: unknown }>> {
  const out: Array<{ step: string; status: number; body: unknown }> = [];
  const step = async (name: string, method: string, url: string, body?: unknown, lang?: string) => {
    const r = await call(method, url, body, lang);
    out.push({ step: name, status: r.status, body: stripTimes(r.body) });
    return r.body as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers of any shape
  };
  const brand = await step('create', 'POST', '/api/vehicle/vehicleBrand', {
    name: '红岩',
    manufacturer: '上汽红岩',
    id: 999,
    createdAt: 'ignored',
  });
  await step('get', 'GET', `/api/vehicle/vehicleBrand/query/${brand.id}`);
  await step('update, clearing with an empty string', 'PUT', `/api/vehicle/vehicleBrand/${brand.id}`, {
    country: '中国',
    manufacturer: '',
  });
  for (const lang of ['zh-CN', 'en-US', 'es-ES', 'ja-JP'])
    await step(`required, ${lang}`, 'POST', '/api/vehicle/vehicleBrand', { manufacturer: 'x' }, lang);
  await step('every bad field', 'POST', '/api/vehicle/vehicleBrand', {
    name: 'x'.repeat(65),
    logo: 'javascript:alert(1)',
    enabled: 'yes',
    bogus: 1,
  });
  await step('duplicate', 'POST', '/api/vehicle/vehicleBrand', { name: '红岩' });
  await step('duplicate, en-US', 'POST', '/api/vehicle/vehicleBrand', { name: '红岩' }, 'en-US');
  await step('get unknown', 'GET', '/api/vehicle/vehicleBrand/query/987654');
  await step('update unknown', 'PUT', '/api/vehicle/vehicleBrand/987654', { name: 'n' });
  await step('delete unknown', 'DELETE', '/api/vehicle/vehicleBrand/987654');
  await step('id not a number', 'DELETE', '/api/vehicle/vehicleBrand/abc');
  await step('id too large', 'DELETE', '/api/vehicle/vehicleBrand/99999999999');
  for (const name of ['P-c', 'P-a', 'P-e', 'P-b', 'P-d', 'P-f', 'P-g'])
    await step(`create ${name}`, 'POST', '/api/vehicle/vehicleBrand', { name, country: 'PAGE' });
  for (const pageIndex of [1, 2, 3]) {
    await step(`page ${pageIndex}`, 'POST', '/api/vehicle/vehicleBrand/query', {
      criteria: { country: 'PAGE' },
      order: { property: 'name', direction: 'DESC' },
      pageIndex,
      pageSize: 3,
    });
  }
  await step('like, any case', 'POST', '/api/vehicle/vehicleBrand/query', { criteria: { name: 'p-' }, pageSize: 100 });
  await step('like, % is a character', 'POST', '/api/vehicle/vehicleBrand/query', { criteria: { name: '%' } });
  await step('criteria not searchable', 'POST', '/api/vehicle/vehicleBrand/query', { criteria: { remark: 'x' } });
  await step('order not sortable', 'POST', '/api/vehicle/vehicleBrand/query', { order: { property: 'remark', direction: 'ASC' } }, 'en-US');
  await step('paging out of range', 'POST', '/api/vehicle/vehicleBrand/query', { pageIndex: 0, pageSize: 100000 });
  await step('default order, second page', 'POST', '/api/vehicle/vehicleBrand/query', { pageIndex: 2, pageSize: 4 });

  const lng = await step('fuel create', 'POST', '/api/vehicle/fuelType', { name: 'LNG', category: 'gas', price: 5.1, unit: 'kg' });
  await step('fuel default unit', 'POST', '/api/vehicle/fuelType', { name: '98号汽油', category: 'gasoline', price: 9.2 });
  await step('fuel range', 'POST', '/api/vehicle/fuelType/query', { criteria: { price: [5, 6] }, pageSize: 100 });
  await step('fuel enum and keyword', 'POST', '/api/vehicle/fuelType/query', { criteria: { category: 'gas', keyword: 'ln' } });
  await step('fuel bad body', 'POST', '/api/vehicle/fuelType', { name: 'x', category: 'coal', price: -1 }, 'en-US');
  await step('fuel options', 'GET', '/api/vehicle/fuelType/options?q=LN');
  await step('fuel options, limit', 'GET', '/api/vehicle/fuelType/options?limit=3');
  await step('fuel options, bad limit', 'GET', '/api/vehicle/fuelType/options?limit=0');
  await step('fuel update', 'PUT', `/api/vehicle/fuelType/${lng.id}`, { price: 4.9 });
  await step('fuel delete', 'DELETE', `/api/vehicle/fuelType/${lng.id}`);
  const diesel = await step('fuel in use, find', 'POST', '/api/vehicle/fuelType/query', { criteria: { keyword: '0号柴油' } });
  await step('fuel in use, delete', 'DELETE', `/api/vehicle/fuelType/${diesel.data[0].id}`);

  await step('vehicle keyword on terminal label', 'POST', '/api/vehicle/vehicle/query', {
    criteria: { keyword: '808000000001' },
    pageSize: 50,
  });
  await step('vehicle org subtree', 'POST', '/api/vehicle/vehicle/query', {
    criteria: { orgId: 2 },
    order: { property: 'licence', direction: 'ASC' },
    pageSize: 100,
  });
  await step('vehicle date range', 'POST', '/api/vehicle/vehicle/query', { criteria: { serviceEnd: [null, '2026-12-31'] }, pageSize: 100 });
  await step('vehicle sort with nulls', 'POST', '/api/vehicle/vehicle/query', {
    order: { property: 'serviceEnd', direction: 'DESC' },
    pageSize: 30,
  });
  await step('vehicle terminal already bound', 'POST', '/api/vehicle/vehicle', {
    licence: '沪A99999',
    terminalId: 2,
    vin: 'LFW00000000000001',
  });
  await step('vehicle unknown brand', 'POST', '/api/vehicle/vehicle', { licence: '沪Z00001', brandId: 99999 });
  await step('vehicle options', 'GET', '/api/vehicle/vehicle/options?q=%E6%B2%AA&limit=5');
  await step('vehicle get', 'GET', '/api/vehicle/vehicle/queryById/5');
  await step('delete', 'DELETE', `/api/vehicle/vehicleBrand/${brand.id}`);
  await step('get deleted', 'GET', `/api/vehicle/vehicleBrand/query/${brand.id}`);
  return out;
}

/** Routes the mock cannot serve as the server does (mock/runtime/server.ts says why). */
const NOT_MOCKABLE = ['GET /api/vehicle/live'];

describe('the Umi mock answers like the server', () => {
  let server: TestServer;
  let mock: MockClient;
  let serverSide: Side;
  let mockSide: Side;
  beforeAll(async () => {
    // The server as server/main.ts assembles it, gateway off: the mock's own assembly must match it.
    server = await startTestServer('pglite', { telematics: true });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const serverCall = httpCall(`http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`);
    serverSide = { call: serverCall, login: (name) => server.login(name, ADMIN_PASSWORD) };
    mock = await mockClient();
    mockSide = { call: mock.call, login: (name) => mock.login(name, DEMO_PASSWORD) };
  }, 120_000);
  afterAll(async () => {
    await mock?.close();
    await server?.close();
  });

  it('for a whole CRUD session, answer by answer', async () => {
    const token = await serverSide.login('admin');
    const fromServer = await scenario(async (method, url, body, lang) => serverSide.call(token, method, url, body, lang));
    const mockToken = await mockSide.login('admin');
    const fromMock = await scenario(async (method, url, body, lang) => mockSide.call(mockToken, method, url, body, lang));
    // The server itself is right (tests/server/crud.test.ts); a few anchors keep this comparison honest.
    expect(fromServer.map((s) => s.status)).toEqual(expect.arrayContaining([200, 201, 204, 400, 404, 406]));
    for (const [i, s] of fromServer.entries())
      expect({ step: fromMock[i].step, status: fromMock[i].status, body: fromMock[i].body }).toEqual(s);
  });

  it('for every page’s calls beyond the CRUD, family by family, good input and bad', async () => {
    const fromServer = await consoleScenario(serverSide);
    const fromMock = await consoleScenario(mockSide);
    const status = (name: string) => fromServer.find((s) => s.step === name)?.status;
    // Anchors: the good calls of each family succeed on the server, so the comparison covers them.
    for (const [name, code] of Object.entries({
      'org create': 201,
      'org link': 200,
      'role authorise': 200,
      'resource create': 201,
      'member register': 201,
      'app member update': 200,
      'simulate login': 200,
      'audit query': 200,
      'vehicle template': 200,
      'vehicle export, ids': 200,
      'vehicle import validate': 200,
      'vehicle import': 201,
      'terminal renew': 200,
      'terminal suggest': 200,
      bind: 200,
      unbind: 200,
      'vehicle service': 200,
      'share create': 201,
      'shared location, public': 200,
      'xml upload': 200,
      'xml download': 200,
      decode: 200,
      'command, terminal offline': 406,
      'fence open': 200,
      'org create without the code': 403,
      'audit query without the code': 403,
    }))
      expect([name, status(name)]).toEqual([name, code]);
    expect(fromMock.map((s) => s.step)).toEqual(fromServer.map((s) => s.step));
    for (const [i, s] of fromServer.entries()) expect(fromMock[i]).toEqual(s);
  }, 120_000);

  it('for every route of the server’s catalogue: the mock file takes it and answers as the server does', async () => {
    const catalogue = server.app.routeCatalogue.map((r) => `${r.method} ${r.url}`).filter((r) => !r.startsWith('HEAD '));
    for (const r of NOT_MOCKABLE) expect(catalogue).toContain(r); // the exclusions name real routes
    const admin = await serverSide.login('admin');
    const mockAdmin = await mockSide.login('admin');
    let walked = 0;
    for (const route of catalogue.filter((r) => !NOT_MOCKABLE.includes(r))) {
      const [method, pattern] = route.split(' ');
      const url = pattern.replace(/:\w+/g, '1');
      // Signed out every route answers; signed in, the reads (a write here would change the state the two sides share).
      const fromMock = await mock.call(null, method, url, method === 'GET' ? undefined : {});
      expect([route, fromMock.status]).not.toEqual([route, 502]); // 502: the mock file let it through to the proxy
      expect([route, await comparable(route, fromMock)]).toEqual([
        route,
        await comparable(route, await serverSide.call(null, method, url, method === 'GET' ? undefined : {})),
      ]);
      if (method === 'GET') {
        expect([route, await comparable(route, await mock.call(mockAdmin, method, url))]).toEqual([
          route,
          await comparable(route, await serverSide.call(admin, method, url)),
        ]);
      }
      walked++;
    }
    expect(walked).toBeGreaterThan(150);
  }, 120_000);
});
