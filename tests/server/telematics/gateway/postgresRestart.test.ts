/**
 * The real server on a PostgreSQL cluster of the test's own, with simulated terminals reporting,
 * while that PostgreSQL is stopped and started again: acknowledgements stop while it is down (a
 * report is acknowledged only once committed), the server stays up, acknowledgements resume once
 * it is back, and every position the terminals sent is stored exactly once.
 */
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { Fleet } from '../../../../server/simulator/fleet';
import { privatePostgresUnavailable, startPostgresServer, type PostgresServer } from '../../../helpers/postgresServer';
import { freePort, startServerProcess, type ServerProcess } from '../../../helpers/serverProcess';
import { demoTerminal, until } from './harness';

const root = path.resolve(__dirname, '../../../..');
const unavailable = privatePostgresUnavailable();
const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

(unavailable ? describe.skip : describe)(`PostgreSQL restarted under load${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  let pgServer: PostgresServer;
  let server: ServerProcess | undefined;
  let fleet: Fleet | undefined;

  beforeAll(async () => {
    pgServer = await startPostgresServer();
  }, 60_000);
  afterAll(async () => {
    if (fleet) {
      fleet.stopping = true;
      for (const t of fleet.terminals) t.destroy();
      await fleet.stop(0);
    }
    if (server) {
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
      await exited(server.child);
    }
    await pgServer?.destroy();
  });

  it('stops acknowledging while it is down, resumes after, and stores every position exactly once', async () => {
    const jt808Port = await freePort();
    server = await startServerProcess(
      root,
      { DATABASE_URL: pgServer.url, JT808_PORT: String(jt808Port), ADMIN_PASSWORD: 'Admin2026x' },
      ['--no-console'],
      { direct: true },
    );
    const phones = [1, 2, 3, 4, 5, 6].map(demoTerminal);
    fleet = new Fleet({
      host: '127.0.0.1',
      port: jt808Port,
      terminals: phones.map((phone) => ({ phone })),
      intervalMs: 40,
      timeStepMs: 1000,
      outageChance: 0,
      keepAcked: true,
      ackTimeoutMs: 2000,
    });
    const f = fleet;
    await f.start();
    await until(() => f.stats().acked >= 100, 30_000);

    await pgServer.stop();
    // Whatever committed before the stop may still be acknowledged on its way out; after that, none.
    const sentAtStop = f.stats().positions;
    await until(() => f.stats().positions >= sentAtStop + 30, 10_000);
    const ackedWhileDown = f.stats().acked;
    const sentLater = f.stats().positions;
    await until(() => f.stats().positions >= sentLater + 100, 20_000);
    expect(f.stats().acked).toBe(ackedWhileDown);
    expect(f.stats().unacked).toBeGreaterThanOrEqual(100);
    // The server rides it out (its output tells why when it did not).
    expect({ exitCode: server.child.exitCode, output: server.child.exitCode === null ? '' : server.output() }).toEqual({
      exitCode: null,
      output: '',
    });

    await pgServer.start();
    await until(() => f.stats().acked >= ackedWhileDown + 200, 60_000);
    await f.stop(30_000);
    const stats = f.stats();
    expect(stats.unacked).toBe(0);
    expect(stats.acked).toBe(stats.positions);
    expect(stats.obdRecords).toBeGreaterThan(0);
    expect(stats.obdAcked).toBe(stats.obdRecords); // OBD records (0x0900) ride out the outage the same way

    const client = new pg.Client({ connectionString: pgServer.url });
    await client.connect();
    try {
      for (const t of f.terminals) {
        const r = await client.query<{ ms: number }>(
          `SELECT (extract(epoch FROM p.device_time) * 1000)::float8 AS ms FROM position p JOIN terminal t ON t.id = p.terminal_id
           WHERE t.terminal_no = $1 ORDER BY p.device_time`,
          [t.opts.phone],
        );
        const stored = r.rows.map((x) => Math.round(Number(x.ms)));
        const sent = [...new Set(t.ackedTimes)].sort((a, b) => a - b);
        // Every report made was acknowledged (above), each distinct time once: 0 lost, 0 duplicated.
        expect(sent.length).toBe(t.stats.positions);
        expect(stored).toEqual(sent);
      }
      const obd = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM obd_record');
      expect(obd.rows[0].n).toBe(f.stats().obdAcked);
    } finally {
      await client.end();
    }
    expect(await server.stop()).toBe(0);
  }, 180_000);
});
