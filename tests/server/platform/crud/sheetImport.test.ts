import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { BACKENDS, type TestServer, useTestServer } from '../../../helpers/testServer';
import { uploadSheet } from '../../../helpers/multipart';
import { downloadFrom, readXlsx, xlsxOf } from '../../../helpers/xlsx';

/** The parts of an xlsx in the order Excel writes them: the worksheet before styles and shared strings. */
async function inExcelOrder(file: Buffer): Promise<Buffer> {
  const z = await JSZip.loadAsync(file);
  const names = Object.keys(z.files).filter((n) => !z.files[n].dir);
  const first = [
    '[Content_Types].xml',
    '_rels/.rels',
    'xl/workbook.xml',
    'xl/_rels/workbook.xml.rels',
    'xl/worksheets/sheet1.xml',
    'xl/theme/theme1.xml',
    'xl/styles.xml',
    'xl/sharedStrings.xml',
  ];
  const out = new JSZip();
  for (const n of [...first.filter((n) => names.includes(n)), ...names.filter((n) => !first.includes(n))])
    out.file(n, await z.files[n].async('nodebuffer'));
  return out.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

describe.each(BACKENDS)('spreadsheet import an administrator can trust on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });

  const upload = (token: string, url: string, file: Buffer, headers: Record<string, string> = {}) =>
    uploadSheet(s.app, token, url, file, headers);

  it('gives the same answer for one file with real date cells uploaded many times at once', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('车辆');
    ws.addRow(['车牌号', '服务开始日期', '服务到期日期', '车辆状态']);
    for (let i = 0; i < 40; i++) {
      const r = ws.addRow([`沪D${String(10000 + i)}`, new Date(Date.UTC(2025, 0, 1 + i)), new Date(Date.UTC(2027, 11, 31)), '正常']);
      r.getCell(2).numFmt = i % 2 ? 'yyyy/m/d' : 'yyyy"年"m"月"d"日"';
      r.getCell(3).numFmt = 'mm-dd-yy';
    }
    ws.addRow(['沪D20000', 45678, 46000, '正常']); // a date typed where the format was lost: Excel's day number
    const file = await inExcelOrder(Buffer.from(await wb.xlsx.writeBuffer()));
    const members = await Promise.all(Array.from({ length: 12 }, () => s.addMember('HD-SH', 'orgUser', ['vehicle-import'])));
    const answers = await Promise.all(
      members.flatMap((m) => [0, 1].map(() => upload(m.token, '/api/vehicle/vehicle/importValidate', file))),
    );
    // A member's second concurrent upload may be told to wait (429); every answered one is the same.
    const answered = answers.filter((a) => a.status === 200);
    expect(answered.length).toBeGreaterThanOrEqual(12);
    for (const a of answered)
      expect(a.body).toEqual({
        success: true,
        message: '全部41行数据有效',
        total: 41,
        invalid: 0,
        rows: [],
        created: 41,
        updated: 0,
        unchanged: 0,
        plan: Array.from({ length: 41 }, (_, i) => ({ row: i + 2, action: 'create' })),
      });
    for (const a of answers.filter((x) => x.status !== 200))
      expect(a).toMatchObject({ status: 429, body: { message: '您的上一个导入尚未完成，请完成后再试' } });
    const m = members[0];
    expect((await upload(m.token, '/api/vehicle/vehicle/import', file)).status).toBe(201);
    const got = await s.call(m.token, 'POST', '/api/vehicle/vehicle/query', {
      criteria: { licence: '沪D' },
      order: { property: 'licence', direction: 'ASC' },
      pageSize: 100,
    });
    expect(got.body.data[0]).toMatchObject({ licence: '沪D10000', serviceStart: '2025-01-01', serviceEnd: '2027-12-31' });
    expect(got.body.data[40]).toMatchObject({ licence: '沪D20000', serviceStart: '2025-01-21', serviceEnd: '2025-12-09' });
  });

  it('fills the template with the names the dropdowns show, in the organisation named, and says when a name matches several organisations', async () => {
    const tpl = await downloadFrom(s, admin, 'GET', '/api/vehicle/vehicle/template');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(tpl.data as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    const header = (ws.getRow(1).values as string[]).slice(1);
    expect(header).toContain('所属组织');
    expect(String(ws.getCell('A2').value)).toMatch(/^【填写说明】必填/);
    const validations = (ws as unknown as { dataValidations: { model: Record<string, { type: string; formulae: string[] }> } })
      .dataValidations.model;
    const lists = wb.getWorksheet('lists')!;
    // exceljs reads a range validation back as one entry per cell.
    const choicesOf = (label: string) => {
      const letter = ws.getColumn(header.indexOf(label) + 1).letter;
      const v = validations[`${letter}3`];
      expect(v).toMatchObject({ type: 'list' });
      expect(validations[`${letter}10002`]).toEqual(v);
      const [, col, last] = /^lists!\$([A-Z]+)\$1:\$[A-Z]+\$(\d+)$/.exec(v.formulae[0])!;
      return Array.from({ length: Number(last) }, (_, i) => lists.getCell(`${col}${i + 1}`).value as string);
    };
    expect(choicesOf('车辆状态')).toEqual(['正常', '维修中', '已报废']);
    expect(choicesOf('品牌').filter((b) => b === '东风')).toEqual(['东风']);
    expect(choicesOf('所属组织')).toEqual(expect.arrayContaining(['杭州车队', '上海车队']));
    expect(choicesOf('司机')).toContain('吴杰');

    const row = (values: Record<string, ExcelJS.CellValue>) => header.map((h) => values[h] ?? null);
    const filled = [
      ['杭州车队', '浙E00001', '吴杰'],
      ['hd-sh', '沪E00001', null],
    ].map(([org, licence, driver]) =>
      row({
        所属组织: org,
        车牌号: licence,
        品牌: '东风',
        燃油类型: '0号柴油',
        司机: driver,
        车辆状态: '维修中',
        服务开始日期: new Date(Date.UTC(2026, 0, 1)),
      }),
    );
    ws.getRow(3).values = filled[0];
    ws.getRow(4).values = filled[1];
    const file = Buffer.from(await wb.xlsx.writeBuffer());
    const done = await upload(admin, '/api/vehicle/vehicle/import', file);
    expect(done).toMatchObject({ status: 201, body: { total: 2 } });
    const got = await s.call(admin, 'POST', '/api/vehicle/vehicle/query', {
      criteria: { keyword: 'E00001' },
      order: { property: 'licence', direction: 'ASC' },
    });
    expect(got.body.data).toEqual([
      expect.objectContaining({
        licence: '沪E00001',
        orgId: await s.orgId('HD-SH'),
        brandName: '东风',
        status: 'repair',
        serviceStart: '2026-01-01',
      }),
      expect.objectContaining({
        licence: '浙E00001',
        orgId: await s.orgId('HD-HZ'),
        brandName: '东风',
        driverName: '吴杰',
        fuelTypeName: '0号柴油',
      }),
    ]);
    const brandOrg = await s.call(admin, 'GET', `/api/vehicle/vehicleBrand/query/${got.body.data[1].brandId}`);
    expect(brandOrg.body.orgId).toBe(await s.orgId('HD'));

    // From the root organisation, 东风 is 华东's and 华南's; 吴杰 drives in 杭州 and, from now, in 深圳 too, not in 上海.
    const namesake = await s.call(admin, 'PUT', '/api/vehicle/driver', {
      name: '吴杰',
      mobile: '13900000109',
      orgId: await s.orgId('HN-SZ'),
    });
    expect(namesake.status).toBe(201);
    const bad = await xlsxOf([
      ['车牌号', '品牌', '司机', '所属组织', '车辆状态'],
      ['沪E00002', '东风', null, null, '维修'],
      ['沪E00003', null, '吴杰', '上海车队', null],
      ['沪E00004', null, null, '不存在的车队', null],
    ]);
    const check = await upload(admin, '/api/vehicle/vehicle/importValidate', bad);
    const messages = check.body.rows.map((r: { row: number; errors: Array<{ message: string }> }) => [
      r.row,
      r.errors.map((e) => e.message),
    ]);
    expect(messages).toEqual([
      [
        2,
        [
          '品牌“东风”匹配多个组织：华东物流有限公司、华南运输集团，请在所属组织列中指明',
          '车辆状态的取值“维修”无效，可选：正常、维修中、已报废',
        ],
      ],
      [3, ['司机“吴杰”匹配多个组织：杭州车队、深圳车队，请在所属组织列中指明']],
      [4, ['所属组织“不存在的车队”不存在或无权使用']],
    ]);
    // Outside the importer's scope an organisation does not exist.
    const hn = await s.memberToken('HN', 'orgUser', ['vehicle-import']);
    const foreign = await upload(
      hn,
      '/api/vehicle/vehicle/importValidate',
      await xlsxOf([
        ['车牌号', '所属组织'],
        ['粤E00001', 'HD-SH'],
      ]),
    );
    expect(foreign.body.rows[0].errors[0].message).toBe('所属组织“HD-SH”不存在或无权使用');
  });

  it('imports an exported file after editing it, ignoring read-only columns, with times in the caller zone', async () => {
    // A 华东 member: the brands and fuel types of 上海's vehicles are 华东's, inside this member's scope.
    const hd = await s.memberToken('HD', 'orgUser', ['vehicle-export', 'vehicle-import']);
    const exported = await downloadFrom(s, hd, 'POST', '/api/vehicle/vehicle/export', {
      criteria: { licence: '沪A' },
      order: { property: 'licence', direction: 'ASC' },
    });
    const rows = await readXlsx(exported.data);
    const header = rows[0] as string[];
    expect(header).toEqual(expect.arrayContaining(['所属组织', '创建时间', '更新时间']));
    const list = await s.call(hd, 'POST', '/api/vehicle/vehicle/query', {
      criteria: { licence: '沪A' },
      order: { property: 'licence', direction: 'ASC' },
    });
    const created = new Date(list.body.data[0].createdAt);
    const shanghai = new Date(created.getTime() + 8 * 3600 * 1000).toISOString().replace('T', ' ').slice(0, 19);
    expect(rows[1][header.indexOf('创建时间')]).toBe(shanghai);
    const utc = await readXlsx(
      (
        await s.app.inject({
          method: 'POST',
          url: '/api/vehicle/vehicle/export',
          payload: { criteria: { licence: '沪A' }, order: { property: 'licence', direction: 'ASC' } },
          headers: { authorization: `Bearer ${hd}`, 'x-time-zone': 'UTC' },
        })
      ).rawPayload,
    );
    expect(utc[1][header.indexOf('创建时间')]).toBe(created.toISOString().replace('T', ' ').slice(0, 19));
    // Edit: a new licence and VIN, no terminal (those are unique), keep everything else.
    const edited = [
      header,
      ...rows
        .slice(1, 3)
        .map((r, i) =>
          header.map((h, j) =>
            h === '车牌号' ? `沪F0000${i}` : h === '车架号（VIN）' ? `LFWEDTED00000000${i}` : h === '终端编号' ? null : r[j],
          ),
        ),
    ];
    const done = await upload(hd, '/api/vehicle/vehicle/import', await xlsxOf(edited));
    expect(done.body.rows ?? []).toEqual([]);
    expect(done).toMatchObject({ status: 201, body: { total: 2 } });
    const copy = await s.call(hd, 'POST', '/api/vehicle/vehicle/query', {
      criteria: { licence: '沪F0000' },
      order: { property: 'licence', direction: 'ASC' },
    });
    expect(copy.body.data[0]).toMatchObject({
      orgId: await s.orgId('HD-SH'),
      brandName: list.body.data[0].brandName,
      driverName: list.body.data[0].driverName,
      serviceEnd: list.body.data[0].serviceEnd,
    });
  });
});
