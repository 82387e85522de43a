import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { type TestServer, useTestServer } from '../../../helpers/testServer';
import { multipartFile, XLSX } from '../../../helpers/multipart';
import { downloadFrom } from '../../../helpers/xlsx';

/**
 * Every xlsx the server writes (entity exports, import templates, report, alarm exports) writes
 * text a spreadsheet would run as a formula with a leading apostrophe, and an import takes it off
 * again (issue 39 #7).
 */
describe('formula-like text in every xlsx written', () => {
  let s: TestServer;
  let admin: string;
  useTestServer('pglite', (server, token) => {
    s = server;
    admin = token;
  });

  /** The rows of a sheet (the first, or the one named) of a file the server answered. */
  const sheetOf = async (method: 'GET' | 'POST', url: string, body?: object, name?: string) => {
    const res = await downloadFrom(s, admin, method, url, body);
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.data as unknown as ArrayBuffer);
    const ws = name ? wb.getWorksheet(name)! : wb.worksheets[0];
    return { data: res.data, rows: Array.from({ length: ws.rowCount }, (_, i) => (ws.getRow(i + 1).values as unknown[]).slice(1)) };
  };

  const FORMULA = '=HYPERLINK("http://example.invalid","x")';
  /**
   * Formula-like text and how it is read back from the file; text that is not stays as it is. XML
   * reads a carriage return as a line feed, in our file as in any other.
   */
  const CASES: Array<[string, string]> = [
    [FORMULA, `'${FORMULA}`],
    ['=1+1', "'=1+1"],
    ['\t=1+1', "'\t=1+1"],
    ['\r=1+1', "'\n=1+1"],
    [' =1+1', "' =1+1"],
    ['\n@SUM(A1)', "'\n@SUM(A1)"],
    ['+86 brand', "'+86 brand"],
    ["'=already", "''=already"],
    ["'quoted", "'quoted"],
    ['a=b-c', 'a=b-c'],
  ];

  it('neutralises entity exports and the template’s lists, and an import of the export stores the originals', async () => {
    for (const [name] of CASES)
      expect((await s.call(admin, 'POST', '/api/vehicle/vehicleBrand', { name: `${name}#`, manufacturer: `${name}co` })).status).toBe(201);
    const exported = await sheetOf('POST', '/api/vehicle/vehicleBrand/export', { criteria: { name: '#' } });
    expect(exported.rows).toHaveLength(CASES.length + 1);
    const header = exported.rows[0] as string[];
    const cells = exported.rows.slice(1).map((r) => [r[header.indexOf('品牌名称')], r[header.indexOf('制造商')]]);
    for (const [, written] of CASES) expect(cells).toContainEqual([`${written}#`, `${written}co`]);

    // The vehicle template's dropdown lists hold brand labels.
    const lists = await sheetOf('GET', '/api/vehicle/vehicle/template', undefined, 'lists');
    expect(lists.rows.flat()).toEqual(expect.arrayContaining(CASES.map(([, written]) => `${written}#`)));

    // The export, imported again, stores exactly what was entered.
    const { payload, headers } = multipartFile('brands.xlsx', exported.data, XLSX);
    await sql`DELETE FROM vehicle_brand WHERE name LIKE '%#'`.execute(s.database.db);
    const r = await s.app.inject({
      method: 'POST',
      url: '/api/vehicle/vehicleBrand/import',
      payload,
      headers: { ...headers, authorization: `Bearer ${admin}` },
    });
    expect(r.statusCode).toBe(201);
    const stored = await s.database.db.selectFrom('vehicle_brand').select(['name', 'manufacturer']).where('name', 'like', '%#').execute();
    const asRead = (name: string) => name.replace(/\r/g, '\n');
    expect(stored.map((b) => [b.name, b.manufacturer]).sort()).toEqual(
      CASES.map(([name]) => [`${asRead(name)}#`, `${asRead(name)}co`]).sort(),
    );
  });

  it('neutralises report and alarm exports: break rules, order schedule, alarms', async () => {
    const db = s.database.db;
    const hd = await s.orgId('HD-SH');
    const vehicle = await db
      .selectFrom('vehicle')
      .select(['id', 'org_id'])
      .where('org_id', '=', hd)
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    const driver = await db.selectFrom('driver').select('id').where('org_id', '=', hd).orderBy('id').limit(1).executeTakeFirstOrThrow();
    await db.updateTable('driver').set({ name: FORMULA }).where('id', '=', driver.id).execute();
    const day = '2026-11-10';
    await sql`INSERT INTO behaviour_day (vehicle_id, day, org_id, harsh_braking, fatigue, speeding_s) VALUES (${vehicle.id}, ${day}, ${hd}, 2, 1, 0)`.execute(
      db,
    );
    expect(
      (
        await s.call(admin, 'POST', '/api/vehicle/schedule', {
          orgId: vehicle.org_id,
          driverId: driver.id,
          vehicleId: vehicle.id,
          workDate: day,
          shift: 'morning',
          route: '\t=1+1',
        })
      ).status,
    ).toBe(201);
    await sql`INSERT INTO alarm (vehicle_id, type, category, level, begin_time, fired_at, handled, note) VALUES
      (${vehicle.id}, 'OverSpeed', 'terminal', 'medium', '2026-11-10T02:00:00Z', '2026-11-10T02:00:00Z', true, '=1+1')`.execute(db);
    const criteria = { criteria: { begin: day, end: day, vehicleId: vehicle.id } };

    const breaks = (await sheetOf('POST', '/api/vehicle/team/breakRules/export', criteria)).rows;
    expect(breaks[1][1]).toBe(`'${FORMULA}`);
    const schedule = (await sheetOf('POST', '/api/vehicle/team/orderSchedule/export', criteria)).rows;
    expect(schedule[1].slice(1, 5)).toEqual([`'${FORMULA}`, '早班', expect.any(String), "'\t=1+1"]);
    const alarms = (await sheetOf('POST', '/api/vehicle/alarm/export', { criteria: { vehicleId: vehicle.id } })).rows;
    const note = (alarms[0] as string[]).indexOf('处理意见');
    expect(alarms.slice(1).map((r) => r[note])).toContain("'=1+1");
  });
});
