import { BACKENDS, type TestServer, useTestServer } from '../../../helpers/testServer';
import { uploadSheet, inLanguage } from '../../../helpers/multipart';
import { downloadFrom, readXlsx, xlsxOf } from '../../../helpers/xlsx';

interface Vehicle {
  id: number;
  licence: string;
  vin: string | null;
  status: string;
  updatedAt: string;
}

const SHANGHAI = { criteria: { licence: '沪A' }, order: { property: 'licence', direction: 'ASC' }, pageSize: 100 };

describe.each(BACKENDS)('re-importing an export on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });

  const upload = (token: string, url: string, file: Buffer, lang?: string) => uploadSheet(s.app, token, url, file, inLanguage(lang));
  const check = (token: string, file: Buffer, lang?: string) => upload(token, '/api/vehicle/vehicle/importValidate', file, lang);
  const apply = (token: string, file: Buffer) => upload(token, '/api/vehicle/vehicle/import', file);
  const shanghai = async (token: string): Promise<Vehicle[]> =>
    (await s.call(token, 'POST', '/api/vehicle/vehicle/query', SHANGHAI)).body.data;
  /** The list of 上海车队's vehicles exported by a member of 华东 (whose brands and fuel types they use), as cells. */
  const exported = async (token: string) => {
    const rows = await readXlsx((await downloadFrom(s, token, 'POST', '/api/vehicle/vehicle/export', SHANGHAI)).data);
    const header = rows[0] as string[];
    return { header, rows: rows.slice(1), at: (label: string) => header.indexOf(label) };
  };
  const messagesOf = (body: { rows: Array<{ row: number; errors: Array<{ message: string }> }> }) =>
    Object.fromEntries(body.rows.map((r) => [r.row, r.errors.map((e) => e.message)]));

  it('previews and stores an edited export: the row changed updated, a new row created, the rest untouched', async () => {
    const hd = await s.memberToken('HD', 'orgUser', ['vehicle-export', 'vehicle-import']);
    const before = await shanghai(hd);
    expect(before.length).toBeGreaterThan(2);
    const { header, rows, at } = await exported(hd);
    expect(rows.map((r) => r[at('车牌号')])).toEqual(before.map((v) => v.licence));

    const status = before[0].status === 'repair' ? ['normal', '正常'] : ['repair', '维修中'];
    const edited = rows.map((r) => [...r]);
    edited[0][at('车辆状态')] = status[1];
    const added = header.map((h) => (h === '车牌号' ? '沪A9Z001' : h === '车辆状态' ? '正常' : null));
    const file = await xlsxOf([header, ...edited, added]);

    const preview = await check(hd, file);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      success: true,
      total: before.length + 1,
      invalid: 0,
      rows: [],
      created: 1,
      updated: 1,
      unchanged: before.length - 1,
    });
    expect(preview.body.plan[0]).toEqual({
      row: 2,
      action: 'update',
      key: { fields: ['licence'], value: before[0].licence },
      changed: ['status'],
    });
    expect(preview.body.plan[1]).toEqual({ row: 3, action: 'unchanged', key: { fields: ['licence'], value: before[1].licence } });
    expect(preview.body.plan[before.length]).toEqual({ row: before.length + 2, action: 'create' });
    // A preview writes nothing.
    expect(await shanghai(hd)).toEqual(before);

    const done = await apply(hd, file);
    expect(done).toMatchObject({
      status: 201,
      body: {
        success: true,
        total: before.length + 1,
        created: 1,
        updated: 1,
        unchanged: before.length - 1,
        message: `导入完成：新增1条，更新1条，${before.length - 1}条无变化`,
      },
    });
    const after = await shanghai(hd);
    expect(after.map((v) => v.licence)).toEqual([...before.map((v) => v.licence), '沪A9Z001'].sort());
    const byId = new Map(after.map((v) => [v.id, v]));
    expect(byId.get(before[0].id)).toMatchObject({ status: status[0], vin: before[0].vin });
    expect(byId.get(before[0].id)!.updatedAt).not.toBe(before[0].updatedAt);
    // Unchanged rows are not written: their update time stays.
    for (const v of before.slice(1)) expect(byId.get(v.id)).toEqual(v);

    // The same file again: every row is now what is stored (the update time it carries is the server's, and moved on).
    const again = await check(hd, file);
    expect(again.body).toMatchObject({ success: true, created: 0, updated: 0, unchanged: before.length + 1 });
    const en = await apply(hd, file);
    expect(en.body).toMatchObject({ created: 0, updated: 0, unchanged: before.length + 1 });
    expect(await shanghai(hd)).toEqual(after);
  });

  it('refuses rows it cannot decide, each in words, and stores nothing of the file', async () => {
    const hd = await s.memberToken('HD', 'orgUser', ['vehicle-export', 'vehicle-import']);
    const before = await shanghai(hd);
    const { header, rows, at } = await exported(hd);
    // 深圳车队 is 华南's: its vehicles are outside a 华东 member's scope.
    const sz = (await s.call(admin, 'POST', '/api/vehicle/vehicle/query', { criteria: { orgId: await s.orgId('HN-SZ') }, pageSize: 5 }))
      .body.data as Vehicle[];
    const foreign = sz.find((v) => v.vin)!;
    expect(foreign).toBeDefined();

    expect(before.length).toBeGreaterThan(4);
    const edited = rows.map((r) => [...r]);
    edited[0][at('车辆状态')] = before[0].status === 'repair' ? '正常' : '维修中'; // a valid change, refused with the rest
    // The third vehicle's licence with the second's VIN (the second is left out of the file): two records, which one is meant?
    edited[2][at('车架号（VIN）')] = before[1].vin;
    edited[2][at('终端编号')] = null;
    edited[3][at('创建时间')] = '2001-01-01 00:00:00';
    const outside = header.map((h) => (h === '车牌号' ? '沪A9Z002' : h === '车架号（VIN）' ? foreign.vin : null));
    // Rows 2…n: every vehicle but the second; then the fifth again, and a row naming the other organisation's VIN.
    const file = await xlsxOf([header, edited[0], ...edited.slice(2), [...edited[4]], outside]);

    const preview = await check(hd, file);
    const n = rows.length;
    expect(preview.body).toMatchObject({ success: false, invalid: 4, total: n + 1 });
    expect(messagesOf(preview.body)).toEqual({
      3: ['车架号（VIN）属于另一条已有记录，与按车牌号找到的记录不同'],
      4: ['创建时间是只读列，不能通过导入修改'],
      [n + 1]: ['车牌号与第5行重复'],
      [n + 2]: ['车架号（VIN）已存在，且不在您的管理范围内，不能导入或更新'],
    });
    // The refusals say nothing of the other organisation's vehicle, in any language.
    const en = await check(hd, file, 'en-US');
    expect(messagesOf(en.body)[n + 2]).toEqual(['VIN already exists outside your organisations; it cannot be imported or updated']);
    expect(JSON.stringify(en.body)).not.toContain(foreign.licence);

    const refused = await apply(hd, file);
    expect(refused).toMatchObject({ status: 400, body: { code: 'sheet.invalidRows', invalid: 4 } });
    expect(await shanghai(hd)).toEqual(before);
    const theirs = await s.call(admin, 'GET', `/api/vehicle/vehicle/queryById/${foreign.id}`);
    expect(theirs.body).toMatchObject({ licence: foreign.licence, updatedAt: foreign.updatedAt });
  });
});
