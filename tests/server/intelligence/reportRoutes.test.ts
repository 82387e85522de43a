import { BACKENDS } from '../../helpers/testServer';
import { MONITOR_FIELDS, monitorItemsOf } from '../../../schemas/kit/monitor';
import { at, DAY, EXPECTED, scriptedDay } from './days';
import { derivedScriptedDay, startDeriveHarness, type DeriveHarness } from './harness';

const iso = (ms: number) => new Date(ms).toISOString();
const dayBegin = iso(at('00:00'));
const dayEnd = iso(at('23:59'));

describe.each(BACKENDS)('report routes over a derived day on %s', (backend) => {
  let h: DeriveHarness;
  let admin: string;
  let vehicleId: number;
  /** A member of the Shenzhen team: the Shanghai vehicle is outside its scope. */
  let outsider: string;
  beforeAll(async () => {
    h = await startDeriveHarness(backend);
    ({ admin, outsider, vehicleId } = await derivedScriptedDay(h));
  });
  afterAll(() => h.close());

  it('pages the trips of a vehicle and splits the day into runs and stops', async () => {
    const page = await h.s.call(admin, 'POST', `/api/vehicle/trip/vehicle-${vehicleId}`, {
      criteria: { begin: dayBegin, end: dayEnd },
      order: { property: 'begin', direction: 'ASC' },
      pageIndex: 1,
      pageSize: 3,
    });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 4, pageIndex: 1, pageSize: 3 });
    expect(page.body.data.map((t: { begin: string }) => t.begin)).toEqual(EXPECTED.trips.slice(0, 3).map((t) => iso(t.begin)));
    expect(page.body.data[0]).toMatchObject({
      vehicleId,
      durationS: 63 * 60,
      idleS: 180,
      maxSpeed: 36,
      start: { time: iso(at('08:00')) },
      stop: { time: iso(at('09:03')) },
    });
    expect(page.body.data[0].distanceKm).toBeCloseTo(36, 1);

    const runs = await h.s.call(admin, 'POST', `/api/vehicle/trip/vehicle-${vehicleId}/tripRunAndStop`, {
      begin: iso(at('07:00')),
      end: iso(at('11:00')),
    });
    expect(runs.body.segments.map((s: { kind: string; begin: string }) => [s.kind, s.begin])).toEqual([
      ['stop', iso(at('00:00'))],
      ['run', iso(at('08:00'))],
      ['stop', iso(at('09:03'))],
      ['run', iso(at('10:03'))],
      ['stop', iso(at('10:43'))],
    ]);
    expect(runs.body.segments[2]).toMatchObject({ durationS: 3600 });
  });

  it('answers the last trip before a time with its track, and a range with its summary', async () => {
    const single = await h.s.call(admin, 'POST', '/api/vehicle/trip/single', { vehicleId, end: iso(at('12:00')) });
    expect(single.body.trip).toMatchObject({ begin: iso(at('10:03')), end: iso(at('10:43')) });
    expect(single.body.points[0][0]).toBe(iso(at('10:03')));
    expect(single.body.points.at(-1)[0]).toBe(iso(at('10:43')));
    const none = await h.s.call(admin, 'POST', '/api/vehicle/trip/single', { vehicleId, end: iso(at('07:00')) });
    expect(none.status).toBe(404);

    const range = await h.s.call(admin, 'POST', '/api/vehicle/trip/singleRange', { vehicleId, begin: dayBegin, end: dayEnd });
    expect(range.body.summary).toMatchObject({ tripCount: 4, idleS: 180, maxSpeed: 36 });
    expect(range.body.summary.distanceKm).toBeCloseTo(96, 1);
  });

  it('replays every point in device-time order, streamed, or simplified to maxPoints keeping the stops', async () => {
    const raw = await h.s.call(admin, 'POST', '/api/vehicle/track/replay', { vehicleId, begin: dayBegin, end: dayEnd });
    expect(raw.status).toBe(200);
    const all = scriptedDay().filter((r) => Number(r.time) <= at('23:59'));
    expect(raw.body.points).toHaveLength(all.length);
    expect(raw.body.points.map((p: [string]) => p[0])).toEqual(all.map((r) => iso(Number(r.time))));
    expect(raw.body.points[0]).toEqual([iso(at('00:00')), all[0].latitude, all[0].longitude, 0, 0, false]);
    expect(raw.body.stops).toHaveLength(5);
    expect(raw.body.summary.distanceKm).toBeCloseTo(96, 1);

    const simple = await h.s.call(admin, 'POST', '/api/vehicle/track/replay', { vehicleId, begin: dayBegin, end: dayEnd, maxPoints: 40 });
    expect(simple.body.points.length).toBeLessThanOrEqual(40);
    const times = simple.body.points.map((p: [string]) => p[0]);
    expect([...times].sort()).toEqual(times);
    // Where it set off and where it came to a standstill stay in the simplified line.
    for (const hhmm of ['08:00', '09:03', '10:03', '10:43', '13:00', '13:30', '14:00', '14:30']) expect(times).toContain(iso(at(hhmm)));
    expect(simple.body.summary).toEqual(raw.body.summary);
  });

  it('sums the ledger by day, month, vehicle, top seven and in total', async () => {
    const criteria = { begin: DAY, end: DAY };
    const byDay = await h.s.call(admin, 'POST', '/api/vehicle/dailyDrivingBehavior/mileageAndFuelByDay', { criteria });
    expect(byDay.body).toHaveLength(1);
    expect(byDay.body[0]).toMatchObject({ date: DAY, tripCount: 4, refuelL: 40, drainL: 30, idleS: 180 });
    const byMonth = await h.s.call(admin, 'POST', '/api/vehicle/dailyDrivingBehavior/mileageAndFuelByMonth', {
      criteria: { begin: '2026-11-01', end: '2026-11-30', vehicleId },
    });
    expect(byMonth.body).toEqual(
      [{ ...byDay.body[0], date: undefined, month: '2026-11', vehicleId, licence: expect.any(String) }].map(({ date: _d, ...r }) => r),
    );
    const top = await h.s.call(admin, 'POST', '/api/vehicle/dailyDrivingBehavior/Top7', { criteria: { ...criteria, by: 'fuel' } });
    expect(top.body[0]).toMatchObject({ vehicleId, tripCount: 4 });
    const perVehicle = await h.s.call(admin, 'POST', '/api/vehicle/dailyDrivingBehavior/mileageAndFuel', { criteria });
    expect(perVehicle.body).toHaveLength(1);
    const total = await h.s.call(admin, 'POST', '/api/vehicle/dailyDrivingBehavior/total', { criteria });
    expect(total.body.mileageKm).toBeCloseTo(96, 1);
    expect(total.body.cost).toBeCloseTo(total.body.fuelL * 7.19, 1);
    const month = await h.s.call(admin, 'GET', `/api/vehicle/monthUsageReport/monthMileageAndFuel/${vehicleId}`);
    expect(month.status).toBe(200);
    const home = await h.s.call(admin, 'GET', '/api/vehicle/dailyDrivingBehavior/home');
    expect(Object.keys(home.body)).toEqual(['today', 'yesterday', 'month', 'lastMonth', 'last7Days']);
  });

  it('counts the vehicles by state and lists them for the live map', async () => {
    const counts = await h.s.call(admin, 'POST', '/api/vehicle/index/vehicleCount', {});
    expect(counts.body).toMatchObject({ total: 24, online: 1, offline: 23, moving: 0, parked: 1 });
    const map = await h.s.call(admin, 'POST', '/api/vehicle/monitor/query', { criteria: { online: true } });
    expect(map.body.total).toBe(1);
    expect(map.body.data[0]).toMatchObject({ vehicleId, online: true, moving: false, acc: false, time: iso(at('23:55')) });
    const all = await h.s.call(admin, 'POST', '/api/vehicle/monitor/query', {});
    expect(all.body.total).toBe(24);
    // The compact form holds the same items, field by field, in the same order.
    const compact = await h.s.call(admin, 'POST', '/api/vehicle/monitor/query', { format: 'columns' });
    expect(compact.status).toBe(200);
    expect(compact.body.total).toBe(24);
    expect(compact.body.data).toBeUndefined();
    expect(Object.keys(compact.body.columns).sort()).toEqual([...MONITOR_FIELDS].sort());
    expect(monitorItemsOf(compact.body.columns)).toEqual(all.body.data);
    const onlineOnly = await h.s.call(admin, 'POST', '/api/vehicle/monitor/query', { criteria: { online: true }, format: 'columns' });
    expect(onlineOnly.body.columns.vehicleId).toEqual([vehicleId]);
    const none = await h.s.call(admin, 'POST', '/api/vehicle/monitor/query', { criteria: { keyword: 'no such plate' }, format: 'columns' });
    expect(none.body).toEqual({ columns: Object.fromEntries(MONITOR_FIELDS.map((f) => [f, []])), total: 0, asOf: expect.any(String) });
    const bad = await h.s.call(admin, 'POST', '/api/vehicle/monitor/query', { format: 'csv' });
    expect(bad.status).toBe(400);
    const dis = await h.s.call(admin, 'POST', '/api/vehicle/index/vehicleDis', {});
    expect(dis.body.byOnline).toEqual([
      { key: 'online', name: 'online', count: 1 },
      { key: 'offline', name: 'offline', count: 23 },
    ]);
    const detail = await h.s.call(admin, 'GET', `/api/vehicle/vehicleReport/${vehicleId}`);
    expect(detail.body.lastTrip).toMatchObject({ begin: iso(at('14:00')) });
    expect(detail.body.state).toMatchObject({ vehicleId, online: true });
    const money = await h.s.call(admin, 'POST', '/api/vehicle/index/vehicleMoney', {
      criteria: { begin: '2026-11-01', end: '2026-11-30' },
    });
    const total = await h.s.call(admin, 'POST', '/api/vehicle/dailyDrivingBehavior/total', { criteria: { begin: DAY, end: DAY } });
    expect(total.body.cost).toBeGreaterThan(0);
    expect(money.body.byDay).toEqual([{ date: DAY, cost: total.body.cost, fuelL: total.body.fuelL }]);
    expect(money.body.byMonth).toEqual([{ month: '2026-11', cost: total.body.cost, fuelL: total.body.fuelL }]);
  });

  it('keeps other organisations’ vehicles out of reach', async () => {
    const trips = await h.s.call(outsider, 'POST', `/api/vehicle/trip/vehicle-${vehicleId}`, {
      criteria: { begin: dayBegin, end: dayEnd },
    });
    expect(trips.status).toBe(404);
    const replay = await h.s.call(outsider, 'POST', '/api/vehicle/track/replay', { vehicleId, begin: dayBegin, end: dayEnd });
    expect(replay.status).toBe(404);
    const total = await h.s.call(outsider, 'POST', '/api/vehicle/dailyDrivingBehavior/total', { criteria: { begin: DAY, end: DAY } });
    expect(total.body).toMatchObject({ mileageKm: 0, tripCount: 0 });
    const counts = await h.s.call(outsider, 'POST', '/api/vehicle/index/vehicleCount', {});
    expect(counts.body).toMatchObject({ total: 8, online: 0 });
    const setting = await h.s.call(outsider, 'PUT', `/api/vehicle/tripSetting/${await h.s.orgId('HN-SZ')}`, { stopMinutes: 10 });
    expect(setting.status).toBe(403);
  });

  it('refuses bad ranges with a localised message, and sets the stop minutes per organisation', async () => {
    const zh = await h.s.call(admin, 'POST', '/api/vehicle/track/replay', { vehicleId, begin: dayEnd, end: dayBegin });
    expect(zh).toMatchObject({ status: 400, body: { message: '结束时间必须晚于开始时间' } });
    const en = await h.s.call(
      admin,
      'POST',
      '/api/vehicle/dailyDrivingBehavior/total',
      { criteria: { begin: '2024-01-01', end: '2026-01-01' } },
      'en-US',
    );
    expect(en).toMatchObject({ status: 400, body: { message: 'A report covers at most 366 days' } });
    const ja = await h.s.call(admin, 'POST', '/api/vehicle/track/replay', { vehicleId, begin: 'yesterday', end: dayEnd }, 'ja-JP');
    expect(ja.status).toBe(400);
    const bad = await h.s.call(admin, 'PUT', `/api/vehicle/tripSetting/${await h.s.orgId('HD')}`, { stopMinutes: 0 }, 'en-US');
    expect(bad.status).toBe(400);

    const hd = await h.s.orgId('HD');
    const sh = await h.s.orgId('HD-SH');
    expect((await h.s.call(admin, 'GET', `/api/vehicle/tripSetting/${sh}`)).body).toEqual({
      orgId: sh,
      stopMinutes: 5,
      region: null,
      inheritedFrom: null,
    });
    const put = await h.s.call(admin, 'PUT', `/api/vehicle/tripSetting/${hd}`, { stopMinutes: 45 });
    expect(put.body).toEqual({ orgId: hd, stopMinutes: 45, region: null, inheritedFrom: null });
    expect((await h.s.call(admin, 'GET', `/api/vehicle/tripSetting/${sh}`)).body).toEqual({
      orgId: sh,
      stopMinutes: 45,
      region: null,
      inheritedFrom: hd,
    });
    // Rebuilt with a 45-minute stop, the 30-minute stop at 13:30 no longer ends a trip.
    await h.derivation.pipeline.rebuild(vehicleId, { from: at('00:00'), to: at('23:59') });
    const page = await h.s.call(admin, 'POST', `/api/vehicle/trip/vehicle-${vehicleId}`, { criteria: { begin: dayBegin, end: dayEnd } });
    expect(page.body.total).toBe(3);
    expect(page.body.data[0]).toMatchObject({ begin: iso(at('13:00')), end: iso(at('14:30')) });
  });
});
