/**
 * Fuel card transactions imported from a card issuer's statement: a row naming a card the caller
 * has not is refused with a localised message and nothing of the file is stored; the same file with
 * known cards stores every row, pending a match.
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
  const upload = async (url: string, file: Buffer, lang?: string) => {
    const { payload, headers } = multipartFile('statement.xlsx', file, XLSX);
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
});
