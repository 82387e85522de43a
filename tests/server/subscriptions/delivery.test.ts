import { sql } from 'kysely';
import { parseTargetAllow } from '../../../server/notify/target';
import { signBody } from '../../../server/notify/webhook';
import type { StoredPositions, TerminalIdentity } from '../../../server/platform/telemetry';
import { subscriptionDelivery, type SubscriptionDelivery } from '../../../server/subscriptions/deliverer';
import { alarmEvents, positionEvents } from '../../../server/subscriptions/events';
import { startSubscriptions } from '../../../server/subscriptions';
import { enqueue, PAUSE_AFTER_MS } from '../../../server/subscriptions/outbox';
import { createBus } from '../../../server/platform/bus';
import { until } from '../telematics/gateway/harness';
import { BACKENDS, startTestServer, type TestServer } from '../../helpers/testServer';
import { receiver, type Receiver } from '../notify/receiver';
import { readMail, startSmtpServer, type SmtpServer } from '../../helpers/smtpServer';

const MIN = 60_000;

/**
 * Event subscriptions through the real server and database, to a real local receiver: the retry
 * clock is driven with chosen instants (never slept on). A receiver down for ten minutes gets every
 * event afterwards, in order per vehicle and once per delivery key; signatures verify; replay sends
 * again; an endpoint failing for six hours is paused, keeps its outbox and resumes.
 */
describe.each(BACKENDS)('event subscriptions on %s', (backend) => {
  const allow = parseTargetAllow('127.0.0.2');
  let s: TestServer;
  let hd: string;
  let hn: string;
  let hook: Receiver;
  let delivery: SubscriptionDelivery;
  let vehicles: Array<{ id: number; licence: string; path: string }>;
  let hnVehicle: number;
  let smtp: SmtpServer;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    const mail = { host: '127.0.0.1', port: smtp.port, secure: false, from: 'fleet@fleet.example' };
    s = await startTestServer(backend, { webhookAllow: allow });
    hd = await s.memberToken('HD', 'administrator');
    hn = await s.memberToken('HN', 'administrator');
    hook = await receiver(503);
    delivery = subscriptionDelivery({ db: s.database.db, allow, timeoutMs: 2000, smtp: mail });
    const r = await sql<{ id: number; licence: string; path: string; code: string }>`
      SELECT v.id, v.licence, o.path, o.code FROM vehicle v JOIN organisation o ON o.id = v.org_id ORDER BY v.id`.execute(s.database.db);
    vehicles = r.rows.filter((v) => v.code.startsWith('HD')).slice(0, 2);
    hnVehicle = r.rows.find((v) => v.code.startsWith('HN'))!.id;
    base = Date.now() + MIN;
    // Opening PGlite and seeding take a while on a loaded machine.
  }, 240_000);
  afterAll(async () => {
    await delivery?.stop();
    await hook?.close();
    await smtp?.close();
    await s?.close();
  });

  /** Positions of the HD vehicles as the writer's committed batch carries them. */
  const positions = (items: Array<{ vehicle: number; at: number }>): StoredPositions => ({
    inserted: items.map(({ vehicle, at }) => {
      const v = vehicles[vehicle];
      const source: TerminalIdentity = {
        terminalId: 9000 + vehicle,
        terminalNo: `T${vehicle}`,
        sim: `1440000000${vehicle}`,
        orgId: 1,
        orgPath: v.path,
        vehicleId: v.id,
        licence: v.licence,
        vehicleOrgPath: v.path,
      };
      const record = {
        terminalId: source.terminalId,
        vehicleId: v.id,
        deviceTime: at,
        latitude: 31.2,
        longitude: 121.4,
        altitude: 5,
        speed: 40,
        direction: 90,
        alarm: 0,
        status: 3,
        acc: true,
        fixed: true,
        mileageKm: null,
        fuelL: null,
        blind: false,
        extras: null,
        dtcs: null,
      };
      return { source, record };
    }),
  });

  const keyOf = (h: Receiver['hits'][number]) => String(h.headers['x-fleet-delivery']);
  /** A minute past the start of this backend's suite (set in beforeAll: the other backend's suite may have run long before). */
  let base: number;
  let id: number;
  let secret: string;
  let alarmId: number;

  it('refuses bad input in the caller’s language, and targets the guard forbids', async () => {
    const body = { name: 'ERP', url: `${hook.url}/events`, eventTypes: ['position', 'alarm'] };
    const loop = await s.call(hd, 'POST', '/api/vehicle/subscription', { ...body, url: 'http://127.0.0.1:8080/' }, 'zh-CN');
    expect(loop).toMatchObject({ status: 400, body: { code: 'notify.targetForbidden', message: expect.stringContaining('内网') } });
    const en = await s.call(hd, 'POST', '/api/vehicle/subscription', { ...body, url: 'ftp://hooks.example.com/' }, 'en-US');
    expect(en).toMatchObject({ status: 400, body: { code: 'notify.urlNotHttp', message: expect.stringContaining('Endpoint URL') } });
    const type = await s.call(hd, 'POST', '/api/vehicle/subscription', { ...body, eventTypes: ['weather'] }, 'es-ES');
    expect(type.status).toBe(400);
    expect(type.body.message).toContain('Tipos de evento');
    const outside = await s.call(hd, 'POST', '/api/vehicle/subscription', { ...body, vehicleIds: [hnVehicle] }, 'ja-JP');
    expect(outside).toMatchObject({
      status: 400,
      body: { code: 'subscription.vehicleOutside', message: expect.stringContaining(String(hnVehicle)) },
    });
    const hnOrg = await s.orgId('HN');
    expect((await s.call(hd, 'POST', '/api/vehicle/subscription', { ...body, orgId: hnOrg }, 'en-US')).body.code).toBe(
      'subscription.orgOutside',
    );
    const short = await s.call(hd, 'POST', '/api/vehicle/subscription', { ...body, secret: 'short' }, 'en-US');
    expect(short.body.code).toBe('notify.secretTooShort');
    expect((await s.call(hd, 'GET', '/api/vehicle/subscription')).body).toEqual([]);
  });

  it('creates a subscription with its secret shown once, invisible to another organisation', async () => {
    const r = await s.call(hd, 'POST', '/api/vehicle/subscription', {
      name: 'ERP',
      url: `${hook.url}/events`,
      eventTypes: ['position', 'alarm'],
      vehicleIds: vehicles.map((v) => v.id),
    });
    expect(r.status).toBe(200);
    ({ id, secret } = r.body);
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(r.body).toMatchObject({ state: 'active', eventTypes: ['position', 'alarm'], pending: 0 });
    const read = await s.call(hd, 'GET', `/api/vehicle/subscription/${id}`);
    expect(read.body).toMatchObject({ id, name: 'ERP' });
    expect(read.body.secret).toBeUndefined();
    expect((await s.call(hn, 'GET', '/api/vehicle/subscription')).body).toEqual([]);
    for (const [method, url, body] of [
      ['GET', `/api/vehicle/subscription/${id}`],
      ['PUT', `/api/vehicle/subscription/${id}`, { name: 'x' }],
      ['DELETE', `/api/vehicle/subscription/${id}`],
      ['POST', `/api/vehicle/subscription/${id}/replay`, { from: new Date(base).toISOString() }],
      ['POST', `/api/vehicle/subscription/${id}/delivery/query`, {}],
    ] as const)
      expect({ method, url, status: (await s.call(hn, method, url, body)).status }).toEqual({ method, url, status: 404 });
  });

  it('refuses the loopback when connecting unless the operator allows it', async () => {
    await enqueue(s.database.db, positionEvents(positions([{ vehicle: 0, at: base - 10 * MIN }])));
    const guarded = subscriptionDelivery({ db: s.database.db });
    try {
      expect(await guarded.drain(base)).toBe(1);
    } finally {
      await guarded.stop();
    }
    expect(hook.hits).toEqual([]);
    const log = await s.call(hd, 'POST', `/api/vehicle/subscription/${id}/delivery/query`, {});
    expect(log.body.data).toEqual([expect.objectContaining({ status: 'pending', attempts: 1, error: 'target refused', httpStatus: null })]);
  });

  it('delivers every event after a receiver down for ten minutes, in order per vehicle, once per key, signed', async () => {
    const db = s.database.db;
    const batch = positions([
      { vehicle: 0, at: base - 9 * MIN },
      { vehicle: 1, at: base - 9 * MIN },
      { vehicle: 1, at: base - 8 * MIN },
      { vehicle: 0, at: base - 8 * MIN },
      { vehicle: 0, at: base - 7 * MIN },
    ]);
    expect(await enqueue(db, positionEvents(batch))).toBe(5);
    // The bus may deliver a batch twice: queued once.
    expect(await enqueue(db, positionEvents(batch))).toBe(0);
    const alarm = await sql<{ id: number }>`
      INSERT INTO alarm (vehicle_id, type, category, level, subject, begin_time, fired_at)
      VALUES (${vehicles[1].id}, 'Crash', 'terminal', 'critical', '', ${new Date(base - 6 * MIN).toISOString()}::timestamptz, now()) RETURNING id`.execute(
      db,
    );
    alarmId = alarm.rows[0].id;
    expect(await enqueue(db, await alarmEvents(db, [alarmId]))).toBe(1);

    // Down for ten minutes: only each vehicle's oldest event is tried, again and again.
    for (let t = base + 10_000; t <= base + 10 * MIN; t += 5000) await delivery.drain(t);
    const tried = new Set(hook.hits.map(keyOf));
    expect([...tried].sort()).toEqual([`${id}:position:9000:${base - 10 * MIN}`, `${id}:position:9001:${base - 9 * MIN}`]);
    expect(hook.hits.length).toBeGreaterThan(6);

    hook.status = 200;
    const downHits = hook.hits.length;
    await delivery.drain(base + 2 * 60 * MIN);
    const after = hook.hits.slice(downHits);
    const keys = after.map(keyOf);
    expect(new Set(keys).size).toBe(keys.length);
    const perVehicle = (terminal: number) =>
      after
        .map((h) => JSON.parse(h.body) as { id: string; vehicleId: number })
        .filter((e) => e.vehicleId === vehicles[terminal].id)
        .map((e) => e.id);
    expect(perVehicle(0)).toEqual([10, 9, 8, 7].map((m) => `position:9000:${base - m * MIN}`));
    expect(perVehicle(1)).toEqual([`position:9001:${base - 9 * MIN}`, `position:9001:${base - 8 * MIN}`, `alarm:${alarmId}`]);
    for (const h of after) {
      expect(h.headers['x-fleet-signature']).toBe(signBody(secret, String(h.headers['x-fleet-timestamp']), h.body));
      expect(h.headers['x-fleet-event']).toBe(JSON.parse(h.body).event);
    }
    const log = await s.call(hd, 'POST', `/api/vehicle/subscription/${id}/delivery/query`, { pageSize: 50 });
    expect(log.body.total).toBe(7);
    expect(
      log.body.data.every(
        (d: { status: string; httpStatus: number; latencyMs: number }) =>
          d.status === 'delivered' && d.httpStatus === 200 && d.latencyMs >= 0,
      ),
    ).toBe(true);
    expect(Math.max(...log.body.data.map((d: { attempts: number }) => d.attempts))).toBeGreaterThan(3);
  });

  it('replays the events from a time with their delivery keys', async () => {
    const from = new Date(base - 8 * MIN).toISOString();
    const bad = await s.call(hd, 'POST', `/api/vehicle/subscription/${id}/replay`, { from: 'yesterday' }, 'en-US');
    expect(bad.status).toBe(400);
    const r = await s.call(hd, 'POST', `/api/vehicle/subscription/${id}/replay`, { from });
    expect(r.body).toEqual({ id, queued: 4 });
    const before = hook.hits.length;
    await delivery.drain(Date.now() + 3 * 60 * MIN);
    const again = [
      `position:9000:${base - 8 * MIN}`,
      `position:9000:${base - 7 * MIN}`,
      `position:9001:${base - 8 * MIN}`,
      `alarm:${alarmId}`,
    ];
    expect(hook.hits.slice(before).map(keyOf).sort()).toEqual(again.map((k) => `${id}:${k}`).sort());
  });

  it('pauses an endpoint failing for six hours, keeps its outbox, and resumes', async () => {
    const db = s.database.db;
    // Whom to tell: an address, or nothing else.
    const bad = await s.call(hd, 'PUT', `/api/vehicle/subscription/${id}`, { contactEmail: 'ops at erp' }, 'en-US');
    expect(bad).toMatchObject({ status: 400, body: { message: expect.stringContaining('Contact e-mail') } });
    const contact = await s.call(hd, 'PUT', `/api/vehicle/subscription/${id}`, { contactEmail: 'ops@erp.example' });
    expect(contact.body).toMatchObject({ contactEmail: 'ops@erp.example' });
    hook.status = 500;
    const t0 = Date.now() + 4 * 60 * MIN;
    await enqueue(db, positionEvents(positions([{ vehicle: 0, at: base + MIN }])));
    await delivery.drain(t0);
    for (let t = t0; t < t0 + PAUSE_AFTER_MS; t += 30 * MIN) await delivery.drain(t);
    expect((await s.call(hd, 'GET', `/api/vehicle/subscription/${id}`)).body.state).toBe('active');
    await delivery.drain(t0 + PAUSE_AFTER_MS + MIN);
    const paused = await s.call(hd, 'GET', `/api/vehicle/subscription/${id}`);
    expect(paused.body).toMatchObject({ state: 'paused', pausedReason: 'failing', pending: 1 });
    const audit = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM audit_log WHERE action = 'subscriptionPaused' AND target = 'ERP'`.execute(db);
    expect(audit.rows[0].n).toBe(1);
    // The contact is told once, in Chinese and English, with how to resume.
    expect(smtp.messages.map((m) => m.to)).toEqual([['ops@erp.example']]);
    const told = readMail(smtp.messages[0].data);
    expect(told.subject).toContain('事件订阅已暂停');
    expect(told.subject).toContain('Event subscription paused: ERP');

    // Paused: events still queue, nothing is sent.
    await enqueue(db, positionEvents(positions([{ vehicle: 0, at: base + 2 * MIN }])));
    const before = hook.hits.length;
    expect(await delivery.drain(t0 + PAUSE_AFTER_MS + 2 * MIN)).toBe(0);
    expect(hook.hits.length).toBe(before);

    hook.status = 204;
    const resumed = await s.call(hd, 'PUT', `/api/vehicle/subscription/${id}`, { state: 'active' });
    expect(resumed.body).toMatchObject({ state: 'active', pausedReason: null, failingSince: null, pending: 2 });
    await delivery.drain(t0 + PAUSE_AFTER_MS + 3 * MIN);
    expect(hook.hits.slice(before).map(keyOf)).toEqual([`${id}:position:9000:${base + MIN}`, `${id}:position:9000:${base + 2 * MIN}`]);
    expect((await s.call(hd, 'GET', `/api/vehicle/subscription/${id}`)).body.pending).toBe(0);
  });

  it('queues what the bus announces, as the server wires it', async () => {
    const db = s.database.db;
    const bus = createBus();
    const feed = startSubscriptions(bus, { db, allow, clock: false });
    const types = await s.call(hd, 'PUT', `/api/vehicle/subscription/${id}`, { eventTypes: ['position', 'alarm', 'geofence'] });
    expect(types.body.eventTypes).toEqual(['position', 'alarm', 'geofence']);
    try {
      // A fence exit is a geofence event (subscribed), maintenance due a maintenance event (not subscribed).
      const other = await sql<{ id: number; type: string }>`
        INSERT INTO alarm (vehicle_id, type, category, level, subject, begin_time, fired_at)
        VALUES (${vehicles[1].id}, 'FenceOut', 'fence', 'medium', '', ${new Date(base + 2 * MIN).toISOString()}::timestamptz, now()),
               (${vehicles[1].id}, 'MaintenanceDue', 'obd', 'low', '', ${new Date(base + 2 * MIN).toISOString()}::timestamptz, now())
        RETURNING id, type`.execute(db);
      for (const a of other.rows)
        bus.publish('alarm.raised', {
          alarmId: a.id,
          vehicleId: vehicles[1].id,
          orgPath: vehicles[1].path,
          type: a.type,
          at: base + 2 * MIN,
        });
      const fenceOut = other.rows.find((a) => a.type === 'FenceOut')!.id;
      const alarm = await sql<{ id: number }>`
        INSERT INTO alarm (vehicle_id, type, category, level, subject, begin_time, fired_at)
        VALUES (${vehicles[0].id}, 'Crash', 'terminal', 'critical', '', ${new Date(base + 3 * MIN).toISOString()}::timestamptz, now()) RETURNING id`.execute(
        db,
      );
      bus.publish('alarm.raised', {
        alarmId: alarm.rows[0].id,
        vehicleId: vehicles[0].id,
        orgPath: vehicles[0].path,
        type: 'Crash',
        at: base + 3 * MIN,
      });
      bus.publish('positions.stored', positions([{ vehicle: 1, at: base + 3 * MIN }]));
      const queued = async () =>
        (
          await sql<{
            key: string;
          }>`SELECT event_key AS key FROM subscription_delivery WHERE subscription_id = ${id} AND status = 'pending' ORDER BY event_key`.execute(
            db,
          )
        ).rows.map((r) => r.key);
      await until(async () => (await queued()).length === 3);
      expect(await queued()).toEqual([`alarm:${alarm.rows[0].id}`, `alarm:${fenceOut}`, `position:9001:${base + 3 * MIN}`].sort());
      const before = hook.hits.length;
      await feed.delivery.drain(Date.now() + 8 * 60 * MIN);
      const sent = hook.hits.slice(before);
      expect(sent.map(keyOf).sort()).toEqual(
        [`${id}:alarm:${alarm.rows[0].id}`, `${id}:alarm:${fenceOut}`, `${id}:position:9001:${base + 3 * MIN}`].sort(),
      );
      expect(sent.find((h) => keyOf(h) === `${id}:alarm:${fenceOut}`)!.headers['x-fleet-event']).toBe('geofence');
    } finally {
      await feed.stop();
    }
  });

  it('sends each event once when several processes drain the outbox together, still in order per vehicle', async () => {
    const times = Array.from({ length: 15 }, (_, i) => base + (10 + i) * MIN);
    await enqueue(
      s.database.db,
      positionEvents(
        positions(
          times.flatMap((at) => [
            { vehicle: 0, at },
            { vehicle: 1, at },
          ]),
        ),
      ),
    );
    const other = subscriptionDelivery({ db: s.database.db, allow, timeoutMs: 2000, batch: 1 });
    const before = hook.hits.length;
    try {
      const now = Date.now() + 9 * 60 * MIN;
      await Promise.all([delivery.drain(now), other.drain(now), delivery.drain(now)]);
    } finally {
      await other.stop();
    }
    const sent = hook.hits.slice(before).map((h) => JSON.parse(h.body) as { id: string; vehicleId: number });
    expect(sent).toHaveLength(30);
    for (const v of [0, 1])
      expect(sent.filter((e) => e.vehicleId === vehicles[v].id).map((e) => e.id)).toEqual(times.map((at) => `position:900${v}:${at}`));
  });

  it('changes and deletes a subscription', async () => {
    const moved = await s.call(hd, 'PUT', `/api/vehicle/subscription/${id}`, { url: 'http://[::1]/' }, 'en-US');
    expect(moved).toMatchObject({ status: 400, body: { code: 'notify.targetForbidden' } });
    expect((await s.call(hd, 'PUT', `/api/vehicle/subscription/${id}`, {})).status).toBe(400);
    const renamed = await s.call(hd, 'PUT', `/api/vehicle/subscription/${id}`, { name: 'ERP 2', vehicleIds: null });
    expect(renamed.body).toMatchObject({ name: 'ERP 2', vehicleIds: null, url: `${hook.url}/events` });
    expect((await s.call(hd, 'DELETE', `/api/vehicle/subscription/${id}`)).status).toBe(204);
    expect((await s.call(hd, 'GET', `/api/vehicle/subscription/${id}`)).status).toBe(404);
  });
});
