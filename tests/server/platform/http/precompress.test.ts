import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../../server/app';
import { openDatabase, type Database } from '../../../../server/platform/db/database';
import { migrate } from '../../../../server/platform/db/migrate';
import { precompress } from '../../../../server/platform/http/precompress';

/** The console's assets go out compressed when the browser accepts it, and exactly as built. */
describe('compressed console assets', () => {
  let dir: string;
  let database: Database;
  let app: FastifyInstance;
  const script = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{ id: ${i}, name: "车辆${i}" }`).join(', ')}];\n`;
  const page = `<html><head><title>车管星</title></head><body>${'<div class="x">控制台</div>'.repeat(80)}</body></html>`;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fs-precompress-'));
    fs.writeFileSync(path.join(dir, 'index.html'), page);
    fs.writeFileSync(path.join(dir, 'p__vehicle.abc.js'), script);
    fs.writeFileSync(path.join(dir, 'tiny.js'), 'x()');
    fs.writeFileSync(path.join(dir, 'logo.png'), Buffer.alloc(4096, 1));
    // Made before the app starts, as the build does.
    expect(await precompress(dir)).toBe(4);
    database = await openDatabase({ dataDir: 'memory://' });
    await migrate(database);
    app = await buildApp({ database, secret: 's', consoleDir: dir, logLevel: 'silent' });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sends brotli or gzip by Accept-Encoding, the bytes the build wrote, cached as before', async () => {
    const br = await app.inject({ url: '/p__vehicle.abc.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['cache-control']).toContain('immutable');
    expect(String(br.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    expect(br.rawPayload.length).toBeLessThan(script.length / 3);

    const gz = await app.inject({ url: '/p__vehicle.abc.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(script);

    const raw = await app.inject({ url: '/p__vehicle.abc.js', headers: { 'accept-encoding': 'identity' } });
    expect(raw.headers['content-encoding']).toBeUndefined();
    expect(raw.body).toBe(script);
  });

  it('keeps index.html uncached when it goes out compressed, client routes included', async () => {
    for (const url of ['/', '/index.html', '/fleet/monitor']) {
      const r = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect(r.statusCode).toBe(200);
      expect(r.headers['cache-control']).toBe('no-cache');
      const body = r.headers['content-encoding'] === 'br' ? zlib.brotliDecompressSync(r.rawPayload).toString() : r.body;
      expect(body).toBe(page);
    }
  });

  it('leaves small and binary files alone, and remakes a copy older than its asset', async () => {
    expect(fs.existsSync(path.join(dir, 'tiny.js.br'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'logo.png.gz'))).toBe(false);
    const tiny = await app.inject({ url: '/tiny.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(tiny.body).toBe('x()');

    // Nothing to do a second time.
    expect(await precompress(dir)).toBe(0);
    // Rebuilt in place: the asset is newer than its copies, which are made again.
    const changed = script.replace('车辆0', '车辆零');
    fs.writeFileSync(path.join(dir, 'p__vehicle.abc.js'), changed);
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(path.join(dir, 'p__vehicle.abc.js'), later, later);
    expect(await precompress(dir)).toBe(2);
    const br = await app.inject({ url: '/p__vehicle.abc.js', headers: { 'accept-encoding': 'br' } });
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(changed);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
