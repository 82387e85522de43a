import { sql } from 'kysely';
import { bootstrap, type Server } from '../../../server/bootstrap';
import { decodeLocation } from '../../../server/telematics/jt808/messages/location';
import { parseTargetAllow } from '../../../server/notify/target';
import type { StoredPositions } from '../../../server/platform/telemetry';
import { freshPostgres } from '../../helpers/testServer';
import { until } from '../telematics/gateway/harness';
import { Superior } from './superior';

const account = { userId: 8090, password: 'pw809', accessCode: 44030012 };

/**
 * A JT/T 809 link's backlog survives a restart of the server (PostgreSQL: the one database a
 * restarted server finds again): with the superior down, positions published are kept in
 * `forward_backlog`; the server stops and starts again; once the superior is up, every position
 * arrives once, in the order published, and the table is empty. Past the link's limit the oldest
 * are dropped and counted, the count kept across the restart too.
 */
describe('a JT/T 809 link’s backlog across a server restart', () => {
  let pg: { url: string; drop: () => Promise<void> };
  let server: Server | null = null;
  let superior: Superior;

  const start = () =>
    bootstrap({
      database: { databaseUrl: pg.url, poolSize: 4 },
      jwtSecret: 'test-secret',
      app: { logLevel: 'silent', forwardAllow: parseTargetAllow('127.0.0.1') },
      forwarding: { jt809: true },
    });

  beforeAll(async () => {
    pg = await freshPostgres({ seeded: true });
    superior = new Superior({ edition: 2019, ...account });
    await superior.start();
  });
  afterAll(async () => {
    await server?.close();
    await superior?.stop();
    await pg?.drop();
  });

  it('sends what waited, once and in order, after the restart, and counts what the limit dropped', async () => {
    server = await start();
    const db = server.database.db;
    const v = (
      await sql<{ id: number; licence: string; path: string }>`
        SELECT v.id, v.licence, o.path FROM vehicle v JOIN organisation o ON o.id = v.org_id WHERE o.code LIKE 'HD%' ORDER BY v.id LIMIT 1`.execute(
        db,
      )
    ).rows[0];
    await sql`
      INSERT INTO forward_link (org_id, name, protocol, host, port, access_code, user_id, password, down_link_port, backlog_limit)
      SELECT id, 'province', 'jt809', '127.0.0.1', ${superior.port}, ${account.accessCode}, ${account.userId}, ${account.password}, 0, 20
      FROM organisation WHERE code = 'HD'`.execute(db);
    await server.forwarding!.reload();
    const link = () => server!.forwarding!.links()[0];
    await until(() => link()?.state === 'up');
    await superior.stop();
    await until(() => link().state !== 'up');

    // 25 positions while the superior is down: the 5 oldest go past the limit of 20.
    const at = Date.UTC(2026, 11, 8, 2, 0, 0);
    const batch = (from: number, to: number): StoredPositions => ({
      inserted: Array.from({ length: to - from }, (_, i) => ({
        source: {
          terminalId: 1,
          terminalNo: 'T1',
          sim: '1',
          orgId: 1,
          orgPath: v.path,
          vehicleId: v.id,
          licence: v.licence,
          vehicleOrgPath: v.path,
        },
        record: {
          terminalId: 1,
          vehicleId: v.id,
          deviceTime: at + (from + i) * 1000,
          latitude: 22 + (from + i) / 1000,
          longitude: 114,
          altitude: 0,
          speed: 30,
          direction: 0,
          alarm: 0,
          status: 3,
          acc: true,
          fixed: true,
          mileageKm: 1,
          fuelL: null,
          blind: false,
          extras: null,
          dtcs: null,
        },
      })),
    });
    server.bus.publish('positions.stored', batch(0, 10));
    server.bus.publish('positions.stored', batch(10, 25));
    await until(() => link().backlog === 20 && link().counters.dropped === 5);
    await server.close();
    server = null;
    server = await start();
    const db2 = server.database.db;
    expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM forward_backlog`.execute(db2)).rows[0].n).toBe(20);
    await until(() => server!.forwarding!.links()[0]?.backlog === 20);
    expect(server.forwarding!.links()[0].counters.dropped).toBe(5);

    const before = superior.received.length;
    superior = new Superior({ edition: 2019, ...account, port: superior.port });
    await superior.start();
    const latitudes = () =>
      superior
        .messages('position')
        .flatMap((r) => (r.message.kind === 'position' && r.message.gnss2019 ? [r.message.gnss2019.gnssData] : []))
        .map((g) => Math.round(decodeLocation(g, 0, g.length, 480).latitude * 1000) - 22000);
    await until(() => latitudes().length >= 20, 15_000);
    expect(before).toBeGreaterThan(0);
    expect(latitudes()).toEqual(Array.from({ length: 20 }, (_, i) => i + 5));
    await until(
      async () =>
        server!.forwarding!.links()[0].backlog === 0 &&
        (await sql<{ n: number }>`SELECT count(*)::int AS n FROM forward_backlog`.execute(db2)).rows[0].n === 0,
    );
    expect(server.forwarding!.links()[0]).toMatchObject({ state: 'up', backlog: 0, counters: { sent: { position: 20 }, dropped: 5 } });
  });
});
