import { sql } from 'kysely';
import { notifyDispatcher, type NotifyDispatcher } from '../../../server/notify/dispatcher';
import { parseTargetAllow } from '../../../server/notify/target';
import { multipartFile, XLSX } from '../../helpers/multipart';
import { startTestServer, type TestServer } from '../../helpers/testServer';
import { xlsxOf } from '../../helpers/xlsx';
import { receiver, type Receiver } from './receiver';

/**
 * Where rules may post and whom they may name: every spelling of a loopback, private, link-local,
 * multicast or unspecified target refused when a rule is saved and again when it delivers (a rule
 * saved before the guard), with a generic reason in the delivery log; the operator's allow list
 * lets a local receiver through; receivers are limited to the rule's own subtree.
 */
describe('webhook targets and receivers', () => {
  const allow = parseTargetAllow('127.0.0.2');
  let s: TestServer;
  let hd: string;
  /** Listens on every address of both families: any loopback form that got through would hit it. */
  let trap: Receiver;
  /** On 127.0.0.2, the one local address the operator allows. */
  let allowed: Receiver;
  let notifier: NotifyDispatcher;
  const warnings: object[] = [];

  beforeAll(async () => {
    s = await startTestServer('pglite', { webhookAllow: allow });
    hd = await s.memberToken('HD', 'administrator');
    trap = await receiver(204, '::');
    allowed = await receiver(204);
    notifier = notifyDispatcher({
      db: s.database.db,
      timeZone: 'Asia/Shanghai',
      attempts: 3,
      backoffMs: 20,
      timeoutMs: 2000,
      allow,
      log: { warn: (obj) => warnings.push(obj) },
    });
  });
  afterAll(async () => {
    await notifier?.stop();
    await trap?.close();
    await allowed?.close();
    await s?.close();
  });

  /** Every way the review reached the server itself, its network or the metadata service, and their IPv6 relatives. */
  const forbidden = (): string[] => {
    const p = trap.port;
    return [
      `http://127.0.0.1:${p}/`,
      `http://localhost:${p}/`,
      `http://0.0.0.0:${p}/`,
      `http://[::1]:${p}/`,
      `http://[::]:${p}/`,
      `http://127.1:${p}/`,
      `http://2130706433:${p}/`,
      `http://0x7f000001:${p}/`,
      `http://0177.0.0.1:${p}/`,
      `https://127.0.0.1:${p}/`,
      `http://[::ffff:127.0.0.1]:${p}/`,
      `http://[::ffff:7f00:1]:${p}/`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/',
      'http://10.0.0.1/',
      'http://172.16.5.4/',
      'http://192.168.1.1/',
      'http://100.64.0.1/',
      'http://[::ffff:10.0.0.1]/',
      'http://[64:ff9b::a00:1]/',
      'http://[fc00::1]/',
      'http://[fd12:3456::1]/',
      'http://[fe80::1]/',
      'http://224.0.0.1/',
      'http://[ff02::1]/',
      'http://255.255.255.255/',
    ];
  };

  const ruleBody = (url: string, extra: Record<string, unknown> = {}) => ({
    name: `hook ${url}`.slice(0, 64),
    alarmType: 'Crash',
    channel: 'webhook',
    url,
    ...extra,
  });

  it('refuses each forbidden target when a rule is created, updated or imported, in the caller’s language', async () => {
    for (const url of forbidden()) {
      const r = await s.call(hd, 'POST', '/api/vehicle/notify', ruleBody(url));
      expect({ url, status: r.status, code: r.body.code }).toEqual({ url, status: 400, code: 'notify.targetForbidden' });
    }
    const zh = await s.call(hd, 'POST', '/api/vehicle/notify', ruleBody('http://127.0.0.1/'), 'zh-CN');
    expect(zh.body.errors).toEqual([{ field: 'url', key: 'notify.targetForbidden', message: expect.stringContaining('内网') }]);
    const en = await s.call(hd, 'POST', '/api/vehicle/notify', ruleBody('http://127.0.0.1/'), 'en-US');
    expect(en.body.message).toContain('private network');
    const unparsable = await s.call(hd, 'POST', '/api/vehicle/notify', ruleBody('http://[zz]/'), 'en-US');
    expect(unparsable.body).toMatchObject({ code: 'notify.urlNotHttp', message: expect.stringContaining('http://') });

    // The allowed receiver and a public address save; an update to a forbidden one does not.
    const ok = await s.call(hd, 'POST', '/api/vehicle/notify', ruleBody(`${allowed.url}/saved`));
    expect(ok.status).toBe(201);
    expect((await s.call(hd, 'POST', '/api/vehicle/notify', ruleBody('https://hooks.example.com/fleet'))).status).toBe(201);
    const moved = await s.call(hd, 'PUT', `/api/vehicle/notify/${ok.body.id}`, { url: 'http://[::1]/' });
    expect(moved).toMatchObject({ status: 400, body: { code: 'notify.targetForbidden' } });
    expect((await s.call(hd, 'GET', `/api/vehicle/notify/${ok.body.id}`)).body.url).toBe(`${allowed.url}/saved`);

    const file = await xlsxOf([
      ['name', 'alarmType', 'channel', 'url'],
      ['imported loopback', 'Crash', 'webhook', 'http://2130706433/'],
      ['imported public', 'Crash', 'webhook', 'https://hooks.example.com/imported'],
    ]);
    const { payload, headers } = multipartFile('rules.xlsx', file, XLSX);
    const imported = await s.app.inject({
      method: 'POST',
      url: '/api/vehicle/notify/import',
      payload,
      headers: { ...headers, authorization: `Bearer ${hd}`, 'accept-language': 'en-US' },
    });
    expect(imported.statusCode).toBe(400);
    expect(imported.json().rows).toEqual([{ row: 2, errors: [expect.objectContaining({ field: 'url', key: 'notify.targetForbidden' })] }]);
  });

  /** An alarm of a vehicle of HD-SH, as the engine stores it, and its delivery through the rules of that type. */
  const raise = async (type: string): Promise<number> => {
    const db = s.database.db;
    const r = await sql<{ id: number }>`
      INSERT INTO alarm (vehicle_id, type, category, level, subject, begin_time, end_time, fired_at, value)
      SELECT v.id, ${type}, 'terminal', 'critical', '', now(), NULL, now(), NULL FROM vehicle v JOIN organisation o ON o.id = v.org_id
      WHERE o.code = 'HD-SH' ORDER BY v.id LIMIT 1 RETURNING id`.execute(db);
    notifier.onRaised([{ id: r.rows[0].id }]);
    return r.rows[0].id;
  };
  /** A rule stored as it was before the guard (or by hand): no save check on the way. */
  const storedRule = async (
    org: string,
    fields: { name: string; alarmType: string; channel: string; url?: string; receivers?: string },
  ): Promise<number> =>
    (
      await sql<{ id: number }>`INSERT INTO notify (org_id, name, alarm_type, channel, url, receivers, enabled)
        SELECT id, ${fields.name}, ${fields.alarmType}, ${fields.channel}, ${fields.url ?? null}, ${fields.receivers ?? null}, true FROM organisation WHERE code = ${org} RETURNING id`.execute(
        s.database.db,
      )
    ).rows[0].id;

  it('refuses each forbidden target again at delivery, a name resolving to the loopback at connect, and logs only a generic reason', async () => {
    const urls = forbidden();
    const ids = new Map<number, string>();
    for (const [i, url] of urls.entries())
      ids.set(await storedRule('HD', { name: `legacy ${i}`, alarmType: 'Fatigue', channel: i % 2 ? 'sms' : 'webhook', url }), url);
    const through = await storedRule('HD', {
      name: 'allowed receiver',
      alarmType: 'Fatigue',
      channel: 'webhook',
      url: `${allowed.url}/delivered`,
    });
    const alarmId = await raise('Fatigue');
    await notifier.idle();

    const log = (await s.call(hd, 'POST', '/api/vehicle/notify/delivery/query', { criteria: { alarmId }, pageIndex: 1, pageSize: 100 }))
      .body.data as Array<{ notifyId: number; status: string; attempts: number; httpStatus: number | null; error: string | null }>;
    const refused = log
      .filter((d) => ids.has(d.notifyId))
      .map((d) => ({ url: ids.get(d.notifyId), status: d.status, attempts: d.attempts, httpStatus: d.httpStatus, error: d.error }));
    expect(refused).toHaveLength(urls.length);
    // Not retried either: no later attempt can change the answer.
    for (const d of refused) expect(d).toEqual({ url: d.url, status: 'failed', attempts: 1, httpStatus: null, error: 'target refused' });
    expect(trap.hits).toEqual([]);
    expect(log.find((d) => d.notifyId === through)).toMatchObject({ status: 'delivered', httpStatus: 204 });
    expect(allowed.hits.map((h) => h.path)).toEqual(['/delivered']);
    // The server log has what the delivery log does not: localhost was resolved, and refused, at connect.
    expect(JSON.stringify(warnings)).toContain('localhost resolves to 127.0.0.1');
  });

  it('logs a receiver that refuses or is unreachable as "delivery failed", without its socket error', async () => {
    const closed = await receiver(204);
    const port = closed.port;
    await closed.close();
    const hook = await storedRule('HD', { name: 'closed port', alarmType: 'Fault', channel: 'webhook', url: `http://127.0.0.2:${port}/` });
    const alarmId = await raise('Fault');
    await notifier.idle();
    const log = (
      await s.call(hd, 'POST', '/api/vehicle/notify/delivery/query', { criteria: { alarmId, notifyId: hook }, pageIndex: 1, pageSize: 10 })
    ).body.data;
    expect(log).toEqual([expect.objectContaining({ status: 'failed', attempts: 3, httpStatus: null, error: 'delivery failed' })]);
    expect(JSON.stringify(warnings)).toContain('ECONNREFUSED');
  });

  it('limits receivers to the rule’s subtree: refused when saved, left out when sent', async () => {
    const db = s.database.db;
    const inside = await s.addMember('HD-SH', 'orgUser');
    const sibling = await s.addMember('HN', 'orgUser');
    await sql`UPDATE member SET mobile = '13900000001' WHERE id = ${inside.id}`.execute(db);
    await sql`UPDATE member SET mobile = '13900000002' WHERE id = ${sibling.id}`.execute(db);
    await sql`UPDATE member SET mobile = '13900000009' WHERE login_name = 'admin'`.execute(db);

    // The platform's admin (above HD), another tenant's member and a name nobody has are refused alike.
    const refused = await s.call(
      hd,
      'POST',
      '/api/vehicle/notify',
      {
        name: 'sms to all',
        alarmType: 'Idle',
        channel: 'sms',
        url: `${allowed.url}/sms`,
        receivers: `${inside.loginName}, admin; ${sibling.loginName} nobody-here 13800000000`,
      },
      'en-US',
    );
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { field: 'receivers', key: 'notify.receiverOutside', message: expect.stringContaining(`admin, ${sibling.loginName}, nobody-here`) },
    ]);
    expect(refused.body.message).not.toContain(inside.loginName);
    for (const channel of ['platform', 'app', 'email']) {
      expect(
        (await s.call(hd, 'POST', '/api/vehicle/notify', { name: `${channel} to admin`, alarmType: 'Idle', channel, receivers: 'admin' }))
          .body.code,
      ).toBe('notify.receiverOutside');
    }
    const saved = await s.call(hd, 'POST', '/api/vehicle/notify', {
      name: 'sms inside',
      alarmType: 'Idle',
      channel: 'sms',
      url: `${allowed.url}/sms-saved`,
      receivers: `${inside.loginName.toUpperCase()} 13800000000 duty@example.com`,
    });
    expect(saved.status).toBe(201);
    expect((await s.call(hd, 'PUT', `/api/vehicle/notify/${saved.body.id}`, { receivers: 'admin' })).body.code).toBe(
      'notify.receiverOutside',
    );

    // Rules stored before the check send to their subtree only.
    await storedRule('HD', {
      name: 'legacy sms',
      alarmType: 'Idle',
      channel: 'sms',
      url: `${allowed.url}/sms-legacy`,
      receivers: `admin ${inside.loginName} ${sibling.loginName}`,
    });
    const consoleRule = await storedRule('HD', {
      name: 'legacy console',
      alarmType: 'Idle',
      channel: 'platform',
      receivers: `admin ${inside.loginName}`,
    });
    const alarmId = await raise('Idle');
    await notifier.idle();
    const sms = allowed.hits.filter((h) => h.path === '/sms-legacy').map((h) => JSON.parse(h.body) as { to: string[] });
    expect(sms.map((b) => b.to)).toEqual([['13900000001']]);
    const savedSms = allowed.hits.filter((h) => h.path === '/sms-saved').map((h) => (JSON.parse(h.body) as { to: string[] }).to);
    expect(savedSms).toEqual([['13900000001', '13800000000']]);
    const unread = await sql<{
      memberId: number;
    }>`SELECT member_id AS "memberId" FROM notify_unread WHERE notify_id = ${consoleRule} AND alarm_id = ${alarmId}`.execute(db);
    expect(unread.rows.map((u) => u.memberId)).toEqual([inside.id]);
  });
});
