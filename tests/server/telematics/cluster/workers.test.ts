/**
 * The real server with GATEWAY_WORKERS=2 on one PostgreSQL and a nats-server of the test's own:
 * terminals spread over both workers; one worker is killed with SIGKILL in the middle of the load;
 * its terminals reconnect (to the other worker, or the one forked again) and no acknowledged
 * position is lost. Before that: a new alarm's toast reaches the member's sockets on both workers,
 * and a command sent through either worker reaches the terminal wherever it is connected.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../../../../server/platform/db/database';
import { SimTerminal } from '../../../../server/simulator/terminal';
import { startNatsServer, type NatsServer } from '../../../helpers/natsServer';
import { freePort, http, startServerProcess, type ServerProcess } from '../../../helpers/serverProcess';
import { openSocket, type TestSocket } from '../../../helpers/wsClient';
import { ADMIN_PASSWORD, freshPostgres } from '../../../helpers/testServer';
import { demoTerminal, until } from '../gateway/harness';

const root = path.resolve(__dirname, '../../../..');
const T0 = Date.parse('2026-11-23T08:00:00Z');

describe('GATEWAY_WORKERS=2 with NATS', () => {
  let nats: NatsServer;
  let pg: { url: string; drop: () => Promise<void> };
  let server: ServerProcess;
  let database: Database;
  let jt808Port: number;

  beforeAll(async () => {
    nats = await startNatsServer();
    pg = await freshPostgres();
    jt808Port = await freePort();
    server = await startServerProcess(
      root,
      { DATABASE_URL: pg.url, NATS_URL: nats.url, GATEWAY_WORKERS: '2', SEED: 'demo', ADMIN_PASSWORD, JT808_PORT: String(jt808Port) },
      ['--no-console'],
      { direct: true },
    );
    database = await openDatabase({ databaseUrl: pg.url, poolSize: 2 });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await database?.close();
    await pg?.drop();
    await nats?.stop();
  });

  // The worker processes (node), not the tsx loader's esbuild service.
  const workers = () =>
    execFileSync('pgrep', ['-P', String(server.child.pid), '-x', 'node'], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);

  it('pushes a new alarm to the member on every worker, and sends a command from either worker to the terminal', async () => {
    await until(() => workers().length === 2, 30_000);
    await sql`INSERT INTO notify (org_id, name, alarm_type, channel) SELECT id, 'crash to console', 'Crash', 'platform' FROM organisation WHERE parent_id IS NULL`.execute(database.db);
    const login = await http(`${server.url}/api/login`, 'POST', { loginName: 'admin', password: ADMIN_PASSWORD });
    const token = login.json.object.token as string;
    // node:cluster hands connections to the workers in turn: four sockets land on both.
    const sockets: TestSocket[] = [];
    for (let i = 0; i < 4; i++) {
      const ws = await openSocket(`${server.url.replace('http', 'ws')}/api/vehicle/live?token=${token}`);
      await ws.until((m) => m.some((x) => x.type === 'hello'));
      sockets.push(ws);
    }
    const phone = demoTerminal(7);
    const t = new SimTerminal({ host: '127.0.0.1', port: jt808Port, phone, keepAcked: true });
    try {
      await t.connect();
      const t0 = Date.now() - 60_000;
      for (const [i, bits] of [0, 1 << 29, 0].entries()) {
        t.report({ time: t0 + i * 10_000, latitude: 31.2, longitude: 121.4, speed: 30, alarm: bits, status: { accOn: true, fixed: true } });
      }
      await t.drain();
      const crash = (m: TestSocket['messages']) => m.some((x) => x.type === 'alarm' && (x.items as Array<{ type: string }>).some((a) => a.type === 'Crash'));
      for (const ws of sockets) await ws.until(crash, 30_000);

      // Each request on a new connection, so both workers serve some; every one reaches the terminal.
      const terminalId = (await sql<{ id: number }>`SELECT id FROM terminal WHERE terminal_no = ${phone}`.execute(database.db)).rows[0].id;
      for (let i = 0; i < 4; i++) {
        const r = await http(`${server.url}/api/vehicle/terminal/${terminalId}/command/location`, 'POST', { waitMs: 10_000 }, token, { connection: 'close' });
        expect(r.json).toMatchObject({ kind: 'location', status: 'acked' });
      }
    } finally {
      for (const ws of sockets) ws.close();
      t.destroy();
    }
  }, 120_000);

  it('drops a terminal’s session on a registration reset through either worker, wherever the terminal is connected', async () => {
    await until(() => workers().length === 2, 30_000);
    const token = (await http(`${server.url}/api/login`, 'POST', { loginName: 'admin', password: ADMIN_PASSWORD })).json.object.token as string;
    // Four terminals and four requests, each on a new connection: both workers hold some and serve some.
    const phones = [8, 9, 10, 11].map(demoTerminal);
    const terminals = phones.map((phone) => new SimTerminal({ host: '127.0.0.1', port: jt808Port, phone }));
    try {
      for (const t of terminals) await t.connect();
      for (const [k, phone] of phones.entries()) {
        const terminalId = (await sql<{ id: number }>`SELECT id FROM terminal WHERE terminal_no = ${phone}`.execute(database.db)).rows[0].id;
        const r = await http(`${server.url}/api/vehicle/terminal/${terminalId}/resetRegistration`, 'PUT', undefined, token, { connection: 'close' });
        expect(r.status).toBe(200);
        await until(() => !terminals[k].isOnline, 10_000);
      }
      // Each reset says it found the session to drop (the audit's detail is JSON text).
      const audits = await sql<{ detail: string }>`SELECT detail FROM audit_log WHERE action = 'terminalResetRegistration' ORDER BY id`.execute(database.db);
      expect(audits.rows.map((r) => (JSON.parse(r.detail) as { disconnected: boolean }).disconnected)).toEqual([true, true, true, true]);
    } finally {
      for (const t of terminals) t.destroy();
    }
  }, 120_000);

  it('keeps every acknowledged position when a worker is killed with SIGKILL under load', async () => {
    await until(() => workers().length === 2, 30_000);
    const phones = [1, 2, 3, 4, 5, 6].map(demoTerminal);
    const terminals = phones.map((phone) => new SimTerminal({ host: '127.0.0.1', port: jt808Port, phone, keepAcked: true, ackTimeoutMs: 2000 }));
    let stopping = false;
    for (const t of terminals) {
      // A real terminal reconnects when its link drops, and resends what was not acknowledged.
      t.on('close', () => {
        const again = async () => {
          while (!stopping && !t.isOnline) await t.connect().catch(() => new Promise((r) => setTimeout(r, 300)));
        };
        void again();
      });
    }
    await Promise.all(terminals.map((t) => t.connect()));
    let i = 0;
    const load = setInterval(() => {
      for (const t of terminals) t.report({ latitude: 31.2, longitude: 121.4 + i * 1e-5, speed: 30, direction: 0, status: { accOn: true, fixed: true }, time: T0 + i * 1000 });
      i++;
    }, 20);
    try {
      await until(() => terminals.every((t) => t.stats.acked >= 20), 30_000);
      const [victim] = workers();
      process.kill(victim, 'SIGKILL');
      await until(() => terminals.some((t) => !t.isOnline), 10_000);
      const ackedAtKill = terminals.map((t) => t.stats.acked);
      await until(() => terminals.every((t, k) => t.isOnline && t.stats.acked >= ackedAtKill[k] + 20), 60_000);
    } finally {
      clearInterval(load);
    }
    for (const t of terminals) {
      t.resendUnacked(0);
      await t.drain(60_000);
    }
    stopping = true;
    for (const [k, t] of terminals.entries()) {
      const stored = await sql<{ ms: number }>`SELECT (extract(epoch FROM p.device_time) * 1000)::float8 AS ms
        FROM position p JOIN terminal t ON t.id = p.terminal_id WHERE t.terminal_no = ${phones[k]}`.execute(database.db);
      const have = new Set(stored.rows.map((r) => Math.round(Number(r.ms))));
      expect(t.ackedTimes.filter((ms) => !have.has(ms))).toEqual([]);
    }
    for (const t of terminals) t.destroy();
    // The killed worker was forked again.
    await until(() => workers().length === 2, 30_000);
  }, 180_000);
});
