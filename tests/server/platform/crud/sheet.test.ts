import { sql } from 'kysely';
import { BACKENDS, type TestServer, useTestServer } from '../../../helpers/testServer';
import { XLSX, uploadSheet, inLanguage } from '../../../helpers/multipart';
import { downloadFrom, readXlsx, xlsxOf } from '../../../helpers/xlsx';

describe.each(BACKENDS)('spreadsheet export, template and import on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });

  const upload = (token: string, url: string, file: Buffer, lang?: string, name = 'rows.xlsx') =>
    uploadSheet(s.app, token, url, file, inLanguage(lang), name);
  const download = (token: string, method: 'GET' | 'POST', url: string, body?: object, lang?: string) =>
    downloadFrom(s, token, method, url, body, lang);

  it('exports every row the list matches, in its order, with localised headers and labels', async () => {
    const hd = await s.memberToken('HD', 'orgUser', ['vehicle-export']);
    const criteria = { keyword: '沪A' };
    const list = await s.call(hd, 'POST', '/api/vehicle/vehicle/query', {
      criteria,
      order: { property: 'licence', direction: 'DESC' },
      pageSize: 1000,
    });
    expect(list.body.total).toBeGreaterThan(2);
    const res = await download(hd, 'POST', '/api/vehicle/vehicle/export', { criteria, order: { property: 'licence', direction: 'DESC' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX);
    expect(res.headers['content-disposition']).toContain("filename*=UTF-8''%E8%BD%A6%E8%BE%86");
    const rows = await readXlsx(res.data);
    const header = rows[0] as string[];
    expect(header).toEqual(expect.arrayContaining(['车牌号', '车架号（VIN）', '品牌', '终端编号', '所属组织']));
    expect(header).not.toContain('编号');
    const licence = header.indexOf('车牌号');
    expect(rows.slice(1).map((r) => r[licence])).toEqual(list.body.data.map((v: { licence: string }) => v.licence));
    const first = list.body.data[0];
    const row = rows[1];
    expect(row[header.indexOf('品牌')]).toBe(first.brandName);
    expect(row[header.indexOf('车辆状态')]).toBe({ normal: '正常', repair: '维修中', scrapped: '已报废' }[first.status as string]);
    // The member without the code is refused; another organisation's rows never appear.
    expect((await download(await s.memberToken('HD', 'orgUser', []), 'POST', '/api/vehicle/vehicle/export', {})).status).toBe(403);
    const all = await readXlsx((await download(hd, 'POST', '/api/vehicle/vehicle/export', {})).data);
    expect(all.slice(1).some((r) => String(r[header.indexOf('车牌号')]).startsWith('粤B'))).toBe(false);
    // English headers for an English caller.
    const en = await readXlsx((await download(hd, 'POST', '/api/vehicle/vehicle/export', { criteria }, 'en-US')).data);
    expect(en[0]).toEqual(expect.arrayContaining(['Licence plate', 'VIN', 'Brand']));
  });

  it('keeps keyset order across batches, nulls last, with many equal keys', async () => {
    // 2,100 brands with 3 distinct countries (one null) span two export batches of 2,000.
    const org = await s.orgId('HD-HZ');
    await sql`INSERT INTO vehicle_brand (org_id, name, country) SELECT ${org}, 'K' || lpad(g::text, 5, '0'), (ARRAY['A', 'B', NULL])[1 + g % 3] FROM generate_series(1, 2100) g`.execute(
      s.database.db,
    );
    const tok = await s.memberToken('HD-HZ', 'orgUser', []);
    const rows = await readXlsx(
      (
        await download(tok, 'POST', '/api/vehicle/vehicleBrand/export', {
          criteria: { name: 'K' },
          order: { property: 'country', direction: 'DESC' },
        })
      ).data,
    );
    const header = rows[0] as string[];
    const names = rows.slice(1).map((r) => r[header.indexOf('品牌名称')] as string);
    expect(names.length).toBe(2100);
    expect(new Set(names).size).toBe(2100);
    const countries = rows.slice(1).map((r) => r[header.indexOf('国家/地区')] ?? null);
    expect(countries.lastIndexOf('B')).toBeLessThan(countries.indexOf('A')); // DESC: every B before any A
    expect(countries.slice(0, 1400).every((c) => c !== null)).toBe(true);
    expect(countries.slice(-700).every((c) => c === null)).toBe(true);
  });

  it('gives an import template with the writable fields as localised headers', async () => {
    const res = await download(admin, 'GET', '/api/vehicle/terminal/template');
    expect(res.status).toBe(200);
    const [header] = await readXlsx(res.data);
    expect(header).toEqual([
      '终端编号',
      'SIM 卡号',
      '硬件版本',
      '生产厂家',
      '生产日期',
      '终端类型',
      '协议版本',
      '调试',
      '是否使用',
      '服务开始',
      '服务结束',
      '备注',
      '所属组织',
    ]);
    const renew = await readXlsx((await download(admin, 'GET', '/api/vehicle/terminal/template?kind=renew', undefined, 'ja-JP')).data);
    expect(renew[0]).toEqual(['端末番号', 'サービス終了']);
  });

  it('validates every row first, answers per-row per-field errors, and imports nothing until all are valid', async () => {
    const hd = await s.memberToken('HD', 'orgUser', ['terminal-import']);
    const header = ['终端编号', 'SIM 卡号', '终端类型', '调试', '生产日期', '备注'];
    const bad = await xlsxOf([
      header,
      ['IMP0001', 14400000001, 'OBD 终端', '否', new Date(Date.UTC(2025, 0, 15)), 'ok'],
      ['', 14400000002, 'obd', '否', null, 'no number'],
      ['IMP0003', 'not-a-sim', '飞碟', 'maybe', null, null],
      ['IMP0001', 14400000004, 'gnss', '是', null, 'repeats row 2'],
    ]);
    const check = await upload(hd, '/api/vehicle/terminal/importValidate', bad);
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({ success: false, total: 4, invalid: 3, message: '3行数据有误，未导入任何数据' });
    const byRow = Object.fromEntries(
      check.body.rows.map((r: { row: number; errors: Array<{ field: string; message: string }> }) => [
        r.row,
        Object.fromEntries(r.errors.map((e) => [e.field, e.message])),
      ]),
    );
    expect(byRow).toEqual({
      3: { terminalNo: '终端编号不能为空' },
      // Each message quotes what the cell held; an enum lists what it allows.
      4: {
        sim: 'SIM 卡号格式不正确（填写的是“not-a-sim”）',
        terminalType: '终端类型的取值“飞碟”无效，可选：OBD 终端、定位终端、视频终端、其他',
        debug: '调试的类型不正确（填写的是“maybe”）',
      },
      5: { terminalNo: '终端编号与第2行重复' },
    });
    const en = await upload(hd, '/api/vehicle/terminal/importValidate', bad, 'en-US');
    expect(en.body.rows[0].errors[0].message).toBe('Terminal number is required');

    const refused = await upload(hd, '/api/vehicle/terminal/import', bad);
    // The code names the refusal, so a different 400 shows what it was.
    expect({ status: refused.status, code: refused.body.code, message: refused.body.message }).toMatchObject({
      status: 400,
      code: 'sheet.invalidRows',
    });
    expect(refused.body.rows).toHaveLength(3);
    const none = await s.call(hd, 'POST', '/api/vehicle/terminal/query', { criteria: { terminalNo: 'IMP000' } });
    expect(none.body.total).toBe(0);

    const good = await xlsxOf([
      header,
      ['IMP0001', 14400000001, 'OBD 终端', '否', new Date(Date.UTC(2025, 0, 15)), 'ok'],
      ['IMP0002', '14400000002', 'gnss', '是', '2025-02-01', null],
    ]);
    expect((await upload(hd, '/api/vehicle/terminal/importValidate', good)).body).toMatchObject({
      success: true,
      total: 2,
      invalid: 0,
      rows: [],
    });
    const done = await upload(hd, '/api/vehicle/terminal/import', good);
    expect(done).toMatchObject({ status: 201, body: { success: true, total: 2, message: '成功导入2条数据' } });
    const got = await s.call(hd, 'POST', '/api/vehicle/terminal/query', {
      criteria: { terminalNo: 'IMP000' },
      order: { property: 'terminalNo', direction: 'ASC' },
    });
    expect(got.body.data).toEqual([
      expect.objectContaining({
        terminalNo: 'IMP0001',
        sim: '14400000001',
        terminalType: 'obd',
        debug: false,
        productionDate: '2025-01-15',
        remark: 'ok',
        inUse: true,
        orgId: await s.orgId('HD'),
      }),
      expect.objectContaining({
        terminalNo: 'IMP0002',
        sim: '14400000002',
        terminalType: 'gnss',
        debug: true,
        productionDate: '2025-02-01',
      }),
    ]);
    // The same file again names the same terminals, as they are: nothing to write.
    const again = await upload(hd, '/api/vehicle/terminal/importValidate', good);
    expect(again.body).toMatchObject({ success: true, total: 2, invalid: 0, created: 0, updated: 0, unchanged: 2 });
    // A number and a SIM are one identity, leading zeros ignored: across columns, within the file
    // and against another organisation's terminal (which is never updated, and whose organisation
    // the answer never names).
    const hn = await s.memberToken('HN', 'orgUser', ['terminal-import']);
    const across = await xlsxOf([
      header,
      ['014400000002', 14400000099, 'obd', '否', null, null],
      ['IMP0009', 14400000098, 'obd', '否', null, null],
      ['14400000098', 14400000097, 'obd', '否', null, null],
    ]);
    const crossed = await upload(hn, '/api/vehicle/terminal/importValidate', across);
    expect(crossed.body.rows).toEqual([
      {
        row: 2,
        errors: [{ field: 'terminalNo', key: 'sheet.keyOutOfScope', message: '终端编号已存在，且不在您的管理范围内，不能导入或更新' }],
      },
      { row: 4, errors: [{ field: 'terminalNo', key: 'sheet.duplicateInFile', message: '终端编号与第3行重复' }] },
    ]);
  });

  it('resolves relations by their label inside the caller scope', async () => {
    const hd = await s.memberToken('HD', 'orgUser', ['vehicle-import']);
    const file = await xlsxOf([
      ['车牌号', '品牌', '燃油类型', '车辆状态'],
      ['沪J00001', '解放', '0号柴油', '正常'],
      ['沪J00002', '不存在的品牌', null, null],
    ]);
    const check = await upload(hd, '/api/vehicle/vehicle/importValidate', file);
    expect(check.body.rows).toEqual([
      { row: 3, errors: [{ field: 'brandId', key: 'sheet.refNotFound', message: '品牌“不存在的品牌”不存在或无权使用' }] },
    ]);
    const ok = await upload(
      hd,
      '/api/vehicle/vehicle/import',
      await xlsxOf([
        ['车牌号', '品牌', '燃油类型'],
        ['沪J00001', '解放', '0号柴油'],
      ]),
    );
    expect(ok.status).toBe(201);
    const v = await s.call(hd, 'POST', '/api/vehicle/vehicle/query', { criteria: { licence: '沪J00001' } });
    expect(v.body.data[0]).toMatchObject({ brandName: '解放', fuelTypeName: '0号柴油', status: 'normal' });
  });

  it('refuses files that are not usable spreadsheets, in words', async () => {
    const r1 = await upload(admin, '/api/vehicle/terminal/importValidate', Buffer.from('a,b'), undefined, 'rows.txt');
    expect(r1).toMatchObject({ status: 400, body: { message: '只能上传 xlsx 或 csv 文件' } });
    const r2 = await upload(admin, '/api/vehicle/terminal/importValidate', Buffer.from('not a zip'));
    expect(r2).toMatchObject({ status: 400, body: { message: '无法读取该文件，请使用导入模板' } });
    const r3 = await upload(
      admin,
      '/api/vehicle/terminal/importValidate',
      await xlsxOf([
        ['终端编号', '颜色'],
        ['X1', 'red'],
      ]),
    );
    expect(r3).toMatchObject({ status: 400, body: { message: '无法识别的列：颜色' } });
    const r4 = await s.call(admin, 'POST', '/api/vehicle/terminal/importValidate', {});
    expect(r4).toMatchObject({ status: 400, body: { message: '请上传 xlsx 文件' } });
    const big = Buffer.alloc(5 * 1024 * 1024 + 10, 1);
    const r5 = await upload(admin, '/api/vehicle/terminal/importValidate', big);
    expect(r5).toMatchObject({ status: 413, body: { message: '文件不能超过5 MB' } });
  });

  it('renews terminals by number, all or nothing', async () => {
    const hd = await s.memberToken('HD', 'orgUser', ['terminal-renew']);
    const list = await s.call(hd, 'POST', '/api/vehicle/terminal/query', {
      pageSize: 2,
      order: { property: 'terminalNo', direction: 'ASC' },
    });
    const [a, b] = list.body.data.map((x: { terminalNo: string }) => x.terminalNo);
    const bad = await xlsxOf([
      ['终端编号', '服务结束'],
      [a, '2030-01-31'],
      ['NOPE', '2030-01-31'],
      [b, 'soon'],
    ]);
    const check = await upload(hd, '/api/vehicle/terminal/renew', bad);
    expect(check.status).toBe(400);
    expect(check.body.rows).toEqual([
      { row: 3, errors: [expect.objectContaining({ field: 'terminalNo', message: '终端编号“NOPE”不存在或无权使用' })] },
      { row: 4, errors: [expect.objectContaining({ field: 'serviceEnd', message: '服务结束不是有效的日期（填写的是“soon”）' })] },
    ]);
    const good = await xlsxOf([
      ['终端编号', '服务结束'],
      [a, '2030-01-31'],
      [b, new Date(Date.UTC(2031, 5, 30))],
    ]);
    expect((await upload(hd, '/api/vehicle/terminal/renewValidate', good)).body.success).toBe(true);
    expect(await upload(hd, '/api/vehicle/terminal/renew', good)).toMatchObject({
      status: 200,
      body: { total: 2, message: '成功续期2条数据' },
    });
    const after = await s.call(hd, 'POST', '/api/vehicle/terminal/query', {
      pageSize: 2,
      order: { property: 'terminalNo', direction: 'ASC' },
    });
    expect(after.body.data.map((x: { serviceEnd: string }) => x.serviceEnd)).toEqual(['2030-01-31', '2031-06-30']);
  });
});
