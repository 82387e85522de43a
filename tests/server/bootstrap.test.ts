import net from 'node:net';
import type { Kysely } from 'kysely';
import { bootstrap } from '../../server/bootstrap';
import type { DB } from '../../server/platform/db/tables';
import type { StoredPositions } from '../../server/platform/telemetry';
import { SimTerminal } from '../../server/simulator/terminal';
import { seed } from '../../server/seed/seed';
import { freePort } from '../helpers/serverProcess';
import { ADMIN_PASSWORD, BACKENDS, freshPostgres } from '../helpers/testServer';

/** Whether a TCP connection to the port is refused (nothing listens). */
const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

const T0 = Date.parse('2026-11-20T08:00:00Z');
const PHONE = '808000000001'; // a demo terminal, fitted to a demo vehicle

describe.each(BACKENDS)('bootstrap on %s', (backend) => {
  it('opens, migrates, seeds, serves, runs telematics publishing committed positions on the bus, and closes it all', async () => {
    const pg = backend === 'postgres' ? await freshPostgres() : null;
    try {
      const jt808Port = await freePort();
      const server = await bootstrap({
        database: pg ? { databaseUrl: pg.url, poolSize: 4 } : { dataDir: 'memory://' },
        seed: (db) => seed(db, { demo: true, adminPassword: ADMIN_PASSWORD }),
        app: { logLevel: 'silent' },
        telematics: { config: { jt808Port, host: '127.0.0.1', tokenTtlHours: 12 } },
      });
      const batches: StoredPositions[] = [];
      const off = server.bus.subscribe('positions.stored', (b) => void batches.push(b));
      // The secret kept in the database signs the tokens the app issues.
      const kept = await server.database.db
        .selectFrom('app_setting')
        .select('value')
        .where('key', '=', 'jwt_secret')
        .executeTakeFirstOrThrow();
      expect(kept.value).toBe(server.secret);
      const login = await server.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { loginName: 'admin', password: ADMIN_PASSWORD },
      });
      expect(login.statusCode).toBe(200);

      const t = new SimTerminal({ host: '127.0.0.1', port: jt808Port, phone: PHONE });
      await t.connect();
      t.report({
        latitude: 31.23,
        longitude: 121.47,
        speed: 40,
        direction: 90,
        status: { accOn: true, fixed: true },
        time: T0,
        extras: {},
      });
      await t.drain();
      await t.end();
      off();
      // Acknowledged only after the commit, and the commit is published before the acknowledgement.
      const records = batches.flatMap((b) => b.inserted);
      expect(records).toHaveLength(1);
      expect(records[0].source.terminalNo).toBe(PHONE);
      expect(records[0].record).toMatchObject({ deviceTime: T0, latitude: 31.23, longitude: 121.47 });
      expect(records[0].record.vehicleId).toEqual(expect.any(Number));

      await server.close();
      await expect(server.database.db.selectFrom('organisation').select('id').execute()).rejects.toThrow();
      await expect(refused(jt808Port)).resolves.toBe(true);
    } finally {
      await pg?.drop();
    }
  });

  it('closes the database it opened when a later step fails, and rethrows', async () => {
    const pg = backend === 'postgres' ? await freshPostgres() : null;
    try {
      let seeded: Kysely<DB> | undefined;
      await expect(
        bootstrap({
          database: pg ? { databaseUrl: pg.url, poolSize: 2 } : { dataDir: 'memory://' },
          seed: async (db) => {
            seeded = db;
            throw new Error('seed failed');
          },
          app: { logLevel: 'silent' },
        }),
      ).rejects.toThrow('seed failed');
      // Migrated before the seed ran, closed after it failed.
      expect(seeded).toBeDefined();
      await expect(seeded!.selectFrom('schema_migration').select('name').execute()).rejects.toThrow();
    } finally {
      await pg?.drop();
    }
  });
});
