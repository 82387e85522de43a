import { buildApp } from '../../../server/app';
import { loadConfig, OSM_ATTRIBUTION, OSM_TILE_URL } from '../../../server/config';
import { openDatabase, type Database } from '../../../server/platform/db/database';
import { migrate } from '../../../server/platform/db/migrate';

/** MAP_TILE_URL: checked at start, handed to the console, and the only other host the CSP lets images come from. */
describe('map tile configuration', () => {
  it('accepts http(s) templates and paths on this server, and refuses anything else', () => {
    expect(loadConfig({}).mapTileCoords).toBe('WGS84');
    expect(loadConfig({ MAP_TILE_COORDS: 'GCJ02' }).mapTileCoords).toBe('GCJ02');
    expect(() => loadConfig({ MAP_TILE_COORDS: 'BD09' })).toThrow(/MAP_TILE_COORDS/);
    // Unset: OpenStreetMap's standard tiles with their credit; `off`: no tiles at all.
    expect(loadConfig({}).mapTileUrl).toBe(OSM_TILE_URL);
    expect(loadConfig({ MAP_TILE_URL: '' }).mapTileUrl).toBe(OSM_TILE_URL);
    expect(loadConfig({}).mapTileAttribution).toBe(OSM_ATTRIBUTION);
    expect(loadConfig({ MAP_TILE_URL: 'off' }).mapTileUrl).toBeUndefined();
    expect(loadConfig({ MAP_TILE_URL: 'off' }).mapTileAttribution).toBeUndefined();
    expect(loadConfig({ MAP_TILE_URL: 'https://t.example.com/{z}/{x}/{y}.png' }).mapTileAttribution).toBeUndefined();
    expect(
      loadConfig({ MAP_TILE_URL: 'https://t.example.com/{z}/{x}/{y}.png', MAP_TILE_ATTRIBUTION: '© Example' }).mapTileAttribution,
    ).toBe('© Example');
    for (const bad of ['OFF', 'none', 'false']) expect(() => loadConfig({ MAP_TILE_URL: bad })).toThrow(/MAP_TILE_URL/);
    for (const ok of [
      'https://tiles.example.com/{z}/{x}/{y}.png',
      'http://{s}.tile.example.org/{z}/{x}/{y}.png',
      '/tiles/{z}/{x}/{y}.png',
    ]) {
      expect(loadConfig({ MAP_TILE_URL: ok }).mapTileUrl).toBe(ok);
    }
    for (const bad of [
      'tiles/{z}/{x}/{y}.png',
      '//cdn.example.com/{z}/{x}/{y}.png',
      'javascript:alert(1)/{z}/{x}/{y}',
      'https://tiles.example.com/{z}/{x}.png',
      'ftp://x/{z}/{x}/{y}',
    ]) {
      expect(() => loadConfig({ MAP_TILE_URL: bad })).toThrow(/MAP_TILE_URL/);
    }
  });

  describe('served', () => {
    let database: Database;
    beforeAll(async () => {
      database = await openDatabase({ dataDir: 'memory://' });
      // Every request reads the published label overrides (the labels feature), as in a real server.
      await migrate(database);
    });
    afterAll(() => database.close());

    const appWith = (mapTileUrl?: string, mapTileCoords?: 'WGS84' | 'GCJ02', mapTileAttribution?: string) =>
      buildApp({ database, secret: 'test-secret', logLevel: 'silent', mapTileUrl, mapTileCoords, mapTileAttribution });

    it('without a tile URL: no map, and images only from this server', async () => {
      const app = await appWith();
      const r = await app.inject({ method: 'GET', url: '/api/map/config' });
      expect(r.json()).toEqual({ tileUrl: null, coordSystem: 'WGS84', attribution: null });
      expect(r.headers['content-security-policy']).toContain("img-src 'self' data: blob:;");
      await app.close();
    });

    it('with one: the console is told, and the CSP lets tiles from that host only', async () => {
      const app = await appWith('https://{s}.tiles.example.com/{z}/{x}/{y}.png', 'GCJ02');
      const r = await app.inject({ method: 'GET', url: '/api/map/config' });
      expect(r.json()).toEqual({ tileUrl: 'https://{s}.tiles.example.com/{z}/{x}/{y}.png', coordSystem: 'GCJ02', attribution: null });
      expect(r.headers['content-security-policy']).toContain("img-src 'self' data: blob: https://*.tiles.example.com;");
      await app.close();
      const local = await appWith('/tiles/{z}/{x}/{y}.png');
      const l = await local.inject({ method: 'GET', url: '/api/map/config' });
      expect(l.headers['content-security-policy']).toContain("img-src 'self' data: blob:;");
      await local.close();
    });

    it('OpenStreetMap by default: its credit goes to the console, and its host alone to the CSP', async () => {
      const c = loadConfig({});
      const app = await appWith(c.mapTileUrl, c.mapTileCoords, c.mapTileAttribution);
      const r = await app.inject({ method: 'GET', url: '/api/map/config' });
      expect(r.json()).toEqual({ tileUrl: OSM_TILE_URL, coordSystem: 'WGS84', attribution: OSM_ATTRIBUTION });
      expect(r.headers['content-security-policy']).toContain("img-src 'self' data: blob: https://tile.openstreetmap.org;");
      await app.close();
    });
  });
});
