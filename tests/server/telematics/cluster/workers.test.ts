/**
 * The real server with GATEWAY_WORKERS=2 on one PostgreSQL and a nats-server of the test's own:
 * terminals spread over both workers; one worker is killed with SIGKILL in the middle of the load;
 * its terminals reconnect (to the other worker, or the one forked again) and no acknowledged
 * position is lost. Before that: a new alarm's toast reaches the member's sockets on both workers,
 * a command sent through either worker reaches the terminal wherever it is connected, and one
 * terminal logged in at both workers at once keeps only its later session.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../../../../server/platform/db/database';
import { SimTerminal } from '../../../../server/simulator/terminal';
import type { SessionOpened } from '../../../../server/telematics/gateway/host';
import { startNatsServer, type NatsServer } from '../../../helpers/natsServer';
import { freePort, http, startServerProcess, type ServerProcess } from '../../../helpers/serverProcess';
import { openSocket, type TestSocket } from '../../../helpers/wsClient';
import { ADMIN_PASSWORD, freshPostgres } from '../../../helpers/testServer';
import { MsgId } from '../../../../server/telematics/jt808/codec';
import { demoTerminal, RawClient, until } from '../gateway/harness';

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
    await sql`INSERT INTO notify (org_id, name, alarm_type, channel) SELECT id, 'crash to console', 'Crash', 'platform' FROM organisation WHERE parent_id IS NULL`.execute(
      database.db,
    );
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
      const crash = (m: TestSocket['messages']) =>
        m.some((x) => x.type === 'alarm' && (x.items as Array<{ type: string }>).some((a) => a.type === 'Crash'));
      for (const ws of sockets) await ws.until(crash, 30_000);

      // Each request on a new connection, so both workers serve some; every one reaches the terminal.
      const terminalId = (await sql<{ id: number }>`SELECT id FROM terminal WHERE terminal_no = ${phone}`.execute(database.db)).rows[0].id;
      for (let i = 0; i < 4; i++) {
        const r = await http(`${server.url}/api/vehicle/terminal/${terminalId}/command/location`, 'POST', { waitMs: 10_000 }, token, {
          connection: 'close',
        });
        expect(r.json).toMatchObject({ kind: 'location', status: 'acked' });
      }
    } finally {
      for (const ws of sockets) ws.close();
      t.destroy();
    }
  }, 120_000);

  it('drops a terminal’s session on a registration reset through either worker, wherever the terminal is connected', async () => {
    await until(() => workers().length === 2, 30_000);
    const token = (await http(`${server.url}/api/login`, 'POST', { loginName: 'admin', password: ADMIN_PASSWORD })).json.object
      .token as string;
    // Four terminals and four requests, each on a new connection: both workers hold some and serve some.
    const phones = [8, 9, 10, 11].map(demoTerminal);
    const terminals = phones.map((phone) => new SimTerminal({ host: '127.0.0.1', port: jt808Port, phone }));
    try {
      for (const t of terminals) await t.connect();
      for (const [k, phone] of phones.entries()) {
        const terminalId = (await sql<{ id: number }>`SELECT id FROM terminal WHERE terminal_no = ${phone}`.execute(database.db)).rows[0]
          .id;
        const r = await http(`${server.url}/api/vehicle/terminal/${terminalId}/resetRegistration`, 'PUT', undefined, token, {
          connection: 'close',
        });
        expect(r.status).toBe(200);
        await until(() => !terminals[k].isOnline, 10_000);
      }
      // Each reset says it found the session to drop (the audit's detail is JSON text).
      const audits = await sql<{
        detail: string;
      }>`SELECT detail FROM audit_log WHERE action = 'terminalResetRegistration' ORDER BY id`.execute(database.db);
      expect(audits.rows.map((r) => (JSON.parse(r.detail) as { disconnected: boolean }).disconnected)).toEqual([true, true, true, true]);
    } finally {
      for (const t of terminals) t.destroy();
    }
  }, 120_000);

  it('keeps the later login of a terminal connected to two workers at once, and closes the older session on the other worker', async () => {
    await until(() => workers().length === 2, 30_000);
    // Which process holds each session: the prefix of its key, as published on every login.
    const nc: NatsConnection = await connect({ servers: nats.url });
    const opened: SessionOpened[] = [];
    nc.subscribe('fleetctl.session.opened', {
      callback: (err, msg) => {
        if (!err) opened.push(msg.json<SessionOpened>());
      },
    });
    await nc.flush();
    const processOf = (key: string) => key.split('.')[0];
    const open: SimTerminal[] = [];
    let acrossWorkers = 0;
    try {
      // node:cluster hands connections out in turn, so most pairs straddle the workers; go on
      // until three have (a pair on one worker is the single-process case, checked as well).
      for (let n = 20; n < 40 && acrossWorkers < 3; n++) {
        const phone = demoTerminal(n);
        const terminalId = (await sql<{ id: number }>`SELECT id FROM terminal WHERE terminal_no = ${phone}`.execute(database.db)).rows[0]
          .id;
        const older = new SimTerminal({ host: '127.0.0.1', port: jt808Port, phone, keepAcked: true });
        open.push(older);
        await older.connect();
        let olderClosed = false;
        older.on('close', () => (olderClosed = true));
        // The same device again, its first link not noticed dead yet (same code, same address).
        const newer = new SimTerminal({ host: '127.0.0.1', port: jt808Port, phone, keepAcked: true });
        open.push(newer);
        newer.authCode = older.authCode;
        await newer.connect();
        await until(() => olderClosed, 10_000);
        expect(newer.isOnline).toBe(true);
        const logins = () => opened.filter((o) => o.terminalId === terminalId);
        await until(() => logins().length === 2, 10_000);
        const [first, second] = logins();
        if (processOf(first.session) !== processOf(second.session)) acrossWorkers++;
        // The later session is the live one: it stores and is acknowledged, and the terminal is online.
        newer.report({ time: T0 + n * 1000, latitude: 31.2, longitude: 121.4, speed: 30, status: { accOn: true, fixed: true } });
        await newer.drain();
        const stored = await sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM position WHERE terminal_id = ${terminalId} AND device_time = ${new Date(T0 + n * 1000)}`.execute(
          database.db,
        );
        expect(stored.rows[0].n).toBe(1);
        // The closed session on the other worker did not mark the terminal offline.
        await until(
          async () =>
            (await database.db.selectFrom('terminal_link').select('online').where('terminal_id', '=', terminalId).executeTakeFirstOrThrow())
              .online,
          10_000,
        );
      }
      expect(acrossWorkers).toBe(3);
    } finally {
      for (const t of open) t.destroy();
      await nc.close();
    }
  }, 120_000);

  it('refuses a login from another address while the live session, on either worker, still answers', async () => {
    await until(() => workers().length === 2, 30_000);
    const phone = demoTerminal(12);
    const real = new SimTerminal({ host: '127.0.0.1', port: jt808Port, phone });
    let realClosed = false;
    real.on('close', () => (realClosed = true));
    try {
      await real.connect();
      // A stolen code from elsewhere, four times: node:cluster hands the attempts to both workers in
      // turn, so some reach the worker that does not hold the session and must ask the one that does.
      for (let i = 0; i < 4; i++) {
        const thief = await RawClient.open(jt808Port, '127.0.0.2');
        thief.send(phone, { msgId: MsgId.Auth, body: { code: real.authCode! } });
        const [reply] = await thief.waitFor(1, 15_000);
        expect(reply.opaque === undefined && reply.msgId === MsgId.PlatformResponse && reply.body.result).toBe(1);
        await thief.waitClosed(5000);
      }
      expect(realClosed).toBe(false);
      expect(real.isOnline).toBe(true);
      const refused = await sql<{ n: number }>`SELECT count(*)::int AS n FROM terminal_refusal r JOIN terminal t ON t.id = r.terminal_id
        WHERE t.terminal_no = ${phone} AND r.reason = 'liveSessionElsewhere'`.execute(database.db);
      expect(refused.rows[0].n).toBeGreaterThanOrEqual(1);
    } finally {
      real.destroy();
    }
  }, 120_000);

  it('keeps every acknowledged position when a worker is killed with SIGKILL under load', async () => {
    await until(() => workers().length === 2, 30_000);
    const phones = [1, 2, 3, 4, 5, 6].map(demoTerminal);
    const terminals = phones.map(
      (phone) => new SimTerminal({ host: '127.0.0.1', port: jt808Port, phone, keepAcked: true, ackTimeoutMs: 2000 }),
    );
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
      for (const t of terminals)
        t.report({
          latitude: 31.2,
          longitude: 121.4 + i * 1e-5,
          speed: 30,
          direction: 0,
          status: { accOn: true, fixed: true },
          time: T0 + i * 1000,
        });
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
