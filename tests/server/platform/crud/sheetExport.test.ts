import http from 'node:http';
import type { AddressInfo } from 'node:net';
import vm from 'node:vm';
import { sql } from 'kysely';
import { EXPORT_BATCH, EXPORT_MAX_IDS, XLSX_UPLOAD } from '../../../../server/platform/crud/sheetRoutes';
import { MAX_IMPORT_ROWS } from '../../../../server/platform/crud/sheet/read';
import * as consoleLimits from '../../../../src/components/sheet/limits';
import { EXPORT_MAX_IDS as CONSOLE_MAX_IDS } from '../../../../src/components/sheet/sheetCalls';
import { BACKENDS, type TestServer, useTestServer } from '../../../helpers/testServer';
import { downloadFrom, readXlsx } from '../../../helpers/xlsx';

/**
 * Node emits its warnings on the process object of the main context; jest hands tests a copy whose
 * listeners never hear them, so the test listens on the real one.
 */
const realProcess = vm.runInThisContext('process') as NodeJS.Process;

it('tells the console the limits the server applies', () => {
  expect({
    bytes: consoleLimits.SHEET_MAX_BYTES,
    rows: consoleLimits.SHEET_MAX_ROWS,
    ext: consoleLimits.SHEET_EXTENSIONS,
    ids: CONSOLE_MAX_IDS,
  }).toEqual({
    bytes: XLSX_UPLOAD.maxBytes,
    rows: MAX_IMPORT_ROWS,
    ext: XLSX_UPLOAD.extensions,
    ids: EXPORT_MAX_IDS,
  });
});

/** Export modes (SPEC §9: the current page or every matching row) and a long export over real HTTP. */
describe.each(BACKENDS)('spreadsheet export modes on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });

  const exportOf = (token: string, url: string, body: object, lang?: string) => downloadFrom(s, token, 'POST', url, body, lang);
  const licences = async (data: Buffer) => {
    const rows = await readXlsx(data);
    const col = (rows[0] as string[]).indexOf('车牌号');
    return rows.slice(1).map((r) => r[col]);
  };

  it('exports only the rows named by ids (the page on screen), in the list order, inside the criteria and scope', async () => {
    const hd = await s.memberToken('HD', 'orgUser', ['vehicle-export']);
    const order = { property: 'licence', direction: 'DESC' };
    const page = (await s.call(hd, 'POST', '/api/vehicle/vehicle/query', { order, pageIndex: 2, pageSize: 5 })).body.data as Array<{
      id: number;
      licence: string;
    }>;
    expect(page).toHaveLength(5);
    // Ids sent in another order: the file keeps the list's order.
    const ids = page.map((v) => v.id).reverse();
    const res = await exportOf(hd, '/api/vehicle/vehicle/export', { order, ids });
    expect(res.status).toBe(200);
    expect(await licences(res.data)).toEqual(page.map((v) => v.licence));

    // The criteria still apply: ids outside them export nothing.
    const sh = page.filter((v) => v.licence.startsWith('沪A'));
    const narrowed = await exportOf(hd, '/api/vehicle/vehicle/export', { order, ids, criteria: { keyword: '沪A' } });
    expect(await licences(narrowed.data)).toEqual(sh.map((v) => v.licence));

    // Another organisation's ids are not exported, as if they did not exist.
    const hn = (await s.call(admin, 'POST', '/api/vehicle/vehicle/query', { criteria: { keyword: '粤B' }, pageSize: 3 })).body.data.map(
      (v: { id: number }) => v.id,
    );
    expect(hn).toHaveLength(3);
    expect(await licences((await exportOf(hd, '/api/vehicle/vehicle/export', { ids: hn })).data)).toEqual([]);

    // An empty list of ids exports the header alone; no ids at all, every matching row.
    expect(await licences((await exportOf(hd, '/api/vehicle/vehicle/export', { ids: [] })).data)).toEqual([]);
    const all = (await s.call(hd, 'POST', '/api/vehicle/vehicle/query', { pageSize: 1000 })).body.total;
    expect(await licences((await exportOf(hd, '/api/vehicle/vehicle/export', { ids: null })).data)).toHaveLength(all);
  });

  it('refuses bad ids in words', async () => {
    const tooMany = await exportOf(admin, '/api/vehicle/vehicle/export', { ids: Array.from({ length: 1001 }, (_, i) => i + 1) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json()).toMatchObject({ message: '一次最多导出当前页的1000行', errors: [{ field: 'ids', key: 'sheet.tooManyIds' }] });
    expect(
      (await exportOf(admin, '/api/vehicle/vehicle/export', { ids: Array.from({ length: 1001 }, (_, i) => i + 1) }, 'en-US')).json()
        .message,
    ).toBe('At most 1000 rows of the current page can be exported at once');
    const notIds = await exportOf(admin, '/api/vehicle/vehicle/export', { ids: ['abc'] });
    expect(notIds.status).toBe(400);
    expect(notIds.json().errors[0]).toMatchObject({ field: 'ids.0', key: 'validation.integer' });
    expect((await exportOf(admin, '/api/vehicle/vehicle/export', { ids: [0] })).status).toBe(400);
    expect((await exportOf(admin, '/api/vehicle/vehicle/export', { ids: 5 })).status).toBe(400);
  });

  it('streams a long export to a slow client over HTTP without a listener warning', async () => {
    // More batches than Node's default of 10 listeners per event: a listener left per batch warns.
    const count = EXPORT_BATCH * 12 + 7;
    const org = await s.orgId('HD-SH');
    await sql`INSERT INTO vehicle_brand (org_id, name, manufacturer) SELECT ${org}, 'W' || lpad(g::text, 6, '0'), md5(g::text) FROM generate_series(1, ${count}) g`.execute(
      s.database.db,
    );
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    realProcess.on('warning', onWarning);
    try {
      await s.app.listen({ host: '127.0.0.1', port: 0 });
      const port = (s.app.server.address() as AddressInfo).port;
      const body = JSON.stringify({ criteria: { name: 'W' } });
      const data = await new Promise<Buffer>((resolve, reject) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/api/vehicle/vehicleBrand/export',
            headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            const chunks: Buffer[] = [];
            // A slow reader: the server waits for it again and again.
            res.on('data', (c: Buffer) => {
              chunks.push(c);
              res.pause();
              setTimeout(() => res.resume(), 1);
            });
            res.on('end', () => resolve(Buffer.concat(chunks)));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
      await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
      const rows = await readXlsx(data);
      expect(rows.length - 1).toBe(count);
      expect(warnings).toEqual([]);
    } finally {
      realProcess.off('warning', onWarning);
    }
  });
});
