import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BACKENDS, type TestServer, useTestServer } from '../../../helpers/testServer';
import { multipartFile, XLSX, uploadSheet } from '../../../helpers/multipart';
import { xlsxOf } from '../../../helpers/xlsx';

/** Rows so far out of all, per member, of exports and imports, and a cancelled import that stores nothing (issue 14). */
describe.each(BACKENDS)('export and import progress on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });

  const id = () => `t${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`.padEnd(20, '0');
  const progress = (token: string, pid: string, method: 'GET' | 'DELETE' = 'GET') => s.call(token, method, `/api/vehicle/progress/${pid}`);
  const vehicles = (file: number, prefix: string) =>
    xlsxOf([['车牌号'], ...Array.from({ length: file }, (_, i) => [`${prefix}${String(10000 + i)}`])], '数据');
  const count = async (prefix: string) =>
    (await s.call(admin, 'POST', '/api/vehicle/vehicle/query', { criteria: { keyword: prefix }, pageSize: 1 })).body.total as number;
  const upload = (token: string, url: string, file: Buffer, pid?: string) =>
    uploadSheet(s.app, token, url, file, pid ? { 'x-progress-id': pid } : {});

  it("reports an export's rows written out of all, to the member who asked only", async () => {
    const total = (await s.call(admin, 'POST', '/api/vehicle/vehicle/query', { pageSize: 1 })).body.total as number;
    expect(total).toBeGreaterThan(0);
    const pid = id();
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/vehicle/vehicle/export',
      payload: {},
      headers: { authorization: `Bearer ${admin}`, 'x-progress-id': pid },
    });
    expect(res.statusCode).toBe(200);
    expect((await progress(admin, pid)).body).toEqual({ phase: 'write', done: total, total, state: 'done' });

    // The current page's export counts its ids only.
    const page = (await s.call(admin, 'POST', '/api/vehicle/vehicle/query', { pageSize: 3 })).body.data.map((v: { id: number }) => v.id);
    const pagePid = id();
    await s.app.inject({
      method: 'POST',
      url: '/api/vehicle/vehicle/export',
      payload: { ids: page },
      headers: { authorization: `Bearer ${admin}`, 'x-progress-id': pagePid },
    });
    expect((await progress(admin, pagePid)).body).toMatchObject({ done: 3, total: 3, state: 'done' });

    const other = await s.memberToken('HD', 'orgUser', ['vehicle-export']);
    // Another member's id reads as one nothing has begun under, and cannot be cancelled.
    const waiting = { phase: 'read', done: 0, total: null, state: 'waiting' };
    expect(await progress(other, pid)).toEqual({ status: 200, body: waiting });
    expect(await progress(other, pid, 'DELETE')).toMatchObject({
      status: 404,
      body: { code: 'progress.unknown', message: '没有这个进度，或它已过期' },
    });
    expect((await progress(admin, pid)).body).toMatchObject({ state: 'done' });
    // An id whose request has not reached the server yet: waiting, not an error the browser logs.
    expect(await progress(admin, id())).toEqual({ status: 200, body: waiting });
    expect((await progress(null as unknown as string, pid)).status).toBe(401);
  });

  it('refuses a malformed progress id at the boundary, in the caller’s language', async () => {
    for (const bad of ['short', 'has space in it 0123456', 'x'.repeat(65), 'semi;colon0123456789']) {
      const res = await s.call(admin, 'GET', `/api/vehicle/progress/${encodeURIComponent(bad)}`, undefined, 'en-US');
      expect(res).toMatchObject({ status: 400, body: { message: 'The progress id is not valid' } });
    }
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/vehicle/vehicle/export',
      payload: {},
      headers: { authorization: `Bearer ${admin}`, 'x-progress-id': 'bad id', 'accept-language': 'es-ES' },
    });
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body).message).toBe('El identificador de progreso no es válido');
    const up = await upload(admin, '/api/vehicle/vehicle/importValidate', await vehicles(2, '沪E'), 'no');
    expect(up).toMatchObject({ status: 400, body: { message: '进度标识无效' } });
  });

  it("reports an import's rows checked and stored, and answers a late cancel with done", async () => {
    // Checked, then imported, as the console does (the same file's rows checked twice).
    const file = await vehicles(1200, '沪E');
    const checkPid = id();
    expect((await upload(admin, '/api/vehicle/vehicle/importValidate', file, checkPid)).status).toBe(200);
    expect((await progress(admin, checkPid)).body).toEqual({ phase: 'check', done: 1200, total: 1200, state: 'done' });
    const pid = id();
    expect(await upload(admin, '/api/vehicle/vehicle/import', file, pid)).toMatchObject({ status: 201, body: { total: 1200 } });
    expect((await progress(admin, pid)).body).toEqual({ phase: 'store', done: 1200, total: 1200, state: 'done' });
    // Cancelling what finished changes nothing and says so.
    expect((await progress(admin, pid, 'DELETE')).body).toMatchObject({ state: 'done' });
    expect(await count('沪E')).toBe(1200);
    // The same id again while nothing runs under it is a new run.
    expect((await upload(admin, '/api/vehicle/vehicle/importValidate', await vehicles(3, '沪H'), pid)).status).toBe(200);

    // A file with errors fails its progress too.
    const badPid = id();
    expect((await upload(admin, '/api/vehicle/vehicle/import', await xlsxOf([['车牌号'], ['abc']], '数据'), badPid)).status).toBe(400);
    expect((await progress(admin, badPid)).body).toMatchObject({ state: 'failed' });
  });

  it('stores nothing of an import whose client went away while it ran', async () => {
    await s.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (s.app.server.address() as AddressInfo).port;
    const pid = id();
    const { payload, headers } = multipartFile('rows.xlsx', await vehicles(4000, '沪F'), XLSX);
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/vehicle/vehicle/import',
      headers: { ...headers, 'content-length': payload.length, authorization: `Bearer ${admin}`, 'x-progress-id': pid },
    });
    const ended = new Promise<string>((resolve) => {
      req.on('response', (res) => resolve(`answered ${res.statusCode}`));
      req.on('error', () => resolve('closed'));
      req.on('close', () => resolve('closed'));
    });
    req.end(payload);
    // Read the progress until the server follows the import, then go away.
    let seen: { state: string; phase: string } | null = null;
    // Bounded: a request the server never follows fails here rather than hanging.
    for (let i = 0; !seen && i < 10_000; i++) {
      const r = await progress(admin, pid);
      if (r.body.state !== 'waiting') seen = r.body;
      // Each read answers in memory: the server's own I/O (the upload) gets its turn in between.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (!seen) throw new Error('the server never followed the import');
    expect(seen.state).toBe('running');
    req.destroy();
    expect(await ended).toBe('closed');
    let after = seen;
    for (let i = 0; after.state === 'running' && i < 10_000; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      after = (await progress(admin, pid)).body;
    }
    expect(after.state).toBe('cancelled');
    expect(await count('沪F')).toBe(0);
  });
});
