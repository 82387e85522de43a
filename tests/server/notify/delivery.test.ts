import { createHmac } from 'node:crypto';
import { sql } from 'kysely';
import { notifyDispatcher } from '../../../server/notify/dispatcher';
import { parseTargetAllow } from '../../../server/notify/target';
import { readMail, startSmtpServer, type SmtpServer } from '../../helpers/smtpServer';
import { BACKENDS } from '../../helpers/testServer';
import { demoTerminal, until } from '../telematics/gateway/harness';
import { startAlarmRig, type AlarmRig } from '../intelligence/alarms/rig';
import { receiver, type Receiver } from './receiver';

/** 'HH:MM' in Shanghai, `minutes` from now. */
const shanghai = (minutes: number): string => new Date(Date.now() + 8 * 3600_000 + minutes * 60_000).toISOString().slice(11, 16);

describe.each(BACKENDS)('alarm notifications by rule on %s', (backend) => {
  let rig: AlarmRig;
  let ok: Receiver;
  let failing: Receiver;
  let hd: string;
  let smtp: SmtpServer;
  const SECRET = 'a-secret-of-24-characters';

  beforeAll(async () => {
    smtp = await startSmtpServer({ refuse: ['nobody@example.com'], user: 'fleet', password: 'mail-pass' });
    // The receivers listen on 127.0.0.2, which webhooks reach only because the operator allows it.
    rig = await startAlarmRig(backend, {
      webhookAllow: parseTargetAllow('127.0.0.2'),
      smtp: { host: '127.0.0.1', port: smtp.port, secure: false, user: 'fleet', password: 'mail-pass', from: 'alarms@fleet.example' },
    });
    ok = await receiver(204);
    failing = await receiver(500);
    hd = await rig.s.memberToken('HD', 'administrator');
  });
  afterAll(async () => {
    await rig?.close();
    await ok?.close();
    await failing?.close();
    await smtp?.close();
  });

  const rule = async (body: Record<string, unknown>): Promise<number> => {
    const r = await rig.s.call(hd, 'POST', '/api/vehicle/notify', body);
    if (r.status !== 200 && r.status !== 201) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
    return r.body.id as number;
  };

  it('posts signed webhooks, retries a failing one then logs the failure, keeps quiet hours, other types and disabled rules silent, and fills the named member’s unread list', async () => {
    const named = await rig.s.addMember('HD-SH', 'orgUser');
    const other = await rig.s.addMember('HD-SH', 'orgUser');
    const signed = await rule({ name: 'crash hook', alarmType: 'Crash', channel: 'webhook', url: `${ok.url}/signed` });
    expect((await rig.s.call(hd, 'PUT', `/api/vehicle/notify/${signed}/secret`, { secret: SECRET })).status).toBe(200);
    const bad = await rule({ name: 'crash failing', alarmType: 'Crash', channel: 'webhook', url: `${failing.url}/fail` });
    await rule({ name: 'low hook', alarmType: 'Low', channel: 'webhook', url: `${ok.url}/low` });
    await rule({
      name: 'quiet hook',
      alarmType: 'Crash',
      channel: 'webhook',
      url: `${ok.url}/quiet`,
      quietStart: shanghai(-60),
      quietEnd: shanghai(60),
    });
    const off = await rule({ name: 'disabled hook', alarmType: 'Crash', channel: 'webhook', url: `${ok.url}/disabled` });
    await rule({ name: 'crash console', alarmType: 'Crash', channel: 'platform', receivers: named.loginName });

    // Enabling and disabling takes its own code; the secret is never read back.
    expect((await rig.s.call(named.token, 'PUT', `/api/vehicle/notify/${off}/disable`)).status).toBe(403);
    expect((await rig.s.call(hd, 'PUT', `/api/vehicle/notify/${off}/pause`)).status).toBe(400);
    expect((await rig.s.call(hd, 'PUT', `/api/vehicle/notify/${off}/disable`)).body).toEqual({ id: off, enabled: false });
    expect((await rig.s.call(hd, 'PUT', `/api/vehicle/notify/${signed}/secret`, { secret: 'short' })).status).toBe(400);
    const read = await rig.s.call(hd, 'GET', `/api/vehicle/notify/${signed}`);
    expect(read.body).not.toHaveProperty('secret');
    expect(JSON.stringify(read.body)).not.toContain(SECRET);

    const phone = demoTerminal(4);
    const t0 = Date.now() - 60_000;
    const at = (i: number, bits: number) => ({
      time: t0 + i * 10_000,
      latitude: 31.2,
      longitude: 121.4,
      speed: 30,
      alarm: bits,
      status: { accOn: true, fixed: true },
    });
    await rig.send(phone, [at(0, 0), at(1, 1 << 29), at(2, 0)]);
    await until(async () => ok.hits.some((h) => h.path === '/signed') && failing.hits.length === 3, 20_000);
    await rig.notifier.idle();

    const hit = ok.hits.find((h) => h.path === '/signed')!;
    const ts = hit.headers['x-fleet-timestamp'] as string;
    expect(Math.abs(Number(ts) * 1000 - Date.now())).toBeLessThan(60_000);
    expect(hit.headers['x-fleet-signature']).toBe('sha256=' + createHmac('sha256', SECRET).update(`${ts}.${hit.body}`).digest('hex'));
    const payload = JSON.parse(hit.body) as { alarm: { type: string; vehicleId: number; licence: string } };
    expect(payload.alarm.type).toBe('Crash');
    expect(payload.alarm.vehicleId).toBe(await rig.vehicleOf(phone));
    // Quiet hours, another type and a disabled rule send nothing.
    expect(ok.hits.map((h) => h.path)).toEqual(['/signed']);
    expect(failing.hits).toHaveLength(3);

    const log = await rig.s.call(hd, 'POST', '/api/vehicle/notify/delivery/query', {
      criteria: { notifyId: bad },
      pageIndex: 1,
      pageSize: 20,
    });
    expect(log.body.data).toEqual([
      expect.objectContaining({ notifyId: bad, status: 'failed', attempts: 3, httpStatus: 500, alarmType: 'Crash' }),
    ]);
    const delivered = await rig.s.call(hd, 'POST', '/api/vehicle/notify/delivery/query', {
      criteria: { status: 'delivered' },
      pageIndex: 1,
      pageSize: 20,
    });
    expect(delivered.body.data.map((d: { notifyId: number }) => d.notifyId)).toEqual([signed]);
    // Another subtree sees none of this log.
    const hn = await rig.s.memberToken('HN', 'administrator');
    expect((await rig.s.call(hn, 'POST', '/api/vehicle/notify/delivery/query', null)).body.data).toEqual([]);
    expect((await rig.s.call(hn, 'PUT', `/api/vehicle/notify/${off}/enable`)).status).toBe(404);

    // The console rule names one member: only that member has it unread, until it is marked read.
    const unread = await rig.s.call(named.token, 'POST', '/api/vehicle/notify/unread/query', { pageIndex: 1, pageSize: 20 });
    expect(unread.body.data.map((a: { type: string }) => a.type)).toEqual(['Crash']);
    expect((await rig.s.call(other.token, 'POST', '/api/vehicle/notify/unread/query', null)).body.data).toEqual([]);
    expect((await rig.s.call(named.token, 'PUT', '/api/vehicle/notify/unread/read', { alarmIds: [unread.body.data[0].id] })).body).toEqual({
      read: 1,
    });
    expect((await rig.s.call(named.token, 'POST', '/api/vehicle/notify/unread/query', null)).body.data).toEqual([]);
  });

  it("delivers a tick's alarms of two organisations to the console together: each member is pushed, and keeps unread, only those of its subtree", async () => {
    const hdMember = await rig.s.addMember('HD', 'administrator');
    const hnMember = await rig.s.addMember('HN', 'administrator');
    await rule({ name: 'fuel console HD', alarmType: 'FuelDrain', channel: 'platform' });
    const hn = await rig.s.memberToken('HN', 'administrator');
    expect(
      (await rig.s.call(hn, 'POST', '/api/vehicle/notify', { name: 'fuel console HN', alarmType: 'FuelDrain', channel: 'app' })).status,
    ).toBe(201);
    const db = rig.s.database.db;
    const pathOf = async (code: string) =>
      (await sql<{ path: string }>`SELECT path FROM organisation WHERE code = ${code}`.execute(db)).rows[0].path;
    const vehicles = [await rig.vehicleOf(demoTerminal(2)), await rig.vehicleOf(demoTerminal(10)), await rig.vehicleOf(demoTerminal(18))];
    const ids: number[] = [];
    for (const [i, vehicleId] of vehicles.entries()) {
      const r = await sql<{ id: number }>`
        INSERT INTO alarm (vehicle_id, type, category, level, subject, begin_time, end_time, fired_at, value)
        VALUES (${vehicleId}, 'FuelDrain', 'obd', 'high', '', ${new Date(Date.now() - (i + 1) * 60_000)}, NULL, ${new Date(Date.now() - (i + 1) * 60_000)}, 12) RETURNING id`.execute(
        db,
      );
      ids.push(r.rows[0].id);
    }
    const pushedTo = new Map<number, number[]>();
    const subscribe = (memberId: number, orgPath: string) =>
      rig.hub!.add({
        orgPath,
        memberId,
        backlog: () => 0,
        send: (json) => {
          const m = JSON.parse(json) as { type: string; items?: Array<{ id: number }> };
          if (m.type === 'alarm') pushedTo.set(memberId, [...(pushedTo.get(memberId) ?? []), ...m.items!.map((a) => a.id)]);
        },
      });
    subscribe(hdMember.id, await pathOf('HD'));
    subscribe(hnMember.id, await pathOf('HN'));
    rig.notifier.onRaised(ids.map((id) => ({ id })));
    await until(() => pushedTo.size === 2, 20_000);
    await rig.notifier.idle();
    // HD holds the first two vehicles (its two teams), HN the third; each pushed once.
    expect(pushedTo.get(hdMember.id)!.sort()).toEqual(ids.slice(0, 2).sort());
    expect(pushedTo.get(hnMember.id)).toEqual([ids[2]]);
    const unreadOf = async (token: string) =>
      (
        (await rig.s.call(token, 'POST', '/api/vehicle/notify/unread/query', { pageIndex: 1, pageSize: 20 })).body.data as Array<{
          id: number;
        }>
      )
        .map((a) => a.id)
        .sort();
    expect(await unreadOf(hdMember.token)).toEqual(ids.slice(0, 2).sort());
    expect(await unreadOf(hnMember.token)).toEqual([ids[2]]);
  });

  it('mails an alarm over SMTP (with AUTH PLAIN) to the addresses the rule names, and logs a refused recipient as failed after its retries', async () => {
    const mailed = await rule({ name: 'crash mail', alarmType: 'Crash', channel: 'email', receivers: 'ops@example.com; Duty@Example.com' });
    const refused = await rule({ name: 'crash mail refused', alarmType: 'Crash', channel: 'email', receivers: 'nobody@example.com' });
    const phone = demoTerminal(5);
    const t0 = Date.now() - 60_000;
    const at = (i: number, bits: number) => ({
      time: t0 + i * 10_000,
      latitude: 31.2,
      longitude: 121.4,
      speed: 30,
      alarm: bits,
      status: { accOn: true, fixed: true },
    });
    await rig.send(phone, [at(0, 0), at(1, 1 << 29), at(2, 0)]);
    await until(
      async () => smtp.messages.length === 1 && smtp.commands.filter((c) => c === 'RCPT TO:<nobody@example.com>').length === 3,
      20_000,
    );
    await rig.notifier.idle();

    const [m] = smtp.messages;
    expect(m).toMatchObject({ from: 'alarms@fleet.example', auth: 'fleet:mail-pass' });
    expect(m.to).toEqual(['ops@example.com', 'duty@example.com']);
    const mail = readMail(m.data);
    const licence = (
      await sql<{ licence: string }>`SELECT licence FROM vehicle WHERE id = ${await rig.vehicleOf(phone)}`.execute(rig.s.database.db)
    ).rows[0].licence;
    expect(mail.subject).toBe(`${licence} Crash`);
    expect(mail.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(mail.body).toContain('alarm: Crash (terminal, critical)');
    expect(mail.body).toContain(`vehicle: ${licence}`);

    const log = async (notifyId: number) =>
      (await rig.s.call(hd, 'POST', '/api/vehicle/notify/delivery/query', { criteria: { notifyId }, pageIndex: 1, pageSize: 20 })).body
        .data;
    expect(await log(mailed)).toEqual([expect.objectContaining({ status: 'delivered', attempts: 1, httpStatus: 250 })]);
    expect(await log(refused)).toEqual([
      expect.objectContaining({
        status: 'failed',
        attempts: 3,
        httpStatus: 550,
        error: expect.stringContaining('RCPT TO nobody@example.com: 550'),
      }),
    ]);
  });

  it('resumes the deliveries a stopped process left pending', async () => {
    const flaky = await receiver(503);
    try {
      const hook = await rule({ name: 'crash hook resumed', alarmType: 'Crash', channel: 'webhook', url: `${flaky.url}/resumed` });
      const db = rig.s.database.db;
      // What a process stopped between two retries leaves: one attempt made, the delivery still pending.
      const alarmId = (await sql<{ id: number }>`SELECT id FROM alarm WHERE type = 'Crash' ORDER BY id LIMIT 1`.execute(db)).rows[0].id;
      await sql`INSERT INTO notify_delivery (notify_id, alarm_id, channel, url, status, attempts, http_status, error)
                VALUES (${hook}, ${alarmId}, 'webhook', ${`${flaky.url}/resumed`}, 'pending', 1, 503, 'HTTP 503')`.execute(db);
      flaky.status = 204;
      const next = notifyDispatcher({
        db,
        timeZone: 'Asia/Shanghai',
        attempts: 3,
        backoffMs: 50,
        timeoutMs: 2000,
        allow: parseTargetAllow('127.0.0.2'),
      });
      try {
        expect(await next.resume()).toBe(1);
        await next.idle();
      } finally {
        await next.stop();
      }
      expect(flaky.hits.map((h) => h.path)).toEqual(['/resumed']);
      expect(JSON.parse(flaky.hits[0].body)).toMatchObject({ event: 'alarm', notifyId: hook, alarm: { id: alarmId, type: 'Crash' } });
      const log = (
        await rig.s.call(hd, 'POST', '/api/vehicle/notify/delivery/query', { criteria: { notifyId: hook }, pageIndex: 1, pageSize: 20 })
      ).body.data;
      expect(log).toEqual([expect.objectContaining({ status: 'delivered', attempts: 2, httpStatus: 204 })]);
      // Nothing is left to resume.
      const again = notifyDispatcher({ db, timeZone: 'Asia/Shanghai' });
      expect(await again.resume()).toBe(0);
      await again.stop();
    } finally {
      await flaky.close();
    }
  });
});
