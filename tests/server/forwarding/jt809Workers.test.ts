/**
 * JT/T 809 links with several gateway workers: only the first runs them (GATEWAY_WORKERS > 1), and
 * the positions and alarms the other workers announce on the bus (NATS JetStream, a server of the
 * test's own) all reach it; the other workers, which run no 809 link, take none of them.
 */

import { sql } from 'kysely';
import { startForwarding, type ForwardingService } from '../../../server/forwarding';
import type { ServerTopics } from '../../../server/platform/bus';
import { createNatsBus, type NatsBus } from '../../../server/platform/natsBus';
import { parseTargetAllow } from '../../../server/notify/target';
import type { StoredPositions } from '../../../server/platform/telemetry';
import { until } from '../telematics/gateway/harness';
import { startNatsServer, type NatsServer } from '../../helpers/natsServer';
import { startTestServer, type TestServer } from '../../helpers/testServer';
import { Superior } from './superior';

const account = { userId: 8090, password: 'pw809', accessCode: 44030012 };

describe('JT/T 809 links with two gateway workers on NATS', () => {
  let s: TestServer;
  let nats: NatsServer;
  let superior: Superior;
  const buses: Array<NatsBus<ServerTopics>> = [];
  const services: ForwardingService[] = [];
  let vehicle: { id: number; licence: string; path: string };

  beforeAll(async () => {
    nats = await startNatsServer();
    s = await startTestServer('postgres');
    superior = new Superior({ edition: 2019, ...account });
    await superior.start();
    const r = await sql<{ id: number; licence: string; path: string }>`
      SELECT v.id, v.licence, o.path FROM vehicle v JOIN organisation o ON o.id = v.org_id WHERE o.code LIKE 'HD%' ORDER BY v.id LIMIT 1`.execute(
      s.database.db,
    );
    vehicle = r.rows[0];
    await sql`
      INSERT INTO forward_link (org_id, name, protocol, host, port, edition, access_code, user_id, password, down_link_port)
      VALUES (${await s.orgId('HD')}, 'province', 'jt809', '127.0.0.1', ${superior.port}, 2019, ${account.accessCode}, ${account.userId},
              ${account.password}, 0)`.execute(s.database.db);
    // Worker 1 runs the 809 links; worker 2 only its raw 808 ones (main.ts: jt809 on the first worker).
    for (const jt809 of [true, false]) {
      const bus = await createNatsBus<ServerTopics>({ url: nats.url });
      buses.push(bus);
      services.push(await startForwarding(bus, { db: s.database.db, jt809, heartbeatMs: 200, allow: parseTargetAllow('127.0.0.1') }));
    }
    await until(() => services[0].links()[0]?.state === 'up');
  });
  afterAll(async () => {
    for (const f of services) await f.stop();
    for (const b of buses) await b.close?.();
    await superior?.stop();
    await s?.close();
    await nats?.stop();
  });

  const stored = (at: number): StoredPositions => ({
    inserted: [
      {
        source: {
          terminalId: 9000 + vehicle.id,
          terminalNo: `T${vehicle.id}`,
          sim: `1440000${vehicle.id}`,
          orgId: 1,
          orgPath: vehicle.path,
          vehicleId: vehicle.id,
          licence: vehicle.licence,
          vehicleOrgPath: vehicle.path,
        },
        record: {
          terminalId: 9000 + vehicle.id,
          vehicleId: vehicle.id,
          deviceTime: at,
          latitude: 22.5,
          longitude: 114.05,
          altitude: 12,
          speed: 60,
          direction: 90,
          alarm: 0,
          status: 3,
          acc: true,
          fixed: true,
          mileageKm: 1000,
          fuelL: null,
          blind: false,
          extras: null,
          dtcs: null,
        },
      },
    ],
  });

  it('runs the link in the first worker only', () => {
    expect(services[0].links()).toHaveLength(1);
    expect(services[1].links()).toEqual([]);
  });

  it("delivers every position and alarm either worker announces, in the first worker's link", async () => {
    const at = Date.UTC(2026, 11, 8, 2, 0, 0);
    // Twenty batches from each worker's bus: a second member of the shared group would have taken about half.
    for (let i = 0; i < 40; i++) buses[i % 2].publish('positions.stored', stored(at + i * 1000));
    const begin = new Date(at);
    const alarms = await sql<{ id: number }>`
      INSERT INTO alarm (vehicle_id, type, category, level, subject, begin_time, end_time, fired_at, value)
      SELECT ${vehicle.id}, 'OverSpeed', 'terminal', 'high', '', ${begin}::timestamptz + n * interval '1 minute',
             ${begin}::timestamptz + n * interval '1 minute' + interval '30 seconds', ${begin}, 95
      FROM generate_series(1, 6) n RETURNING id`.execute(s.database.db);
    alarms.rows.forEach((a, i) =>
      buses[i % 2].publish('alarm.raised', { alarmId: a.id, vehicleId: vehicle.id, orgPath: vehicle.path, type: 'OverSpeed', at }),
    );
    await until(() => superior.messages('position').length === 40 && superior.messages('warnInfo').length === 6, 20_000);
    expect(services[0].links()[0].counters.sent.position).toBe(40);
  });
});
