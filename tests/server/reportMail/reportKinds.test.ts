/**
 * The fuel, cost, maintenance and per-driver reports by e-mail: each mailed through a real SMTP
 * server over TCP with the page's own xlsx, in the recipient's language, its figures equal to what
 * the page's API answers for the same period; a kind no page has is refused in the writer's language.
 */

import { sql } from 'kysely';
import { translator } from '../../../schemas/kit/catalogue';
import { localDay } from '../../../server/intelligence/localDay';
import { localTime } from '../../../server/reportMail/period';
import { readMail, readParts, startSmtpServer, type SmtpServer } from '../../helpers/smtpServer';
import { BACKENDS, type TestServer, startTestServer } from '../../helpers/testServer';
import { downloadFrom, readXlsx } from '../../helpers/xlsx';

const ZONE = 'Asia/Shanghai';
const HOUR = 3_600_000;
const addDays = (day: string, n: number) => new Date(Date.parse(day + 'T00:00:00Z') + n * 86_400_000).toISOString().slice(0, 10);
const isoWeekday = (day: string) => ((new Date(day + 'T00:00:00Z').getUTCDay() + 6) % 7) + 1;

describe.each(BACKENDS)('scheduled fuel, cost, maintenance and driver reports on %s', (backend) => {
  let s: TestServer;
  let smtp: SmtpServer;
  let hd: string;
  let licence: string;
  /** A local day in the future: no real clock reaches its firings, and it holds only the rows written here. */
  const D = addDays(localDay(Date.now(), ZONE), 5);

  /** The report of a new schedule sent by the clock at `firing` (as if the schedule was written the day before): the send, mail and sheet. */
  async function mailed(body: Record<string, unknown>, firing: number) {
    const to = `${String(body.report)}-${String(body.frequency)}@example.com`;
    const created = await s.call(hd, 'POST', '/api/vehicle/reportSchedule', { sendTime: '07:30', recipients: to, ...body });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    await sql`UPDATE report_schedule SET due_at = ${new Date(firing - 24 * HOUR)} WHERE id = ${id}`.execute(s.database.db);
    const sends = await s.app.reportMail.tick(firing);
    expect(sends).toHaveLength(1);
    expect((await s.call(hd, 'PUT', `/api/vehicle/reportSchedule/${id}`, { enabled: false })).status).toBe(200);
    const mail = smtp.messages.find((m) => m.to.includes(to));
    if (!mail) throw new Error(`no mail to ${to}`);
    const [, file] = readParts(mail.data);
    return { id, send: sends[0], subject: readMail(mail.data).subject, rows: await readXlsx(file.content) };
  }

  /** The sheet's row whose first cell is `first`. */
  const rowOf = (rows: unknown[][], first: unknown) => {
    const r = rows.find((x) => x[0] === first);
    if (!r) throw new Error(`no row ${String(first)} in ${JSON.stringify(rows)}`);
    return r;
  };

  beforeAll(async () => {
    smtp = await startSmtpServer();
    s = await startTestServer(backend, {
      smtp: { host: '127.0.0.1', port: smtp.port, secure: false, from: 'reports@fleet.example' },
      timeZone: ZONE,
    });
    hd = await s.memberToken('HD', 'administrator');
    const vehicles = await sql<{ id: number; org_id: number; licence: string }>`
      SELECT v.id, v.org_id, v.licence FROM vehicle v JOIN organisation o ON o.id = v.org_id WHERE o.code IN ('HD', 'HD-SH', 'HD-HZ') ORDER BY v.id`.execute(
      s.database.db,
    );
    const v = vehicles.rows[0];
    licence = v.licence;
    // Day D of one HD vehicle: its ledger, a trip no driver's card covers, a toll; and a maintenance schedule of 180 days.
    await s.database.db
      .insertInto('ledger_day')
      .values({
        vehicle_id: v.id,
        day: D,
        org_id: v.org_id,
        mileage_km: 150,
        fuel_l: 18.6,
        refuel_l: 40,
        drain_l: 0,
        driving_s: 9000,
        idle_s: 600,
        trip_count: 1,
        max_speed: 90,
        cost: 135.78,
      })
      .execute();
    const begin = localTime(D, '09:00', ZONE);
    await s.database.db
      .insertInto('trip')
      .values({
        vehicle_id: v.id,
        begin_time: new Date(begin),
        end_time: new Date(begin + 2.5 * HOUR),
        duration_s: 9000,
        distance_km: 150,
        distance_source: 'odometer',
        fuel_l: 18.6,
        idle_s: 600,
        max_speed: 90,
        avg_speed: 60,
        start_latitude: 31.2,
        start_longitude: 121.4,
        end_latitude: 31.9,
        end_longitude: 120.9,
      })
      .execute();
    const toll = await s.call(hd, 'POST', '/api/vehicle/vehicleCost', { vehicleId: v.id, day: D, kind: 'toll', amount: 45.5 });
    expect(toll.status).toBe(201);
    const schedule = await s.call(hd, 'POST', '/api/vehicle/maintenanceSchedule', { name: '半年检查', vehicleId: v.id, intervalDays: 180 });
    expect(schedule.status).toBe(201);
  });
  afterAll(async () => {
    await s?.close();
    await smtp?.close();
  });

  it('mails the fuel report of the day before, in English, with the litres the fuel page reads', async () => {
    const { send, subject, rows } = await mailed(
      { name: 'HD fuel', report: 'fuel', frequency: 'daily', language: 'en-US' },
      localTime(addDays(D, 1), '07:30', ZONE),
    );
    expect(send).toMatchObject({ status: 'sent', periodBegin: D, periodEnd: D });
    expect(subject).toBe(`Fuel report ${D} · HD fuel`);
    const t = translator('en-US');
    expect(rows[0]).toEqual(
      [
        'reports.ledger.licence',
        'reports.ledger.mileageKm',
        'reports.ledger.fuelL',
        'console.statistics.fuel.per100',
        'reports.ledger.refuelL',
        'reports.ledger.drainL',
      ].map((k) => t(k)),
    );
    const page = await s.call(hd, 'POST', '/api/vehicle/dailyDrivingBehavior/mileageAndFuel', { criteria: { begin: D, end: D } });
    const answer = page.body.find((r: { licence: string }) => r.licence === licence);
    expect(answer.fuelL).toBe(18.6);
    expect(rowOf(rows, licence).slice(1)).toEqual([answer.mileageKm, answer.fuelL, 12.4, answer.refuelL, answer.drainL]);
    expect(rows).toHaveLength(1 + page.body.length);
    // The page's own export of that day is the same file.
    const exported = await downloadFrom(
      s,
      hd,
      'POST',
      '/api/vehicle/dailyDrivingBehavior/mileageAndFuel/export',
      { criteria: { begin: D, end: D } },
      'en-US',
    );
    expect(exported.status).toBe(200);
    expect(await readXlsx(exported.data)).toEqual(rows);
  });

  it('mails the cost report of the week before on its weekday, in Spanish, with the totals the cost page reads', async () => {
    // Fired on the Monday after D's week: the week (Monday to Sunday) that holds D.
    const monday = addDays(D, 8 - isoWeekday(D));
    const { send, rows } = await mailed(
      { name: 'HD cost', report: 'cost', frequency: 'weekly', weekday: 1, language: 'es-ES' },
      localTime(monday, '07:30', ZONE),
    );
    const week = { begin: addDays(monday, -7), end: addDays(monday, -1) };
    expect(send).toMatchObject({ status: 'sent', periodBegin: week.begin, periodEnd: week.end });
    expect(rows[0][4]).toBe(translator('es-ES')('console.statistics.cost.total'));
    const page = await s.call(hd, 'POST', '/api/vehicle/cost/summary', { criteria: { ...week, by: 'vehicle' } });
    const answer = page.body.rows.find((r: { label: string }) => r.label === licence);
    expect(answer.total).toBeCloseTo(135.78 + 45.5, 2);
    expect(rowOf(rows, licence).slice(1)).toEqual([
      answer.fuel,
      answer.maintenance,
      answer.other,
      answer.total,
      answer.mileageKm,
      answer.perKm,
      answer.perDay,
    ]);
    const exported = await downloadFrom(s, hd, 'POST', '/api/vehicle/cost/summary/export', { criteria: week }, 'es-ES');
    expect(await readXlsx(exported.data)).toEqual(rows);
  });

  it('mails the per-driver report of the month before on its day, in Japanese, with the kilometres the driver page reads', async () => {
    const firstOfNext = addDays(D.slice(0, 8) + '28', 7).slice(0, 8) + '01';
    const { send, rows } = await mailed(
      { name: 'HD drivers', report: 'driver', frequency: 'monthly', monthDay: 1, language: 'ja-JP' },
      localTime(firstOfNext, '07:30', ZONE),
    );
    const month = { begin: D.slice(0, 8) + '01', end: addDays(firstOfNext, -1) };
    expect(send).toMatchObject({ status: 'sent', periodBegin: month.begin, periodEnd: month.end });
    const page = await s.call(hd, 'POST', '/api/vehicle/driverStatistics/byDriver', { criteria: month });
    const answer = page.body.find((r: { kind: string }) => r.kind === 'unassigned');
    expect(answer.mileageKm).toBe(150);
    const row = rowOf(rows, translator('ja-JP')('driverStats.kinds.unassigned'));
    expect([row[3], row[4], row[5]]).toEqual([answer.mileageKm, Math.round((answer.drivingS / 3600) * 100) / 100, answer.tripCount]);
  });

  it('sends the maintenance status now, in Chinese, as the maintenance page shows it, and keeps the send in the history', async () => {
    const created = await s.call(hd, 'POST', '/api/vehicle/reportSchedule', {
      name: 'HD maintenance',
      report: 'maintenance',
      frequency: 'daily',
      sendTime: '07:30',
      recipients: 'workshop@example.com',
      language: 'zh-CN',
    });
    expect(created.status).toBe(201);
    const before = smtp.messages.length;
    const now = await s.call(hd, 'POST', `/api/vehicle/reportSchedule/${created.body.id}/send`);
    expect(now.status).toBe(200);
    expect(now.body).toMatchObject({ status: 'sent', trigger: 'manual' });
    const mail = smtp.messages.slice(before).find((m) => m.to.includes('workshop@example.com'));
    if (!mail) throw new Error('no maintenance mail');
    expect(readMail(mail.data).subject).toContain('保养状态');
    const rows = await readXlsx(readParts(mail.data)[1].content);
    const page = await s.call(hd, 'POST', '/api/vehicle/maintenance/status', { criteria: {} });
    const answer = page.body.data.find(
      (r: { licence: string; scheduleName: string }) => r.licence === licence && r.scheduleName === '半年检查',
    );
    const t = translator('zh-CN');
    const row = rows.find((r) => r[0] === licence && r[1] === '半年检查');
    expect(row).toBeDefined();
    // Licence, schedule, state, last service, km and hours (not counted by this schedule), days used / interval, days left, due by.
    expect([row![2], row![3], row![8], row![9], row![10]]).toEqual([
      t(`console.maintenance.states.${answer.state}`),
      answer.baseDay,
      `${answer.usedDays} / 180`,
      answer.remainingDays,
      answer.dueDay,
    ]);
    expect(rows).toHaveLength(1 + page.body.data.length);
    const exported = await downloadFrom(s, hd, 'POST', '/api/vehicle/maintenance/status/export', { criteria: {} }, 'zh-CN');
    expect(await readXlsx(exported.data)).toEqual(rows);
    const history = await s.call(hd, 'GET', `/api/vehicle/reportSchedule/${created.body.id}/sends`);
    expect(history.body).toMatchObject([{ trigger: 'manual', status: 'sent', sizeBytes: now.body.sizeBytes }]);
  });

  it('refuses a report kind no page has with a localised field error', async () => {
    const r = await s.call(
      hd,
      'POST',
      '/api/vehicle/reportSchedule',
      { name: 'bad kind', report: 'fuelTheft', frequency: 'daily', sendTime: '07:30', recipients: 'x@example.com' },
      'ja-JP',
    );
    expect(r.status).toBe(400);
    expect(r.body.errors[0].field).toBe('report');
    expect(r.body.message).toContain('レポート');
  });
});
