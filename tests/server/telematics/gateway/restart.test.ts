import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../../../../server/platform/db/database';
import { Fleet } from '../../../../server/simulator/fleet';
import { freePort, startServerProcess } from '../../../helpers/serverProcess';
import { BACKENDS, freshPostgres } from '../../../helpers/testServer';
import { demoTerminal } from './harness';

const root = path.resolve(__dirname, '../../../..');

/** The real server, run by node itself (not through the tsx launcher) so SIGKILL hits the server. */
const startServer = (env: Record<string, string>) =>
  startServerProcess(root, { SIMULATE: '0', ADMIN_PASSWORD: 'Admin2026x', ...env }, ['--no-console'], { direct: true });

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

describe.each(BACKENDS)('killing the server mid-stream (%s)', (backend) => {
  it('loses no acknowledged position: terminals resend after the restart, duplicates are absorbed', async () => {
    const pg = backend === 'postgres' ? await freshPostgres() : null;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fs-restart-'));
    const jt808Port = await freePort();
    const env = { JT808_PORT: String(jt808Port), ...(pg ? { DATABASE_URL: pg.url } : { DATA_DIR: dataDir }) };
    const phones = [1, 2, 5, 9, 17, 18].map(demoTerminal);
    const fleet = new Fleet({
      host: '127.0.0.1',
      port: jt808Port,
      terminals: phones.map((phone) => ({ phone, version: phone === demoTerminal(5) ? 2019 : 2013 })),
      intervalMs: 40,
      timeStepMs: 1000,
      outageChance: 0.02,
      keepAcked: true,
    });
    let server = await startServer(env);
    try {
      await fleet.start();
      await new Promise((r) => setTimeout(r, 1500));
      server.child.kill('SIGKILL');
      await exited(server.child);
      const ackedBeforeCrash = fleet.stats().acked;
      expect(ackedBeforeCrash).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 500)); // reports keep coming while the platform is down
      server = await startServer(env);
      const reached = Date.now() + 20_000;
      const back = () => fleet.stats().online === phones.length && fleet.stats().acked > ackedBeforeCrash + 50;
      while (!back() && Date.now() < reached) await new Promise((r) => setTimeout(r, 100));
      await fleet.stop(15_000);
      const stats = fleet.stats();
      expect(stats.unacked).toBe(0); // everything sent was eventually acknowledged…
      expect(stats.acked).toBe(stats.positions);
      server.child.kill('SIGTERM');
      await exited(server.child);
      expect(server.child.exitCode).toBe(0);

      // …and every acknowledged position is in the database, exactly once.
      const database = await openDatabase(pg ? { databaseUrl: pg.url } : { dataDir });
      try {
        for (const t of fleet.terminals) {
          const r = await sql<{ ms: number }>`
            SELECT (extract(epoch FROM p.device_time) * 1000)::float8 AS ms FROM position p JOIN terminal t ON t.id = p.terminal_id
            WHERE t.terminal_no = ${t.opts.phone} ORDER BY p.device_time`.execute(database.db);
          const stored = r.rows.map((x) => Math.round(Number(x.ms)));
          expect(stored).toEqual([...new Set(t.ackedTimes)].sort((a, b) => a - b));
        }
        const blind = await sql<{ n: number }>`SELECT count(*)::int AS n FROM position WHERE blind`.execute(database.db);
        expect(blind.rows[0].n).toBeGreaterThan(0);
      } finally {
        await database.close();
      }
    } finally {
      fleet.stopping = true;
      for (const t of fleet.terminals) t.destroy();
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
      await exited(server.child);
      fs.rmSync(dataDir, { recursive: true, force: true });
      await pg?.drop();
    }
  }, 120_000);
});
