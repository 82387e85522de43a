import ExcelJS from 'exceljs';
import { ADMIN_PASSWORD, BACKENDS } from '../../helpers/testServer';
import { playLegs } from '../../../server/simulator/dayScript';
import { DAY, LEGS, MIDNIGHT, START, scriptedDay } from './days';
import { demoTerminal, startDeriveHarness, type DeriveHarness } from './harness';

const ROUTE = '/api/vehicle/dailyDrivingBehavior/mileageAndFuelByDayAndVehicle';

describe.each(BACKENDS)('the daily driving report over a derived day on %s', (backend) => {
  let h: DeriveHarness;
  let admin: string;
  let vehicleId: number;
  beforeAll(async () => {
    h = await startDeriveHarness(backend);
    admin = await h.s.login('admin', ADMIN_PASSWORD);
    const phone = demoTerminal(1);
    await h.send(await h.terminal(phone), scriptedDay(), 'batch');
    // Another vehicle drives the same day the day before, for the report's order.
    await h.send(await h.terminal(demoTerminal(2)), playLegs({ ...START, time: MIDNIGHT - 86_400_000 }, LEGS), 'batch');
    await h.derived();
    vehicleId = await h.vehicleOf(phone);
  });
  afterAll(() => h.close());

  it('answers one row per day and vehicle, and totals equal to the ledger total', async () => {
    const criteria = { begin: DAY, end: DAY };
    const r = await h.s.call(admin, 'POST', ROUTE, { criteria });
    expect(r.status).toBe(200);
    expect(r.body.rows).toHaveLength(1);
    expect(r.body.rows[0]).toMatchObject({ date: DAY, vehicleId, tripCount: 4, refuelL: 40, drainL: 30, idleS: 180 });
    const total = await h.s.call(admin, 'POST', '/api/vehicle/dailyDrivingBehavior/total', { criteria });
    expect(r.body.total).toEqual(total.body);
    // Another vehicle's filter and an empty range answer nothing, with zero totals.
    const other = await h.s.call(admin, 'POST', ROUTE, { criteria: { begin: '2026-01-01', end: '2026-01-31' } });
    expect(other.body.rows).toEqual([]);
    expect(other.body.total.mileageKm).toBe(0);
  });

  it('lists the newest day first, in the page and the export alike', async () => {
    const criteria = { begin: '2026-11-19', end: DAY };
    const r = await h.s.call(admin, 'POST', ROUTE, { criteria });
    expect(r.body.rows.map((row: { date: string }) => row.date)).toEqual([DAY, '2026-11-19']);
    const res = await h.s.app.inject({
      method: 'POST',
      url: `${ROUTE}/export`,
      headers: { authorization: `Bearer ${admin}` },
      payload: { criteria },
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect([wb.worksheets[0].getRow(2).getCell(1).value, wb.worksheets[0].getRow(3).getCell(1).value]).toEqual([DAY, '2026-11-19']);
  });

  it('exports exactly the rows and totals, with the columns in the caller’s language', async () => {
    const res = await h.s.app.inject({
      method: 'POST',
      url: `${ROUTE}/export`,
      headers: { authorization: `Bearer ${admin}`, 'accept-language': 'en-US' },
      payload: { criteria: { begin: DAY, end: DAY } },
    });
    expect(res.statusCode).toBe(200);
    // Named by the report and its range.
    expect(res.headers['content-disposition']).toContain(`Daily%20driving%20report%20${DAY}_${DAY}`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    const values = (n: number) => (ws.getRow(n).values as unknown[]).slice(1);
    expect(values(1)).toEqual([
      'Date',
      'Licence plate',
      'Mileage (km)',
      'Fuel used (L)',
      'Refuelled (L)',
      'Suspected drain (L)',
      'Driving (h)',
      'Idling (h)',
      'Trips',
      'Top speed (km/h)',
      'Cost (CNY)',
    ]);
    const json = (await h.s.call(admin, 'POST', ROUTE, { criteria: { begin: DAY, end: DAY } })).body;
    expect(values(2).slice(0, 3)).toEqual([DAY, json.rows[0].licence, json.rows[0].mileageKm]);
    expect(values(2)[7]).toBe(Math.round((180 / 3600) * 100) / 100);
    expect(values(3)[0]).toBe('Total');
    expect(values(3)[2]).toBe(json.total.mileageKm);
    expect(ws.rowCount).toBe(3);
  });

  it('lists the day’s refuel and suspected drain with their amounts, and none outside the range', async () => {
    const r = await h.s.call(admin, 'POST', '/api/vehicle/dailyDrivingBehavior/fuelEvents', { criteria: { begin: DAY, end: DAY } });
    expect(r.status).toBe(200);
    expect(
      r.body.map((e: { kind: string; amountL: number; vehicleId: number }) => [e.kind, Math.round(e.amountL), e.vehicleId]).sort(),
    ).toEqual([
      ['drain', 30, vehicleId],
      ['refuel', 40, vehicleId],
    ]);
    const none = await h.s.call(admin, 'POST', '/api/vehicle/dailyDrivingBehavior/fuelEvents', {
      criteria: { begin: '2026-01-01', end: '2026-01-02' },
    });
    expect(none.body).toEqual([]);
  });

  it('refuses a range whose end comes before its begin, in the caller’s language', async () => {
    const r = await h.s.call(admin, 'POST', ROUTE, { criteria: { begin: DAY, end: '2020-01-01' } }, 'zh-CN');
    expect(r.status).toBe(400);
    const x = await h.s.call(admin, 'POST', `${ROUTE}/export`, { criteria: { begin: 'yesterday', end: DAY } });
    expect(x.status).toBe(400);
  });
});
