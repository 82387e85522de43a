/**
 * A scripted month through the real gateway: a vehicle drives 400 km a day (its terminal's odometer
 * reading climbs with it); a 10,000 km schedule with a 500 km warning falls due on the day its
 * usage reaches 9,500 km and overdue on the day it reaches 10,000, once each, as alarms of their
 * own types; a schedule with no trigger is refused in the caller's language. Then the overdue
 * schedule becomes a work order, closing it resets the schedule from the service's odometer and
 * date, an odometer below the last service is refused, and a trouble code the terminal reports
 * becomes a work order with the expert fault's cause and remedy.
 */

import { sql } from 'kysely';
import { playLegs, type ScriptState } from '../../../server/simulator/dayScript';
import { maintenanceAlarms } from '../../../server/maintenance/maintenanceAlarms';
import { MaintenanceClock } from '../../../server/maintenance/maintenanceClock';
import type { RaisedAlarm } from '../../../server/intelligence/alarms/store';
import { alarmDeriver } from '../../../server/intelligence/alarms/deriver';
import { BACKENDS, ADMIN_PASSWORD } from '../../helpers/testServer';
import { demoTerminal, startDeriveHarness, type DeriveHarness } from '../intelligence/harness';
import type { SimTerminal } from '../../../server/simulator/terminal';

const TZ = 'Asia/Shanghai';
/** Local midnight of 2026-11-01 in Shanghai: the schedule's start day. */
const NOV_1 = Date.parse('2026-10-31T16:00:00Z');
const DAY_MS = 86_400_000;
const START_ODOMETER = 12_000;

/** Day n (1 = 2026-11-02): parked until 08:00, 400 km at 60 km/h (out on odd days, back on even ones), parked again. */
function drivingDay(state: ScriptState, n: number, dtcs?: string[]) {
  state.time = NOV_1 + n * DAY_MS;
  return playLegs(
    state,
    [
      { kind: 'park', minutes: 480 },
      { kind: 'drive', minutes: 400, kmh: 60, heading: n % 2 ? 0 : 180, dtcs },
      { kind: 'park', minutes: 560 },
    ],
    // No fuel burnt: the month is about kilometres (the level stays in the terminal's range).
    { driveEveryS: 600, parkEveryS: 3600, fuelPerKm: 0 },
  );
}

/** 23:00 local on day n. */
const eveningOf = (n: number) => NOV_1 + n * DAY_MS + 23 * 3_600_000;

describe.each(BACKENDS)('maintenance schedules over a scripted month on %s', (backend) => {
  let h: DeriveHarness;
  let admin: string;
  let vehicleId: number;
  let terminal: SimTerminal;
  const state: ScriptState = { time: NOV_1, latitude: 31.2304, longitude: 121.4737, odometerKm: START_ODOMETER, fuelL: 200 };
  let day = 0;
  let scheduleId = 0;
  const clock = () => new MaintenanceClock(h.s.database.db, { timeZone: TZ });
  /** Sends the next day through the gateway, waits until it is stored and derived, and ticks the maintenance clock at its evening. */
  const nextDay = async (clock: MaintenanceClock, dtcs?: string[]) => {
    day += 1;
    await h.send(terminal, drivingDay(state, day, dtcs), 'batch');
    await h.derived();
    return clock.tick(eveningOf(day));
  };

  beforeAll(async () => {
    // With the alarm deriver: its rebuilds of each day must leave the clock's maintenance alarms alone.
    h = await startDeriveHarness(backend, { extraDerivers: () => [alarmDeriver()] });
    admin = await h.s.login('admin', ADMIN_PASSWORD);
    const phone = demoTerminal(1);
    terminal = await h.terminal(phone);
    vehicleId = await h.vehicleOf(phone);
  }, 300_000);
  afterAll(() => h?.close());

  it('refuses a schedule with no trigger, in the caller language, and stores nothing', async () => {
    const body = { name: '无触发条件', vehicleId, warnKm: 500 };
    const zh = await h.s.call(admin, 'POST', '/api/vehicle/maintenanceSchedule', body);
    expect(zh.status).toBe(400);
    expect(zh.body.errors).toEqual([
      { field: 'intervalKm', key: 'validation.maintenance.noTrigger', message: '请至少填写间隔里程、间隔发动机小时或间隔天数中的一项' },
    ]);
    const en = await h.s.call(admin, 'POST', '/api/vehicle/maintenanceSchedule', body, 'en-US');
    expect(en.status).toBe(400);
    expect(en.body.message).toBe('Give at least one of the interval in kilometres, engine hours or days');
    const stored = await h.s.call(admin, 'POST', '/api/vehicle/maintenanceSchedule/query', { criteria: { keyword: '无触发条件' } });
    expect(stored.body.total).toBe(0);
  });

  it('refuses an edit that clears the last trigger of a stored schedule', async () => {
    const created = await h.s.call(admin, 'POST', '/api/vehicle/maintenanceSchedule', { name: '半年检查', vehicleId, intervalDays: 180 });
    expect(created.status).toBe(201);
    const cleared = await h.s.call(admin, 'PUT', `/api/vehicle/maintenanceSchedule/${created.body.id}`, { intervalDays: null }, 'ja-JP');
    expect(cleared.status).toBe(400);
    expect(cleared.body.message).toBe('間隔距離・間隔エンジン時間・間隔日数のいずれかを入力してください');
    expect((await h.s.call(admin, 'GET', `/api/vehicle/maintenanceSchedule/${created.body.id}`)).body.intervalDays).toBe(180);
    expect((await h.s.call(admin, 'DELETE', `/api/vehicle/maintenanceSchedule/${created.body.id}`)).status).toBe(204);
  });

  it('falls due on the day 9,500 km are used and overdue on the day 10,000 are, each once', async () => {
    const created = await h.s.call(admin, 'POST', '/api/vehicle/maintenanceSchedule', {
      name: '一万公里保养',
      vehicleId,
      intervalKm: 10_000,
      warnKm: 500,
      startDate: '2026-11-01',
      startOdometerKm: START_ODOMETER,
    });
    expect(created.status).toBe(201);
    scheduleId = created.body.id as number;
    const announced: RaisedAlarm[] = [];
    const clock = new MaintenanceClock(h.s.database.db, { timeZone: TZ, onRaised: (a) => announced.push(...a) });
    const raisedOn = new Map<string, number>();
    while (day < 26) {
      const raised = (await nextDay(clock)).filter((a) => a.detail?.scheduleId === scheduleId);
      for (const a of raised) {
        expect(raisedOn.has(a.type)).toBe(false);
        raisedOn.set(a.type, day);
      }
    }
    // Day 24 ends at 12,000 + 24 × 400 = 21,600 km: 9,600 used, 400 left (inside the 500 km window).
    expect(Object.fromEntries(raisedOn)).toEqual({ MaintenanceDue: 24, MaintenanceOverdue: 25 });
    expect(announced.filter((a) => a.detail?.scheduleId === scheduleId).map((a) => [a.type, a.value])).toEqual([
      ['MaintenanceDue', 400],
      ['MaintenanceOverdue', 0],
    ]);
    const stored = await sql<{ type: string; category: string; level: string; subject: string; begin_time: Date; end_time: Date }>`
      SELECT type, category, level, subject, begin_time, end_time FROM alarm WHERE vehicle_id = ${vehicleId} AND type LIKE 'Maintenance%' ORDER BY begin_time`.execute(
      h.s.database.db,
    );
    expect(stored.rows.map((r) => ({ ...r, begin_time: r.begin_time.getTime(), end_time: r.end_time.getTime() }))).toEqual([
      {
        type: 'MaintenanceDue',
        category: 'obd',
        level: 'low',
        subject: `schedule:${scheduleId}:0`,
        begin_time: eveningOf(24),
        end_time: eveningOf(24),
      },
      {
        type: 'MaintenanceOverdue',
        category: 'obd',
        level: 'medium',
        subject: `schedule:${scheduleId}:0`,
        begin_time: eveningOf(25),
        end_time: eveningOf(25),
      },
    ]);
    // Ticking again raises nothing more for this cycle.
    expect(
      (await maintenanceAlarms(h.s.database.db, eveningOf(26) + 60_000, TZ)).filter((a) => a.detail?.scheduleId === scheduleId),
    ).toEqual([]);

    // The alarm centre lists them with the vehicle's other OBD-category alarms.
    const listed = await h.s.call(admin, 'POST', '/api/vehicle/alarm/query', {
      criteria: { vehicleId, type: 'MaintenanceOverdue' },
      pageSize: 10,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((a: { type: string }) => a.type)).toEqual(['MaintenanceOverdue']);

    // The status page and the vehicle detail show it overdue by 400 km (day 26: 10,400 used).
    const status = await h.s.call(admin, 'GET', `/api/vehicle/maintenance/vehicle/${vehicleId}`);
    expect(status.status).toBe(200);
    expect(status.body.data.find((r: { scheduleId: number }) => r.scheduleId === scheduleId)).toMatchObject({
      state: 'overdue',
      trigger: 'km',
      usedKm: 10_400,
      remainingKm: -400,
      baseDay: '2026-11-01',
      lastWorkOrderId: null,
    });
    const page = await h.s.call(admin, 'POST', '/api/vehicle/maintenance/status', { criteria: { state: 'overdue' } });
    expect(page.status).toBe(200);
    expect(page.body.counts.overdue).toBeGreaterThanOrEqual(1);
    expect(page.body.data.every((r: { state: string }) => r.state === 'overdue')).toBe(true);
    expect(page.body.data.map((r: { scheduleId: number }) => r.scheduleId)).toContain(scheduleId);
  }, 600_000);

  it('makes the overdue schedule a work order; closing it resets the schedule from its odometer and date', async () => {
    const wo = await h.s.call(admin, 'POST', '/api/vehicle/workOrder/fromSchedule', { scheduleId, vehicleId });
    expect(wo.status).toBe(201);
    expect(wo.body).toMatchObject({ title: '一万公里保养', vehicleId, scheduleId, source: 'schedule', status: 'open' });
    const again = await h.s.call(admin, 'POST', '/api/vehicle/workOrder/fromSchedule', { scheduleId, vehicleId });
    expect(again.status).toBe(406);
    expect(again.body.message).toBe(`该车已有未完成的同类工单（#${wo.body.id} 一万公里保养）`);
    const url = `/api/vehicle/workOrder/${wo.body.id}`;
    const noDate = await h.s.call(admin, 'PUT', url, { status: 'done' });
    expect(noDate.status).toBe(400);
    expect(noDate.body.message).toBe('完成工单时请填写维修日期');
    expect((await h.s.call(admin, 'PUT', url, { status: 'inProgress', assignee: '王师傅' })).status).toBe(200);
    // Serviced on day 27 (2026-11-28) at the odometer day 26 ended on: 12,000 + 26 × 400.
    const done = await h.s.call(admin, 'PUT', url, { status: 'done', serviceDate: '2026-11-28', serviceOdometerKm: 22_400, cost: 850 });
    expect(done.status).toBe(200);
    const status = await h.s.call(admin, 'GET', `/api/vehicle/maintenance/vehicle/${vehicleId}`);
    expect(status.body.data.find((r: { scheduleId: number }) => r.scheduleId === scheduleId)).toMatchObject({
      state: 'ok',
      usedKm: 0,
      remainingKm: 10_000,
      baseDay: '2026-11-28',
      lastWorkOrderId: wo.body.id,
    });
    // A new cycle: nothing is due in it yet.
    expect((await clock().tick(eveningOf(27))).filter((a) => a.detail?.scheduleId === scheduleId)).toEqual([]);
  });

  it('refuses closing a work order with an odometer below the last service, in the caller language, storing nothing', async () => {
    const body = { title: '更换轮胎', vehicleId, status: 'done', serviceDate: '2026-11-29', serviceOdometerKm: 21_000 };
    const zh = await h.s.call(admin, 'POST', '/api/vehicle/workOrder', body);
    expect(zh.status).toBe(400);
    expect(zh.body.errors).toEqual([
      {
        field: 'serviceOdometerKm',
        key: 'validation.maintenance.odometerBelowLast',
        message: '维修时里程表读数（km）不能小于该车上次维修时的 22400 km',
      },
    ]);
    const es = await h.s.call(admin, 'POST', '/api/vehicle/workOrder', body, 'es-ES');
    expect(es.body.message).toBe(
      'Odómetro en el servicio (km) no puede ser inferior a 22400 km, la lectura del último servicio de este vehículo',
    );
    const listed = await h.s.call(admin, 'POST', '/api/vehicle/workOrder/query', { criteria: { keyword: '更换轮胎' } });
    expect(listed.body.total).toBe(0);
    // Closing it later, at a reading past the last service, is accepted.
    const open = await h.s.call(admin, 'POST', '/api/vehicle/workOrder', { title: '更换轮胎', vehicleId });
    expect(open.status).toBe(201);
    const below = await h.s.call(admin, 'PUT', `/api/vehicle/workOrder/${open.body.id}`, {
      status: 'done',
      serviceDate: '2026-11-29',
      serviceOdometerKm: 22_000,
    });
    expect(below.status).toBe(400);
    const past = await h.s.call(admin, 'PUT', `/api/vehicle/workOrder/${open.body.id}`, {
      status: 'done',
      serviceDate: '2026-11-29',
      serviceOdometerKm: 22_800,
    });
    expect(past.status).toBe(200);
  });

  it('makes a trouble code the terminal reports a work order with the expert fault’s cause and remedy', async () => {
    const fault = await h.s.call(admin, 'POST', '/api/vehicle/expertFault', {
      spn: 1323,
      fmi: 31,
      dtcCode: 'P0301',
      name: '1 缸失火',
      unit: '发动机',
      level: 'high',
      description: '检测到 1 缸失火',
      resolvent: '检查 1 缸火花塞和点火线圈',
      cause: '火花塞积碳或点火线圈损坏',
      maintenanceMeasures: '更换火花塞，必要时更换点火线圈',
    });
    expect(fault.status).toBe(201);
    // Trouble codes raise Fault alarms where a Fault policy is in force (the root organisation's, for every vehicle).
    expect((await h.s.call(admin, 'PUT', '/api/vehicle/policy', { name: '故障码', alarmType: 'Fault' })).status).toBe(201);
    await nextDay(clock(), ['P0301']);
    const alarms = await h.s.call(admin, 'POST', '/api/vehicle/alarm/query', { criteria: { vehicleId, type: 'Fault' }, pageSize: 10 });
    expect(alarms.body.data).toHaveLength(1);
    const wo = await h.s.call(admin, 'POST', `/api/vehicle/workOrder/fromAlarm/${alarms.body.data[0].id}`);
    expect(wo.status).toBe(201);
    expect(wo.body).toMatchObject({
      title: 'P0301 1 缸失火',
      vehicleId,
      source: 'dtc',
      status: 'open',
      dtcCode: 'P0301',
      faultId: fault.body.id,
      faultName: '1 缸失火',
      cause: '火花塞积碳或点火线圈损坏',
      remedy: '检查 1 缸火花塞和点火线圈\n更换火花塞，必要时更换点火线圈',
    });
    // The health report's code of the same vehicle finds the unfinished one.
    const fromDtc = await h.s.call(admin, 'POST', '/api/vehicle/workOrder/fromDtc', { vehicleId, dtcCode: 'p0301' }, 'en-US');
    expect(fromDtc.status).toBe(406);
    expect(fromDtc.body.message).toBe(`This vehicle already has an unfinished work order for it (#${wo.body.id} P0301 1 缸失火)`);
    // A maintenance alarm is no trouble code.
    const overdue = await h.s.call(admin, 'POST', '/api/vehicle/alarm/query', {
      criteria: { vehicleId, type: 'MaintenanceOverdue' },
      pageSize: 1,
    });
    const refused = await h.s.call(admin, 'POST', `/api/vehicle/workOrder/fromAlarm/${overdue.body.data[0].id}`);
    expect(refused.status).toBe(406);
    expect(refused.body.message).toBe('只有故障码告警可以生成维修工单');
    // The maintenance alarms survived every day's alarm rebuild.
    expect(overdue.body.total).toBe(1);
  }, 300_000);

  it('hides another organisation’s vehicle from the status routes (404) and its rows from the list', async () => {
    const outsider = await h.s.memberToken('HN-SZ', 'orgUser');
    expect((await h.s.call(outsider, 'GET', `/api/vehicle/maintenance/vehicle/${vehicleId}`)).status).toBe(404);
    const page = await h.s.call(outsider, 'POST', '/api/vehicle/maintenance/status', {});
    expect(page.status).toBe(200);
    expect(page.body.data.map((r: { vehicleId: number }) => r.vehicleId)).not.toContain(vehicleId);
  });
});
