import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { mergeIntervals } from '../../../server/intelligence/alarms/merge';
import { replaceAlarms } from '../../../server/intelligence/alarms/store';
import type { AlarmInterval } from '../../../server/intelligence/alarms/types';
import { ADMIN_PASSWORD, BACKENDS, startTestServer, type TestServer } from '../../helpers/testServer';

const T0 = Date.parse('2026-11-20T02:00:00Z');
const min = 60_000;
const interval = (type: AlarmInterval['type'], beginMin: number, endMin: number | null, value: number | null = null): AlarmInterval => ({
  type,
  subject: '',
  begin: T0 + beginMin * min,
  end: endMin === null ? null : T0 + endMin * min,
  firedAt: T0 + beginMin * min,
  latitude: 31.2,
  longitude: 121.5,
  value,
});

describe.each(BACKENDS)('alarm export on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let outsider: string;
  beforeAll(async () => {
    s = await startTestServer(backend);
    admin = await s.login('admin', ADMIN_PASSWORD);
    outsider = await s.memberToken('HN-SZ', 'orgUser');
    const vehicle = (
      await sql<{
        id: number;
      }>`SELECT v.id FROM vehicle v JOIN organisation o ON o.id = v.org_id WHERE o.code = 'HD-SH' ORDER BY v.id LIMIT 1`.execute(
        s.database.db,
      )
    ).rows[0].id;
    await replaceAlarms(
      s.database.db,
      vehicle,
      T0,
      mergeIntervals([interval('OverSpeed', 0, 5, 112), interval('Crash', 10, 10), interval('Fatigue', 30, null)]),
    );
  });
  afterAll(() => s.close());

  const exportRows = async (token: string, body: object, lang = 'en-US') => {
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/vehicle/alarm/export',
      headers: { authorization: `Bearer ${token}`, 'accept-language': lang },
      payload: body,
    });
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    return Array.from({ length: ws.rowCount }, (_, i) => (ws.getRow(i + 1).values as unknown[]).slice(1));
  };

  it('writes the rows the list answers for the same criteria and order, in the caller’s language', async () => {
    const list = await s.call(admin, 'POST', '/api/vehicle/alarm/query', {
      criteria: { category: 'terminal' },
      pageIndex: 1,
      pageSize: 50,
    });
    const rows = await exportRows(admin, { criteria: { category: 'terminal' } });
    expect(rows[0].slice(0, 4)).toEqual(['Start', 'End', 'Vehicle', 'Alarm type']);
    expect(rows.slice(1).map((r) => r[0])).toEqual(list.body.data.map((a: { begin: string }) => a.begin));
    expect(rows.slice(1).map((r) => r[3])).toEqual(['Collision', 'Speeding']);
    expect(rows.slice(1).map((r) => r[2])).toEqual(list.body.data.map((a: { licence: string }) => a.licence));
    expect(rows.slice(1).map((r) => r[6])).toContain(112);
    const zh = await exportRows(admin, { criteria: { type: 'Fatigue' } }, 'zh-CN');
    expect(zh).toHaveLength(2);
    expect(zh[1][3]).toBe('疲劳驾驶');
  });

  it('keeps other organisations’ alarms out, and refuses bad criteria', async () => {
    expect(await exportRows(outsider, {})).toHaveLength(1);
    const bad = await s.call(admin, 'POST', '/api/vehicle/alarm/export', { criteria: { category: 'nonsense' } });
    expect(bad.status).toBe(400);
  });
});
