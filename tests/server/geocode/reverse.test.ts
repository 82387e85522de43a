import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { geocodeConfig } from '../../../server/geocode/config';
import { BACKENDS, startTestServer, type TestServer } from '../../helpers/testServer';

/**
 * Addresses of positions (POST vehicle/geocode/reverse) through the real server and database: with
 * no provider, the province, city and district from the shipped boundaries; with a
 * Nominatim-compatible provider (a tiny one on loopback here: no test reaches the internet), its
 * address, asked once per place and language and kept in the database, and the district again
 * when it fails or is slow.
 */
jest.setTimeout(400_000);

/** 西湖 in Hangzhou, People’s Square in Shanghai, and the East China Sea (WGS-84). */
const WEST_LAKE = { latitude: 30.2425, longitude: 120.1413 };
const BUND = { latitude: 31.2304, longitude: 121.4737 };
/** Yuen Long, across the river from Shenzhen: a special administrative region, named in full. */
const YUEN_LONG = { latitude: 22.45, longitude: 114.03 };
const AT_SEA = { latitude: 30.0, longitude: 123.5 };

interface Nominatim {
  url: string;
  asked: Array<{ lat: string; lon: string; lang: string | null; agent: string | undefined }>;
  /** What the next requests get: an answer, a failure, or an answer after a delay. */
  mode: 'answer' | 'fail' | { delayMs: number };
  close(): Promise<void>;
}

async function nominatim(): Promise<Nominatim> {
  const state: Nominatim = { url: '', asked: [], mode: 'answer', close: async () => undefined };
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://localhost');
    if (u.pathname !== '/reverse') return void res.writeHead(404).end();
    const lat = u.searchParams.get('lat') ?? '';
    const lon = u.searchParams.get('lon') ?? '';
    state.asked.push({ lat, lon, lang: u.searchParams.get('accept-language'), agent: req.headers['user-agent'] });
    const mode = state.mode;
    if (mode === 'fail') return void res.writeHead(503).end('busy');
    const answer = () =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ display_name: `测试路 ${lat},${lon}`, lat, lon }));
    if (typeof mode === 'object') setTimeout(answer, mode.delayMs);
    else answer();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((r) => {
      // fetch keeps its connections alive: end them, or the server waits for them.
      server.closeAllConnections();
      server.close(() => r());
    });
  return state;
}

const reverse = (s: TestServer, token: string, points: unknown, lang?: string) =>
  s.call(token, 'POST', '/api/vehicle/geocode/reverse', { points }, lang);

describe.each(BACKENDS)('reverse geocoding (%s)', (backend) => {
  describe('with no provider', () => {
    let server: TestServer;
    let token: string;
    beforeAll(async () => {
      server = await startTestServer(backend);
      token = await server.login('admin', 'Admin2026x');
    });
    afterAll(() => server.close());

    it('answers the province, city and district of each position from the shipped boundaries, and nothing at sea', async () => {
      const r = await reverse(server, token, [WEST_LAKE, BUND, YUEN_LONG, AT_SEA]);
      expect(r.status).toBe(200);
      expect(r.body.provider).toBeNull();
      expect(r.body.data).toEqual([
        { ...WEST_LAKE, address: '浙江省杭州市西湖区', source: 'district' },
        { ...BUND, address: '上海市黄浦区', source: 'district' },
        { ...YUEN_LONG, address: '香港特别行政区元朗区', source: 'district' },
        { ...AT_SEA, address: null, source: null },
      ]);
      // Nothing is stored without a provider.
      expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM geocode_cache`.execute(server.database.db)).rows[0].n).toBe(0);
    });

    it('refuses bad positions with 400 and a localised message naming the field', async () => {
      const none = await reverse(server, token, []);
      expect(none.status).toBe(400);
      expect(none.body.message).toContain('位置');
      const off = await reverse(server, token, [{ latitude: 91, longitude: 120 }], 'en-US');
      expect(off.status).toBe(400);
      expect(off.body.message).toContain('Latitude');
      const text = await reverse(server, token, [{ latitude: 'thirty', longitude: 120 }], 'ja-JP');
      expect(text.status).toBe(400);
      expect(text.body.message).toContain('緯度');
      const many = await reverse(
        server,
        token,
        Array.from({ length: 201 }, () => WEST_LAKE),
      );
      expect(many.status).toBe(400);
      expect((await reverse(server, null as unknown as string, [WEST_LAKE])).status).toBe(401);
    });
  });

  describe('with a Nominatim-compatible provider', () => {
    let server: TestServer;
    let token: string;
    let provider: Nominatim;
    beforeAll(async () => {
      provider = await nominatim();
      server = await startTestServer(backend, {
        geocode: geocodeConfig({
          GEOCODE_PROVIDER: 'nominatim',
          GEOCODE_URL: provider.url,
          GEOCODE_WAIT_MS: '800',
          GEOCODE_TIMEOUT_MS: '5000',
        }),
      });
      token = await server.login('admin', 'Admin2026x');
    });
    afterAll(async () => {
      await server.close();
      await provider.close();
    });

    it('answers the provider’s address, asks it once per place and language, and keeps it in the database', async () => {
      provider.mode = 'answer';
      const first = await reverse(server, token, [WEST_LAKE, { latitude: 30.24251, longitude: 120.14131 }]);
      expect(first.status).toBe(200);
      expect(first.body.provider).toBe('nominatim');
      // Both positions lie in one ~11 m cell: one question, one address.
      expect(first.body.data.map((d: { address: string; source: string }) => [d.address, d.source])).toEqual([
        ['测试路 30.2425,120.1413', 'provider'],
        ['测试路 30.2425,120.1413', 'provider'],
      ]);
      expect(provider.asked).toEqual([{ lat: '30.2425', lon: '120.1413', lang: 'zh-CN', agent: expect.stringContaining('fleet-star') }]);
      const again = await reverse(server, token, [WEST_LAKE]);
      expect(again.body.data[0].address).toBe('测试路 30.2425,120.1413');
      expect(provider.asked).toHaveLength(1);
      const stored = await sql<{ address: string; provider: string; lang: string }>`
        SELECT address, provider, lang FROM geocode_cache WHERE lat_e4 = 302425 AND lng_e4 = 1201413`.execute(server.database.db);
      expect(stored.rows).toEqual([{ address: '测试路 30.2425,120.1413', provider: 'nominatim', lang: 'zh-CN' }]);
      // Another language is another question.
      await reverse(server, token, [WEST_LAKE], 'en-US');
      expect(provider.asked.map((a) => a.lang)).toEqual(['zh-CN', 'en-US']);
    });

    it('answers the district when the provider fails, and stores nothing for it', async () => {
      provider.mode = 'fail';
      const r = await reverse(server, token, [BUND]);
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual([{ ...BUND, address: '上海市黄浦区', source: 'district' }]);
      expect(
        (await sql<{ n: number }>`SELECT count(*)::int AS n FROM geocode_cache WHERE lat_e4 = 312304`.execute(server.database.db)).rows[0]
          .n,
      ).toBe(0);
    });

    it('answers the district while a slow provider is still asked, and its address once it has answered', async () => {
      provider.mode = { delayMs: 2000 };
      const p = { latitude: 39.9087, longitude: 116.3975 };
      const now = await reverse(server, token, [p]);
      expect(now.body.data).toEqual([{ ...p, address: '北京市东城区', source: 'district' }]);
      // The question goes on after the answer: the address is stored when it comes.
      const deadline = Date.now() + 30_000;
      let later = now;
      while (later.body.data[0].source !== 'provider' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        later = await reverse(server, token, [p]);
      }
      expect(later.body.data).toEqual([{ ...p, address: '测试路 39.9087,116.3975', source: 'provider' }]);
    });
  });
});

describe('GEOCODE_* settings', () => {
  it('are off by default and refuse a provider they do not know, a missing key and a bad duration', () => {
    expect(geocodeConfig({}).provider).toBeNull();
    expect(geocodeConfig({ GEOCODE_PROVIDER: 'off' }).provider).toBeNull();
    expect(geocodeConfig({ GEOCODE_PROVIDER: 'AMap', GEOCODE_KEY: 'k' }).provider?.provider).toBe('amap');
    expect(() => geocodeConfig({ GEOCODE_PROVIDER: 'google' })).toThrow(/GEOCODE_PROVIDER must be one of off, nominatim, tianditu, amap/);
    expect(() => geocodeConfig({ GEOCODE_PROVIDER: 'tianditu' })).toThrow(/GEOCODE_KEY is needed/);
    expect(() => geocodeConfig({ GEOCODE_TIMEOUT_MS: '-3' })).toThrow(/GEOCODE_TIMEOUT_MS/);
  });
});
