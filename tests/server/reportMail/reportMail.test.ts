import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { localDay } from '../../../server/intelligence/localDay';
import { alarmListSheet } from '../../../server/alarmCentre';
import { reportSheetMakers } from '../../../server/reports';
import { reportMailer, type ReportMailer } from '../../../server/reportMail';
import { localTime } from '../../../server/reportMail/period';
import type { SmtpConfig } from '../../../server/notify/smtp';
import { readMail, readParts, startSmtpServer, type SmtpServer } from '../../helpers/smtpServer';
import { BACKENDS, type TestServer, startTestServer } from '../../helpers/testServer';
import { downloadFrom, readXlsx } from '../../helpers/xlsx';

const ZONE = 'Asia/Shanghai';
const MINUTE = 60_000;
const addDays = (day: string, n: number) => new Date(Date.parse(day + 'T00:00:00Z') + n * 86_400_000).toISOString().slice(0, 10);

/** A port nothing listens on: one the system gave and took back. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** Scheduled reports by e-mail through the real app, database and an SMTP server over TCP; the clock ticked at chosen instants. */
describe.each(BACKENDS)('scheduled reports on %s', (backend) => {
  let s: TestServer;
  let smtp: SmtpServer;
  let mailConfig: SmtpConfig;
  let hd: string;
  let hn: string;
  /** A local day in the future: no real clock reaches its firings while the tests run, and it holds only the ledger rows written here. */
  const D = addDays(localDay(Date.now(), ZONE), 5);

  /** Another process's sender on the same database (another mail server when given). */
  const otherProcess = (config: SmtpConfig = mailConfig): ReportMailer =>
    reportMailer({
      db: s.database.db,
      timeZone: ZONE,
      smtp: config,
      sheets: { ...reportSheetMakers({ db: s.database.db, timeZone: ZONE }), alarms: alarmListSheet(s.database.db) },
    });

  const create = async (token: string, body: Record<string, unknown>, lang?: string) =>
    s.call(token, 'POST', '/api/vehicle/reportSchedule', { frequency: 'daily', sendTime: '07:30', report: 'daily', ...body }, lang);
  const created = async (token: string, body: Record<string, unknown>): Promise<number> => {
    const r = await create(token, body);
    if (r.status !== 200 && r.status !== 201) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
    return r.body.id as number;
  };
  /** Stops a schedule, so the ticks of the next tests send only theirs. */
  const disable = async (token: string, id: number) => {
    const r = await s.call(token, 'PUT', `/api/vehicle/reportSchedule/${id}`, { enabled: false });
    expect(r.status).toBe(200);
  };
  const sendsOf = async (id: number) =>
    await s.database.db.selectFrom('report_send').selectAll().where('schedule_id', '=', id).orderBy('id').execute();

  beforeAll(async () => {
    smtp = await startSmtpServer({ user: 'fleet', password: 'mail-pass' });
    mailConfig = { host: '127.0.0.1', port: smtp.port, secure: false, user: 'fleet', password: 'mail-pass', from: 'reports@fleet.example' };
    s = await startTestServer(backend, { smtp: mailConfig, timeZone: ZONE });
    hd = await s.memberToken('HD', 'administrator');
    hn = await s.memberToken('HN', 'administrator');
    // Ledger rows on day D: two vehicles of HD's subtree and one of HN's (which HD's report must not hold).
    const vehicles = await sql<{ id: number; org_id: number; code: string }>`
      SELECT v.id, v.org_id, o.code FROM vehicle v JOIN organisation o ON o.id = v.org_id ORDER BY v.id`.execute(s.database.db);
    const hdOrgs = new Set(['HD', 'HD-SH', 'HD-HZ']);
    const picked = [...vehicles.rows.filter((v) => hdOrgs.has(v.code)).slice(0, 2), vehicles.rows.find((v) => v.code.startsWith('HN'))!];
    await s.database.db
      .insertInto('ledger_day')
      .values(
        picked.map((v, i) => ({
          vehicle_id: v.id,
          day: D,
          org_id: v.org_id,
          mileage_km: 120.5 + i * 10,
          fuel_l: 14.25 + i,
          refuel_l: 0,
          drain_l: 0,
          driving_s: 7200 + i * 600,
          idle_s: 300,
          trip_count: 3 + i,
          max_speed: 88 + i,
          cost: 102.4 + i,
        })),
      )
      .execute();
  });
  afterAll(async () => {
    await s?.close();
    await smtp?.close();
  });

  it('mails the daily report once at its local time, its sheet equal to the export of that day, and keeps the send', async () => {
    const id = await created(hd, { name: 'HD daily', recipients: 'ops@example.com; boss@example.com', language: 'en-US' });
    const firing = localTime(addDays(D, 1), '07:30', ZONE);
    // As if written the evening before (a schedule sends no firing from before it was written).
    await sql`UPDATE report_schedule SET due_at = ${new Date(firing - 12 * 60 * MINUTE)} WHERE id = ${id}`.execute(s.database.db);
    const before = smtp.messages.length;
    expect(await s.app.reportMail.tick(firing - MINUTE)).toEqual([]);
    const [sent] = await s.app.reportMail.tick(firing);
    expect(sent).toMatchObject({ status: 'sent', trigger: 'schedule', periodBegin: D, periodEnd: D, attempt: 1 });
    expect(smtp.messages.length).toBe(before + 1);
    const mail = smtp.messages[before];
    expect(mail.to.sort()).toEqual(['boss@example.com', 'ops@example.com']);
    expect(readMail(mail.data).subject).toBe(`Daily report ${D} · HD daily`);
    const [text, file] = readParts(mail.data);
    expect(Buffer.from(text.content).toString('utf8')).toContain(`for ${D}`);
    expect(file.headers['content-disposition']).toContain('attachment');
    expect(sent.sizeBytes).toBe(file.content.length);
    // The same figures as the page's own export of that day, asked by a member of the organisation.
    const exported = await downloadFrom(
      s,
      hd,
      'POST',
      '/api/vehicle/dailyDrivingBehavior/mileageAndFuelByDayAndVehicle/export',
      { criteria: { begin: D, end: D } },
      'en-US',
    );
    expect(exported.status).toBe(200);
    const rows = await readXlsx(file.content);
    expect(rows).toEqual(await readXlsx(exported.data));
    // Header, HD's two vehicles and the totals: HN's vehicle is not in HD's report.
    expect(rows).toHaveLength(4);
    expect(rows[3].slice(2, 3)).toEqual([120.5 + 130.5]);
    // Later ticks of the same day send nothing more; the next day's firing sends again.
    expect(await s.app.reportMail.tick(firing + MINUTE)).toEqual([]);
    expect(await s.app.reportMail.tick(firing + 3 * 60 * MINUTE)).toEqual([]);
    const history = await s.call(hd, 'GET', `/api/vehicle/reportSchedule/${id}/sends`);
    expect(history.status).toBe(200);
    expect(history.body).toHaveLength(1);
    expect(history.body[0]).toMatchObject({
      status: 'sent',
      periodBegin: D,
      periodEnd: D,
      recipients: 'ops@example.com, boss@example.com',
      error: null,
    });
    expect(history.body[0].sizeBytes).toBe(file.content.length);
    await disable(hd, id);
  });

  it('sends a firing once when two processes tick at the same moment', async () => {
    const id = await created(hd, { name: 'HD race', recipients: 'race@example.com', report: 'safety', sendTime: '06:00' });
    const firing = localTime(addDays(D, 1), '06:00', ZONE);
    const other = otherProcess();
    const before = smtp.messages.filter((m) => m.to.includes('race@example.com')).length;
    const [a, b] = await Promise.all([s.app.reportMail.tick(firing + 1000), other.tick(firing + 1000)]);
    expect([...a, ...b].filter((x) => x.status === 'sent')).toHaveLength(1);
    expect(smtp.messages.filter((m) => m.to.includes('race@example.com')).length).toBe(before + 1);
    expect(await sendsOf(id)).toHaveLength(1);
    await disable(hd, id);
  });

  it('sends a weekly report on its weekday for the week before, and a monthly one for the month before', async () => {
    const weekday = ((new Date(D + 'T00:00:00Z').getUTCDay() + 6) % 7) + 1;
    const weekly = await created(hd, {
      name: 'HD weekly',
      recipients: 'week@example.com',
      frequency: 'weekly',
      weekday,
      sendTime: '09:00',
    });
    const [w] = await s.app.reportMail.tick(localTime(D, '09:00', ZONE));
    const monday = addDays(D, -(weekday - 1) - 7);
    expect(w).toMatchObject({ status: 'sent', periodBegin: monday, periodEnd: addDays(monday, 6) });
    await disable(hd, weekly);
    const monthly = await created(hd, {
      name: 'HD monthly',
      recipients: 'month@example.com',
      frequency: 'monthly',
      monthDay: 1,
      report: 'alarms',
    });
    const firstOfNext = addDays(D.slice(0, 8) + '28', 7).slice(0, 8) + '01';
    const [m] = await s.app.reportMail.tick(localTime(firstOfNext, '07:30', ZONE));
    expect(m).toMatchObject({ status: 'sent', periodBegin: D.slice(0, 8) + '01', periodEnd: addDays(firstOfNext, -1) });
    await disable(hd, monthly);
  });

  it('records a send the mail server refused, retries it after 5, 10 and 20 minutes, then leaves it', async () => {
    const id = await created(hd, { name: 'HD retry', recipients: 'retry@example.com', sendTime: '05:00' });
    const firing = localTime(addDays(D, 1), '05:00', ZONE);
    const down = otherProcess({ ...mailConfig, port: await closedPort(), timeoutMs: 2000 });
    const [first] = await down.tick(firing);
    expect(first).toMatchObject({ status: 'failed', attempt: 1, sizeBytes: null });
    expect(first.error).toBeTruthy();
    // Not before the backoff; then the second attempt, refused again.
    expect(await down.tick(firing + 4 * MINUTE)).toEqual([]);
    expect(await down.tick(firing + 5 * MINUTE)).toMatchObject([{ status: 'failed', attempt: 2 }]);
    // The mail server is back: the third attempt (10 minutes later) goes out, and nothing after it.
    expect(await s.app.reportMail.tick(firing + 14 * MINUTE)).toEqual([]);
    expect(await s.app.reportMail.tick(firing + 15 * MINUTE)).toMatchObject([{ status: 'sent', attempt: 3, periodBegin: D }]);
    expect(await s.app.reportMail.tick(firing + 60 * MINUTE)).toEqual([]);
    const history = await s.call(hd, 'GET', `/api/vehicle/reportSchedule/${id}/sends`);
    expect(history.body.map((h: { status: string; attempt: number }) => [h.status, h.attempt])).toEqual([
      ['sent', 3],
      ['failed', 2],
      ['failed', 1],
    ]);
    expect(history.body[2].error).toBeTruthy();
    // A firing whose four attempts all fail is given up until the schedule's next firing.
    const next = firing + 24 * 60 * MINUTE;
    for (const after of [0, 5, 15, 35]) expect(await down.tick(next + after * MINUTE)).toMatchObject([{ status: 'failed' }]);
    expect(await down.tick(next + 120 * MINUTE)).toEqual([]);
    expect(await sendsOf(id)).toHaveLength(7);
    await disable(hd, id);
  });

  it('sends the last complete period now and keeps it in the history; only holders of the code may', async () => {
    const id = await created(hd, { name: 'HD now', recipients: 'now@example.com', report: 'health', language: 'ja-JP' });
    const before = smtp.messages.length;
    const r = await s.call(hd, 'POST', `/api/vehicle/reportSchedule/${id}/send`);
    expect(r.status).toBe(200);
    const yesterday = addDays(localDay(Date.now(), ZONE), -1);
    expect(r.body).toMatchObject({ status: 'sent', trigger: 'manual', periodBegin: yesterday, periodEnd: yesterday });
    expect(smtp.messages.length).toBe(before + 1);
    expect(readMail(smtp.messages[before].data).subject).toBe(`車両健康 ${yesterday} · HD now`);
    expect((await s.call(hd, 'GET', `/api/vehicle/reportSchedule/${id}/sends`)).body).toMatchObject([
      { trigger: 'manual', status: 'sent' },
    ]);
    const reader = await s.memberToken('HD', 'orgUser', []);
    expect((await s.call(reader, 'POST', `/api/vehicle/reportSchedule/${id}/send`)).status).toBe(403);
    await disable(hd, id);
  });

  it("keeps another organisation's schedule invisible: not listed, 404 to read, change, send or see its history", async () => {
    const id = await created(hn, { name: 'HN daily', recipients: 'hn@example.com' });
    const list = await s.call(hd, 'POST', '/api/vehicle/reportSchedule/query', { criteria: {}, pageIndex: 1, pageSize: 100 });
    expect(list.body.data.map((x: { id: number }) => x.id)).not.toContain(id);
    expect((await s.call(hd, 'GET', `/api/vehicle/reportSchedule/${id}`)).status).toBe(404);
    expect((await s.call(hd, 'GET', `/api/vehicle/reportSchedule/${id}/sends`)).status).toBe(404);
    expect((await s.call(hd, 'POST', `/api/vehicle/reportSchedule/${id}/send`)).status).toBe(404);
    expect([403, 404]).toContain((await s.call(hd, 'PUT', `/api/vehicle/reportSchedule/${id}`, { recipients: 'spy@example.com' })).status);
    expect(
      (
        await s.call(hd, 'POST', '/api/vehicle/reportSchedule', {
          name: 'into HN',
          report: 'daily',
          frequency: 'daily',
          sendTime: '08:00',
          recipients: 'x@example.com',
          orgId: await s.orgId('HN'),
        })
      ).status,
    ).not.toBe(201);
    expect(await sendsOf(id)).toEqual([]);
    expect((await s.call(hn, 'GET', `/api/vehicle/reportSchedule/${id}`)).body.recipients).toBe('hn@example.com');
    await disable(hn, id);
  });

  it('refuses bad schedules with localised field errors and stores nothing', async () => {
    const count = async () =>
      Number((await sql<{ n: string }>`SELECT count(*) AS n FROM report_schedule`.execute(s.database.db)).rows[0].n);
    const n = await count();
    const bad = async (body: Record<string, unknown>, lang: string) => {
      const r = await create(hd, { name: 'bad', recipients: 'ok@example.com', ...body }, lang);
      expect(r.status).toBe(400);
      return r.body as { code: string; message: string; errors: Array<{ field: string }> };
    };
    const email = await bad({ recipients: 'ok@example.com, not-an-address' }, 'en-US');
    expect(email.errors[0].field).toBe('recipients');
    expect(email.message).toBe('Recipients (e-mail) must be e-mail addresses; not one: not-an-address');
    expect((await bad({ recipients: 'ok@example.com 坏地址' }, 'zh-CN')).message).toBe('收件人（邮箱）须为邮箱地址，以下不是：坏地址');
    const report = await bad({ report: 'fuelTheft' }, 'es-ES');
    expect(report.errors[0].field).toBe('report');
    expect(report.message).toContain('Informe');
    const day31 = await bad({ frequency: 'monthly', monthDay: 31 }, 'en-US');
    expect(day31.errors[0].field).toBe('monthDay');
    expect(day31.message).toBe('Day of month must not be greater than 28');
    expect((await bad({ frequency: 'monthly' }, 'ja-JP')).message).toBe('毎月のレポートには送信日（1–28）が必要です');
    expect((await bad({ frequency: 'weekly', weekday: null }, 'en-US')).message).toBe('A weekly report needs its Weekday (1 Mon – 7 Sun)');
    for (const time of ['25:00', '7:30', '07:60', 'noon'])
      expect((await bad({ sendTime: time }, 'en-US')).errors[0].field).toBe('sendTime');
    expect((await bad({ sendTime: '24:00' }, 'zh-CN')).message).toBe('发送时间（HH:mm）格式不正确');
    expect(await count()).toBe(n);
  });
});
