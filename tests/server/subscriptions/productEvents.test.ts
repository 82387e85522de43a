/**
 * Trip, command-result and media events through the whole server (bootstrap: gateway over TCP,
 * derivation, on PostgreSQL on its own thread, the bus and the outbox) to a real receiver: a vehicle
 * drives and parks (its closed trip), answers a text command (its result) and uploads a photo in
 * packages (the media); each arrives once, signed, with what the API shows of it. A report that
 * changes nothing of the trip sends it no second time.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { bootstrap, type Server } from '../../../server/bootstrap';
import { parseTargetAllow } from '../../../server/notify/target';
import { seed } from '../../../server/seed/seed';
import { SimTerminal } from '../../../server/simulator/terminal';
import { subscriptionDelivery, type SubscriptionDelivery } from '../../../server/subscriptions/deliverer';
import { encodeMessageFrames, MsgId } from '../../../server/telematics/jt808/codec';
import { freePort } from '../../helpers/serverProcess';
import { ADMIN_PASSWORD, BACKENDS, freshPostgres } from '../../helpers/testServer';
import { ScriptedDay } from '../intelligence/alarms/scriptedDay';
import { receiver, type Receiver } from '../notify/receiver';
import { demoTerminal, RawClient, until } from '../telematics/gateway/harness';

const DAY = '2026-11-24T00:00:00Z';

/** A delivery's body as documented (docs/api.md, Event subscriptions). */
interface Delivered {
  event: string;
  id: string;
  occurredAt: string;
  vehicleId: number;
  licence: string | null;
  data: Record<string, unknown>;
}

describe.each(BACKENDS)('trip, command and media events on %s', (backend) => {
  const allow = parseTargetAllow('127.0.0.2');
  let pg: Awaited<ReturnType<typeof freshPostgres>> | null = null;
  let dir: string;
  let server: Server;
  let hook: Receiver;
  let delivery: SubscriptionDelivery;
  let token: string;
  let jt808Port: number;

  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const r = await server.app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}` } });
    return { status: r.statusCode, body: r.json() as Record<string, unknown> };
  };
  const queued = async () =>
    (
      await sql<{ type: string; n: number }>`SELECT event_type AS type, count(*)::int AS n FROM subscription_delivery GROUP BY 1`.execute(
        server.database.db,
      )
    ).rows;
  const bodies = (event: string) =>
    hook.hits.filter((h) => h.headers['x-fleet-event'] === event).map((h) => JSON.parse(h.body) as Delivered);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'events-test-'));
    pg = backend === 'postgres' ? await freshPostgres() : null;
    jt808Port = await freePort();
    server = await bootstrap({
      database: pg ? { databaseUrl: pg.url, poolSize: 6 } : { dataDir: 'memory://' },
      seed: (db) => seed(db, { demo: true, adminPassword: ADMIN_PASSWORD }),
      app: { logLevel: 'silent', webhookAllow: allow, mediaDir: path.join(dir, 'media') },
      telematics: { config: { jt808Port, host: '127.0.0.1', tokenTtlHours: 12, dataDir: dir } },
      // The delivery clock is this test's (drained below), not the server's timer.
      derivation: { timeZone: 'Asia/Shanghai', clock: false, thread: backend === 'postgres' },
    });
    hook = await receiver(200);
    delivery = subscriptionDelivery({ db: server.database.db, allow, timeoutMs: 5000 });
    const login = await server.app.inject({ method: 'POST', url: '/api/login', payload: { loginName: 'admin', password: ADMIN_PASSWORD } });
    token = (login.json() as { object: { token: string } }).object.token;
  }, 240_000);
  afterAll(async () => {
    await delivery?.stop();
    await hook?.close();
    await server?.close();
    await pg?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('delivers a closed trip, a command result and a photo once each', async () => {
    const created = await call('POST', '/api/vehicle/subscription', {
      name: 'ERP',
      url: `${hook.url}/events`,
      eventTypes: ['trip', 'command-result', 'media'],
    });
    expect(created.status).toBe(200);

    // A vehicle parks, drives 12 minutes and parks again for 20: one closed trip.
    const phone = demoTerminal(1);
    const t = new SimTerminal({ host: '127.0.0.1', port: jt808Port, phone });
    await t.connect();
    const day = new ScriptedDay(DAY, { latitude: 31.2, longitude: 121.4 })
      .step(10 * 60, 0, { acc: false, every: 60 })
      .step(12 * 60, 40, { every: 30, heading: 90 })
      .step(20 * 60, 0, { acc: false, every: 60 });
    for (const r of day.reports) t.report(r);
    await t.drain();

    // A text command the terminal answers.
    const terminal = await sql<{ id: number }>`SELECT id FROM terminal WHERE terminal_no = ${phone}`.execute(server.database.db);
    const sent = await call('POST', `/api/vehicle/terminal/${terminal.rows[0].id}/command/text`, { text: '请回电', waitMs: 5000 });
    expect(sent.body).toMatchObject({ status: 'acked' });

    // A photo of another vehicle's terminal, in 3 packages.
    const camera = demoTerminal(2);
    const raw = await RawClient.registered(jt808Port, camera);
    const photo = Buffer.alloc(1200, 7);
    photo.set([0xff, 0xd8], 0);
    photo.set([0xff, 0xd9], photo.length - 2);
    const frames = encodeMessageFrames(
      { phone: camera, serial: 50 },
      {
        msgId: MsgId.MediaData,
        body: {
          mediaId: 9,
          type: 0,
          format: 0,
          event: 1,
          channel: 2,
          location: { latitude: 31.3, longitude: 121.5, time: DAY },
          data: photo,
        },
      },
      { maxPacketBody: 500 },
    );
    for (const f of frames) raw.sendBytes(f);

    await server.derivation!.idle();
    await until(async () => (await queued()).length === 3, 30_000);
    await delivery.drain();
    raw.destroy();

    const [trip] = bodies('trip');
    expect(bodies('trip')).toHaveLength(1);
    expect(trip).toMatchObject({ event: 'trip', licence: expect.any(String), data: { driver: null, distanceSource: expect.any(String) } });
    expect(Number(trip.data.distanceKm)).toBeGreaterThan(7);
    expect(Number(trip.data.durationS)).toBeGreaterThanOrEqual(11 * 60);
    expect(trip.occurredAt).toBe(trip.data.end);

    expect(bodies('command-result')).toEqual([
      expect.objectContaining({
        event: 'command-result',
        data: expect.objectContaining({ kind: 'text', status: 'acked', result: 0, terminalNo: phone, request: { text: '请回电' } }),
      }),
    ]);
    const [media] = bodies('media');
    expect(bodies('media')).toHaveLength(1);
    expect(media.data).toMatchObject({
      mediaId: 9,
      type: 'image',
      format: 'jpeg',
      channel: 2,
      bytes: 1200,
      takenAt: DAY.replace('Z', '.000Z'),
    });
    // The file the event names is served to the subscriber's organisation.
    const file = await server.app.inject({ method: 'GET', url: String(media.data.url), headers: { authorization: `Bearer ${token}` } });
    expect(file.rawPayload.equals(photo)).toBe(true);

    // The vehicle reports on, parked: the trip is derived again unchanged and not sent again.
    t.report({ ...day.reports[day.reports.length - 1], time: Date.parse(DAY) + 43 * 60_000 });
    await t.drain();
    await server.derivation!.idle();
    await delivery.drain();
    expect(bodies('trip')).toHaveLength(1);
    await t.end();
  }, 180_000);
});
