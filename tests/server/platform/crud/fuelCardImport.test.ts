/**
 * Fuel card transactions imported from a card issuer's statement: a row naming a card the caller
 * has not is refused with a localised message and nothing of the file is stored; the same file with
 * known cards stores every row, pending a match. A statement may be a CSV (UTF-8 with or without its
 * byte order mark, or GB18030 as Excel writes it on a Chinese Windows), read by the same rules.
 */

import { BACKENDS, type TestServer, useTestServer } from '../../../helpers/testServer';
import { multipartFile, XLSX } from '../../../helpers/multipart';
import { xlsxOf } from '../../../helpers/xlsx';

describe.each(BACKENDS)('fuel card statement import on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });
  const upload = async (url: string, file: Buffer, lang?: string, name = 'statement.xlsx') => {
    const { payload, headers } = multipartFile(name, file, name.endsWith('.csv') ? 'text/csv' : XLSX);
    const res = await s.app.inject({
      method: 'POST',
      url,
      payload,
      headers: { ...headers, authorization: `Bearer ${admin}`, ...(lang ? { 'accept-language': lang } : {}) },
    });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  };

  it('refuses a statement with an unknown card in the caller language and stores nothing; with known cards stores each row pending', async () => {
    const vehicle = (await s.call(admin, 'POST', '/api/vehicle/vehicle/query', { pageSize: 1 })).body.data[0];
    expect((await s.call(admin, 'POST', '/api/vehicle/fuelCard', { cardNo: '9000 1234 0000 2222', vehicleId: vehicle.id })).status).toBe(
      201,
    );
    // The card is named by its number, under the card number's label.
    const header = ['卡号', '交易时间', '加油站', '加油量（升）', '金额（元）'];
    const rows = [
      ['9000123400002222', '2026-11-20T02:10:00.000Z', '中石化张江站', 60, 450],
      ['9000999999999999', '2026-11-20T05:00:00.000Z', '中石油龙阳站', 40, 300],
    ];
    const bad = await xlsxOf([header, ...rows]);
    const zh = await upload('/api/vehicle/fuelCardTransaction/import', bad);
    expect(zh.status).toBe(400);
    expect(zh.body.rows).toEqual([
      {
        row: 3,
        errors: expect.arrayContaining([expect.objectContaining({ field: 'cardId', message: '加油卡“9000999999999999”不存在或无权使用' })]),
      },
    ]);
    const en = await upload('/api/vehicle/fuelCardTransaction/importValidate', bad, 'en-US');
    expect(en.body.rows[0].errors[0].message).toBe('Fuel card "9000999999999999" does not exist or is not available to you');
    const listed = await s.call(admin, 'POST', '/api/vehicle/fuelCardTransaction/query', {});
    expect(listed.body.total).toBe(0);

    const good = await upload('/api/vehicle/fuelCardTransaction/import', await xlsxOf([header, rows[0]]));
    expect(good.status).toBe(201);
    const stored = await s.call(admin, 'POST', '/api/vehicle/fuelCardTransaction/query', {});
    expect(stored.body.data).toEqual([
      expect.objectContaining({ cardNo: '9000123400002222', litres: 60, amount: 450, station: '中石化张江站', matchStatus: 'pending' }),
    ]);
  });

  it('reads a CSV statement by the same rules, in UTF-8 or GB18030, and refuses an unknown card in it', async () => {
    const vehicle = (await s.call(admin, 'POST', '/api/vehicle/vehicle/query', { pageSize: 1 })).body.data[0];
    expect((await s.call(admin, 'POST', '/api/vehicle/fuelCard', { cardNo: '9000 1234 0000 3333', vehicleId: vehicle.id })).status).toBe(
      201,
    );
    const csv = (lines: string[]) => lines.join('\r\n') + '\r\n';
    const header = '卡号,交易时间,加油站,加油量（升）,金额（元）';
    // A quoted station with a comma in it, and a byte order mark before the header.
    const utf8 = Buffer.from('\ufeff' + csv([header, '9000123400003333,2026-11-21 10:10,"中石化张江站, 2号枪",58.5,438.75']), 'utf8');
    const ok = await upload('/api/vehicle/fuelCardTransaction/import', utf8, undefined, 'statement.csv');
    expect(ok.status).toBe(201);
    // Excel's CSV on a Chinese Windows: GB18030 (here its GBK subset, written byte by byte).
    // The bytes of `${header}\r\n9000123400003333,2026-11-22 09:00,中石油龙阳站,40,300\r\n` in GB18030.
    const gbk = Buffer.from(
      'bfa8bac52cbdbbd2d7cab1bce42cbcd3d3cdd5be2cbcd3d3cdc1bfa3a8c9fda3a92cbdf0b6eea3a8d4aaa3a90d0a393030303132333430303030333333332c323032362d31312d32322030393a30302cd6d0caafd3cdc1fad1f4d5be2c34302c3330300d0a',
      'hex',
    );
    expect((await upload('/api/vehicle/fuelCardTransaction/import', gbk, undefined, 'statement.csv')).status).toBe(201);
    const stored = await s.call(admin, 'POST', '/api/vehicle/fuelCardTransaction/query', { criteria: { keyword: '站' }, pageSize: 10 });
    const csvRows = stored.body.data.filter((r: { cardNo: string }) => r.cardNo === '9000123400003333');
    expect(csvRows.map((r: { station: string; litres: number }) => [r.station, r.litres]).sort()).toEqual(
      [
        ['中石化张江站, 2号枪', 58.5],
        ['中石油龙阳站', 40],
      ].sort(),
    );
    // Local time of the fleet (Asia/Shanghai), as an xlsx's text dates are read.
    expect(csvRows.find((r: { litres: number }) => r.litres === 58.5).purchasedAt).toBe('2026-11-21T02:10:00.000Z');
    const unknown = Buffer.from(csv([header, '9000999999990000,2026-11-21 11:00,中石化,10,75']), 'utf8');
    const refused = await upload('/api/vehicle/fuelCardTransaction/import', unknown, 'en-US', 'statement.csv');
    expect(refused.status).toBe(400);
    expect(refused.body.rows[0].errors[0].message).toBe('Fuel card "9000999999990000" does not exist or is not available to you');
    // Binary that is no CSV, and another extension, are refused in the caller's language.
    const txt = await upload('/api/vehicle/fuelCardTransaction/import', utf8, 'en-US', 'statement.txt');
    expect([txt.status, txt.body.message]).toEqual([400, 'Only xlsx or csv files can be uploaded']);
  });
});
