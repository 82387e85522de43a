/**
 * The true cost of a vehicle: a scripted day through the real gateway gives the ledger's fuel cost;
 * a done work order and entered costs add maintenance and other costs; the cost summary's totals,
 * cost per km and per day match the sums worked out by hand, and the dashboard's money includes them.
 */

import { BACKENDS } from '../../helpers/testServer';
import { DAY } from '../intelligence/days';
import { derivedScriptedDay, startDeriveHarness, type DeriveHarness } from '../intelligence/harness';

const NEXT = '2026-11-21';

describe.each(BACKENDS)('cost summary on %s', (backend) => {
  let h: DeriveHarness;
  let admin: string;
  let outsider: string;
  let vehicleId: number;
  let fuel: number;
  let km: number;

  beforeAll(async () => {
    h = await startDeriveHarness(backend);
    ({ admin, outsider, vehicleId } = await derivedScriptedDay(h));
    const ledger = await h.s.call(admin, 'POST', '/api/vehicle/dailyDrivingBehavior/total', {
      criteria: { begin: DAY, end: NEXT, vehicleId },
    });
    fuel = ledger.body.cost;
    km = ledger.body.mileageKm;
    const created = await Promise.all([
      h.s.call(admin, 'POST', '/api/vehicle/workOrder', {
        title: '保养',
        vehicleId,
        status: 'done',
        serviceDate: DAY,
        partsCost: 300,
        labourCost: 200,
      }),
      h.s.call(admin, 'POST', '/api/vehicle/workOrder', {
        title: '取消的工单',
        vehicleId,
        status: 'cancelled',
        serviceDate: DAY,
        cost: 999,
      }),
      h.s.call(admin, 'POST', '/api/vehicle/vehicleCost', { vehicleId, day: DAY, kind: 'toll', amount: 45.5 }),
      h.s.call(admin, 'POST', '/api/vehicle/vehicleCost', { vehicleId, day: NEXT, kind: 'insurance', amount: 1200 }),
    ]);
    expect(created.map((r) => r.status)).toEqual([201, 201, 201, 201]);
  }, 300_000);
  afterAll(() => h?.close());

  it('sums fuel, maintenance and other costs with cost per km and per day, as worked out by hand', async () => {
    expect(fuel).toBeGreaterThan(0);
    expect(km).toBe(96);
    const r = await h.s.call(admin, 'POST', '/api/vehicle/cost/summary', { criteria: { begin: DAY, end: NEXT, vehicleId, by: 'vehicle' } });
    expect(r.status).toBe(200);
    const total = Math.round((fuel + 500 + 45.5 + 1200) * 100) / 100;
    const expected = {
      fuel,
      maintenance: 500,
      other: 1245.5,
      toll: 45.5,
      insurance: 1200,
      fine: 0,
      tyre: 0,
      parking: 0,
      otherKind: 0,
      total,
      mileageKm: 96,
      perKm: Math.round((total / 96) * 1000) / 1000,
      perDay: Math.round((total / 2) * 100) / 100,
    };
    expect(r.body.totals).toEqual(expected);
    expect(r.body.days).toBe(2);
    expect(r.body.rows).toHaveLength(1);
    expect(r.body.rows[0]).toMatchObject({ key: String(vehicleId), vehicles: 1, ...expected });

    const byDay = await h.s.call(admin, 'POST', '/api/vehicle/cost/summary', { criteria: { begin: DAY, end: NEXT, vehicleId, by: 'day' } });
    expect(
      byDay.body.rows.map((x: { key: string; total: number; perDay: number; perKm: number | null }) => [x.key, x.total, x.perDay, x.perKm]),
    ).toEqual([
      [
        DAY,
        Math.round((fuel + 545.5) * 100) / 100,
        Math.round((fuel + 545.5) * 100) / 100,
        Math.round(((fuel + 545.5) / 96) * 1000) / 1000,
      ],
      [NEXT, 1200, 1200, null],
    ]);
    const byOrg = await h.s.call(admin, 'POST', '/api/vehicle/cost/summary', { criteria: { begin: DAY, end: NEXT, vehicleId, by: 'org' } });
    expect(byOrg.body.rows).toHaveLength(1);
    expect(byOrg.body.rows[0].total).toBe(total);
    const byModel = await h.s.call(admin, 'POST', '/api/vehicle/cost/summary', {
      criteria: { begin: DAY, end: NEXT, vehicleId, by: 'model' },
    });
    expect(byModel.body.rows[0].total).toBe(total);
  });

  it("puts every cost in the dashboard's money figure", async () => {
    const money = await h.s.call(admin, 'POST', '/api/vehicle/index/vehicleMoney', { criteria: { begin: DAY, end: NEXT } });
    expect(money.status).toBe(200);
    const fleetFuel = await h.s.call(admin, 'POST', '/api/vehicle/dailyDrivingBehavior/total', { criteria: { begin: DAY, end: DAY } });
    expect(money.body.byDay).toEqual([
      { date: DAY, cost: Math.round((fleetFuel.body.cost + 545.5) * 100) / 100, fuelL: fleetFuel.body.fuelL },
      { date: NEXT, cost: 1200, fuelL: 0 },
    ]);
  });

  it('shows another organisation nothing of it, and refuses a range ending before it begins', async () => {
    const r = await h.s.call(outsider, 'POST', '/api/vehicle/cost/summary', { criteria: { begin: DAY, end: NEXT, vehicleId } });
    expect(r.status).toBe(404);
    const all = await h.s.call(outsider, 'POST', '/api/vehicle/cost/summary', { criteria: { begin: DAY, end: NEXT } });
    expect(all.body.rows.map((x: { key: string }) => x.key)).not.toContain(String(vehicleId));
    const bad = await h.s.call(admin, 'POST', '/api/vehicle/cost/summary', { criteria: { begin: NEXT, end: DAY } });
    expect(bad.status).toBe(400);
    const unknown = await h.s.call(
      admin,
      'POST',
      '/api/vehicle/cost/summary',
      { criteria: { begin: DAY, end: NEXT, by: 'week' } },
      'en-US',
    );
    expect(unknown.status).toBe(400);
  });
});
