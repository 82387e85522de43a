import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../../server/app';
import { openDatabase, type Database } from '../../../../server/platform/db/database';
import { migrate } from '../../../../server/platform/db/migrate';
import { safeUrl } from '../../../../server/platform/http/logging';

describe('HTTP surface', () => {
  let dir: string;
  let database: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fs-static-'));
    fs.mkdirSync(path.join(dir, 'console'));
    fs.writeFileSync(path.join(dir, 'console/index.html'), '<html>console</html>');
    fs.writeFileSync(path.join(dir, 'console/app.123.js'), 'console.log(1)');
    fs.writeFileSync(path.join(dir, 'secret.txt'), 'TOP-SECRET');
    database = await openDatabase({ dataDir: 'memory://' });
    await migrate(database);
    app = await buildApp({ database, secret: 's', consoleDir: path.join(dir, 'console'), logLevel: 'silent' });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves the console, with client routes falling back to index.html', async () => {
    const asset = await app.inject({ url: '/app.123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const home = await app.inject({ url: '/' });
    expect(home.statusCode).toBe(200);
    expect(home.body).toBe('<html>console</html>');
    const route = await app.inject({ url: '/vehicleDetail/vehicleDetail/12' });
    expect(route.statusCode).toBe(200);
    expect(route.body).toBe('<html>console</html>');
    expect(route.headers['content-security-policy']).toContain("default-src 'self'");
    // Live video plays from a blob: URL (Media Source Extensions), and from nowhere else.
    expect(String(route.headers['content-security-policy']).split(';')).toContain("media-src 'self' blob:");
  });

  it.each([
    '/../secret.txt',
    '/..%2fsecret.txt',
    '/%2e%2e/secret.txt',
    '/%2e%2e%2fsecret.txt',
    '/..%5csecret.txt',
    '/..\\secret.txt',
    '/%252e%252e/secret.txt',
  ])('never serves a file outside the console folder: %s', async (url) => {
    const r = await app.inject({ url });
    expect(r.body).not.toContain('TOP-SECRET');
  });

  it('answers unknown API paths with a localised JSON 404, not the console', async () => {
    const r = await app.inject({ url: '/api/nothing-here', headers: { 'accept-language': 'ja-JP' } });
    expect(r.statusCode).toBe(404);
    expect(JSON.parse(r.body)).toMatchObject({ success: false, message: 'API が存在しません' });
  });

  it('reports health and publishes the OpenAPI document with every entity route', async () => {
    expect(JSON.parse((await app.inject({ url: '/api/health' })).body)).toMatchObject({ status: 'ok', database: 'pglite' });
    const doc = JSON.parse((await app.inject({ url: '/api/docs/json' })).body);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.apiKey).toEqual({ type: 'apiKey', in: 'header', name: 'X-Api-Key' });
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/login', '/api/vehicle/vehicleBrand', '/api/vehicle/fuelType/query', '/api/vehicle/terminal/{id}']),
    );
    expect(doc.paths['/api/vehicle/fuelType/query'].post.requestBody.content['application/json'].schema.properties).toHaveProperty(
      'pageIndex',
    );
  });

  it('refuses to register an API route that declares no permission (fail closed)', async () => {
    const fresh = await buildApp({ database, secret: 's', logLevel: 'silent' });
    expect(() => fresh.get('/api/forgotten', async () => 'x')).toThrow(/declares no permission/);
    expect(() => fresh.get('/api/declared', { config: { permission: 'NONE' } }, async () => 'x')).not.toThrow();
    await fresh.close();
  });

  it('keeps passwords in console login URLs out of logs', () => {
    expect(safeUrl('/login/admin/s3cret!?x=1')).toBe('/login/admin/***?x=1');
    expect(safeUrl('/api/login')).toBe('/api/login');
  });
});
