import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { BACKENDS, startTestServer, type TestServer } from '../../helpers/testServer';

/** Local days in the fleet's zone (Asia/Shanghai, UTC+8). */
const D1 = '2026-11-10';
const D2 = '2026-11-11';
/** 02:00 on D2 in Shanghai is still D1 in UTC: the alarm must count for D2. */
const EARLY_D2 = '2026-11-10T18:00:00Z';

describe.each(BACKENDS)('team monitoring routes on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let outsider: string;
  let vehicle: { id: number; licence: string; orgId: number };
  let other: { id: number; licence: string };
  let driverId: number;
  let driverName: string;
  const db = () => s.database.db;
  const criteria = (extra: object = {}) => ({ criteria: { begin: D1, end: D2, ...extra } });

  beforeAll(async () => {
    s = await startTestServer(backend);
    admin = await s.login('admin', 'Admin2026x');
    outsider = await s.memberToken('HN-SZ', 'orgUser');
    const hd = await s.orgId('HD-SH');
    const vs = await db()
      .selectFrom('vehicle')
      .select(['id', 'licence', 'org_id'])
      .where('org_id', '=', hd)
      .orderBy('id')
      .limit(2)
      .execute();
    vehicle = { id: vs[0].id, licence: vs[0].licence, orgId: vs[0].org_id };
    other = { id: vs[1].id, licence: vs[1].licence };
    const d = await db()
      .selectFrom('driver')
      .select(['id', 'name'])
      .where('org_id', '=', hd)
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    driverId = d.id;
    driverName = d.name;
    // D1: two harsh brakings and fatigue on `vehicle`; D2: an OverSpeed alarm only. `other` sped on D1 with nobody scheduled.
    await sql`INSERT INTO behaviour_day (vehicle_id, day, org_id, harsh_braking, fatigue, speeding_s) VALUES
      (${vehicle.id}, ${D1}, ${hd}, 2, 1, 0), (${other.id}, ${D1}, ${hd}, 0, 0, 45)`.execute(db());
    await sql`INSERT INTO alarm (vehicle_id, type, category, level, begin_time, fired_at) VALUES
      (${vehicle.id}, 'OverSpeed', 'terminal', 'medium', ${EARLY_D2}, ${EARLY_D2})`.execute(db());
    await sql`INSERT INTO ledger_day (vehicle_id, day, org_id, mileage_km, driving_s, trip_count, cost) VALUES (${vehicle.id}, ${D1}, ${hd}, 42.5, 3600, 2, 30)`.execute(
      db(),
    );
    await sql`INSERT INTO trip (vehicle_id, begin_time, end_time, duration_s, distance_km, distance_source, idle_s, max_speed, avg_speed, start_latitude, start_longitude, end_latitude, end_longitude)
      VALUES (${vehicle.id}, '2026-11-10T00:30:00Z', '2026-11-10T01:00:00Z', 1800, 20, 'gnss', 0, 60, 40, 31, 121, 31, 121),
             (${vehicle.id}, '2026-11-10T08:00:00Z', '2026-11-10T08:30:00Z', 1800, 22.5, 'gnss', 0, 60, 45, 31, 121, 31, 121)`.execute(
      db(),
    );
    for (const [workDate, shift] of [
      [D1, 'morning'],
      [D2, 'allDay'],
    ]) {
      const r = await s.call(admin, 'POST', '/api/vehicle/schedule', {
        orgId: vehicle.orgId,
        driverId,
        vehicleId: vehicle.id,
        workDate,
        shift,
        route: '外高桥—洋山',
      });
      if (r.status !== 201 && r.status !== 200) throw new Error(JSON.stringify(r.body));
    }
  }, 120_000);
  afterAll(() => s.close());

  /** An export's rows as cell values, in a language and time zone. */
  const sheet = async (url: string, body: object, lang = 'zh-CN') => {
    const res = await s.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${admin}`, 'accept-language': lang, 'x-time-zone': 'Asia/Shanghai' },
      payload: body,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    return Array.from({ length: ws.rowCount }, (_, i) => (ws.getRow(i + 1).values as unknown[]).slice(1));
  };

  it("lists each driver's violations per local day, attributes them through the schedule, and keeps unscheduled days without a driver", async () => {
    const r = await s.call(admin, 'POST', '/api/vehicle/team/breakRules', criteria());
    expect(r.status).toBe(200);
    expect(r.body.truncated).toBe(false);
    expect(r.body.rows).toEqual([
      {
        date: D2,
        driverId,
        driverName,
        shifts: ['allDay'],
        vehicleId: vehicle.id,
        licence: vehicle.licence,
        overSpeed: 1,
        speedingS: 0,
        fatigue: 0,
        harshAcceleration: 0,
        harshBraking: 0,
        sharpTurn: 0,
        total: 1,
      },
      {
        date: D1,
        driverId,
        driverName,
        shifts: ['morning'],
        vehicleId: vehicle.id,
        licence: vehicle.licence,
        overSpeed: 0,
        speedingS: 0,
        fatigue: 1,
        harshAcceleration: 0,
        harshBraking: 2,
        sharpTurn: 0,
        total: 3,
      },
      {
        date: D1,
        driverId: null,
        driverName: null,
        shifts: [],
        vehicleId: other.id,
        licence: other.licence,
        overSpeed: 0,
        speedingS: 45,
        fatigue: 0,
        harshAcceleration: 0,
        harshBraking: 0,
        sharpTurn: 0,
        total: 0,
      },
    ]);
    const mine = await s.call(admin, 'POST', '/api/vehicle/team/breakRules', criteria({ driverId }));
    expect(mine.body.rows.map((x: { date: string }) => x.date)).toEqual([D2, D1]);
    const oneDay = await s.call(admin, 'POST', '/api/vehicle/team/breakRules', { criteria: { begin: D1, end: D1, vehicleId: vehicle.id } });
    expect(oneDay.body.rows).toHaveLength(1);
    expect(oneDay.body.rows[0]).toMatchObject({ date: D1, total: 3 });
  });

  it('shows the schedule beside what the scheduled vehicle drove that day', async () => {
    const r = await s.call(admin, 'POST', '/api/vehicle/team/orderSchedule', criteria());
    expect(r.status).toBe(200);
    expect(r.body.rows).toEqual([
      expect.objectContaining({
        date: D1,
        shift: 'morning',
        driverId,
        driverName,
        vehicleId: vehicle.id,
        licence: vehicle.licence,
        route: '外高桥—洋山',
        mileageKm: 42.5,
        drivingS: 3600,
        tripCount: 2,
        firstDeparture: '2026-11-10T00:30:00.000Z',
        lastArrival: '2026-11-10T08:30:00.000Z',
      }),
      expect.objectContaining({
        date: D2,
        shift: 'allDay',
        mileageKm: 0,
        drivingS: 0,
        tripCount: 0,
        firstDeparture: null,
        lastArrival: null,
      }),
    ]);
    const otherVehicle = await s.call(admin, 'POST', '/api/vehicle/team/orderSchedule', criteria({ vehicleId: other.id }));
    expect(otherVehicle.body.rows).toEqual([]);
  });

  it('sums the ledger per organisation', async () => {
    const r = await s.call(admin, 'POST', '/api/vehicle/dailyDrivingBehavior/mileageAndFuelByOrg', { criteria: { begin: D1, end: D1 } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([expect.objectContaining({ orgId: vehicle.orgId, vehicles: 1, mileageKm: 42.5, cost: 30, tripCount: 2 })]);
    expect(r.body[0].orgName).toEqual(expect.any(String));
  });

  it('keeps to the caller’s organisations and refuses bad criteria with a field error', async () => {
    for (const path of ['breakRules', 'orderSchedule']) {
      const r = await s.call(outsider, 'POST', `/api/vehicle/team/${path}`, criteria());
      expect(r.status).toBe(200);
      expect(r.body.rows).toEqual([]);
      expect((await s.call(outsider, 'POST', `/api/vehicle/team/${path}`, criteria({ vehicleId: vehicle.id }))).status).toBe(404);
      const backwards = await s.call(admin, 'POST', `/api/vehicle/team/${path}`, { criteria: { begin: D2, end: D1 } }, 'en-US');
      expect(backwards.status).toBe(400);
      expect(JSON.stringify(backwards.body)).toMatch(/criteria\.end/);
      expect((await s.call(admin, 'POST', `/api/vehicle/team/${path}`, { criteria: { begin: D1, end: D2, driverId: 'x' } })).status).toBe(
        400,
      );
      expect((await s.call(null, 'POST', `/api/vehicle/team/${path}`, criteria())).status).toBe(401);
    }
    const outsiderOrgs = await s.call(outsider, 'POST', '/api/vehicle/dailyDrivingBehavior/mileageAndFuelByOrg', {
      criteria: { begin: D1, end: D1 },
    });
    expect(outsiderOrgs.body).toEqual([]);
  });

  it('exports each report in the columns its table shows, in the caller’s language and zone', async () => {
    const breaks = await sheet('/api/vehicle/team/breakRules/export', criteria(), 'en-US');
    expect(breaks[0]).toEqual([
      'Date',
      'Driver',
      'Shift',
      'Licence plate',
      'Overspeed alarms',
      'Harsh acceleration',
      'Harsh braking',
      'Sharp turn',
      'Fatigue',
      'Speeding (min)',
      'Violations',
    ]);
    expect(breaks.slice(1)).toEqual([
      [D2, driverName, 'All day', vehicle.licence, 1, 0, 0, 0, 0, 0, 1],
      [D1, driverName, 'Morning', vehicle.licence, 0, 0, 2, 0, 1, 0, 3],
      [D1, undefined, undefined, other.licence, 0, 0, 0, 0, 0, 0.8, 0],
    ]);
    const schedule = await sheet('/api/vehicle/team/orderSchedule/export', criteria());
    expect(schedule[0].slice(0, 7)).toEqual(['日期', '驾驶员', '班次', '车牌号', '线路', '首次出发', '最后到达']);
    // 00:30Z and 08:30Z are 08:30 and 16:30 in Shanghai.
    expect(schedule[1]).toEqual([
      D1,
      driverName,
      '早班',
      vehicle.licence,
      '外高桥—洋山',
      '2026-11-10 08:30:00',
      '2026-11-10 16:30:00',
      42.5,
      1,
      2,
    ]);
    expect(schedule).toHaveLength(3);

    const hd = vehicle.orgId;
    await sql`INSERT INTO expert_fault (spn, fmi, dtc_code, name, unit, level, description, resolvent, cause) VALUES (5301, 2, 'P0301', '1 缸失火', '发动机', 'high', '失火', '检查点火线圈', '点火线圈老化')`.execute(
      db(),
    );
    await sql`INSERT INTO health_day (vehicle_id, day, org_id, health_index, band, faults, alarm_count) VALUES
      (${vehicle.id}, ${D1}, ${hd}, 55, 'fault', ${JSON.stringify([{ code: 'P0301', level: 'high', name: '1 缸失火', resolvent: '检查点火线圈' }])}::jsonb, 1),
      (${other.id}, ${D1}, ${hd}, 95, 'healthy', '[]'::jsonb, 0)`.execute(db());
    const fleet = await s.call(admin, 'POST', '/api/vehicle/vehicleDailyHealth/vehicleDailyHealthFleet', criteria());
    expect(fleet.body.fault[0].faults).toEqual([
      { code: 'P0301', level: 'high', name: '1 缸失火', resolvent: '检查点火线圈', cause: '点火线圈老化' },
    ]);
    const health = await sheet('/api/vehicle/vehicleDailyHealth/vehicleDailyHealthFleet/export', criteria());
    expect(health.map((r) => r.slice(0, 7))).toEqual([
      ['车牌号', '健康状态', '健康指数', '统计日期', '未结束的故障', '故障原因', '处理办法'],
      [vehicle.licence, '故障', 55, D1, 'P0301 1 缸失火', '点火线圈老化', '检查点火线圈'],
      [other.licence, '健康', 95, D1, undefined, undefined, undefined],
    ]);
    const healthyOnly = await sheet('/api/vehicle/vehicleDailyHealth/vehicleDailyHealthFleet/export', {
      criteria: { begin: D1, end: D2, band: 'healthy' },
    });
    expect(healthyOnly.slice(1).map((r) => r[0])).toEqual([other.licence]);
    expect(
      (
        await s.call(admin, 'POST', '/api/vehicle/vehicleDailyHealth/vehicleDailyHealthFleet/export', {
          criteria: { begin: D1, end: D2, band: 'sick' },
        })
      ).status,
    ).toBe(400);

    const safety = await sheet('/api/vehicle/dailyDrivingBehavior/vehicleSafetyEchart/export', criteria());
    const ranking = (await s.call(admin, 'POST', '/api/vehicle/dailyDrivingBehavior/vehicleSafetyEchart', criteria())).body
      .ranking as Array<{ licence: string; score: number | null }>;
    expect(safety[0].slice(0, 3)).toEqual(['排名', '车牌号', '安全评分']);
    expect(safety.slice(1).map((r) => [r[1], r[2] ?? null])).toEqual(ranking.map((r) => [r.licence, r.score]));
  });
});
