/**
 * Issue 18, finding 2: one client must not stop the server from accepting connections. Sockets
 * that trickle bytes are cut at the handshake deadline, connections still in the handshake are
 * capped per address and overall, gateway connections stay below the open-file limit minus a
 * reserve, and a cap being hit is one log line, not one per socket.
 */

import { execSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { loadConfig } from '../../../../server/config';
import { connectionCap, DEFAULT_FD_RESERVE, openFileLimit } from '../../../../server/telematics/gateway/admission';
import { Jt808Gateway } from '../../../../server/telematics/gateway/server';
import { SimTerminal } from '../../../../server/simulator/terminal';
import { freePort, http, startServerProcess } from '../../../helpers/serverProcess';
import { ADMIN_PASSWORD, BACKENDS, freshPostgres } from '../../../helpers/testServer';
import { demoTerminal, RawClient, startGateway, until, type GatewayHarness } from './harness';

const root = path.resolve(__dirname, '../../../..');

/** A pino logger whose lines a test can read. */
function capturedLog(): { log: pino.Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n')) if (l) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino({ level: 'info' }, sink), lines };
}
const capLines = (lines: Array<Record<string, unknown>>, cap?: string) =>
  lines.filter((l) => l.msg === 'jt808 connection cap reached: refusing new connections' && (!cap || l.cap === cap));

/** A socket that sends the start of a frame, then one byte every `everyMs`, and notes when it is cut. */
interface Drip {
  openedAt: number;
  closedAt: number | null;
}
async function drip(port: number, everyMs: number): Promise<Drip> {
  const d: Drip = { openedAt: Date.now(), closedAt: null };
  const socket = net.connect({ host: '127.0.0.1', port });
  socket.on('error', () => undefined);
  await new Promise((r) => socket.once('connect', r));
  socket.write(Buffer.from([0x7e]));
  const timer = setInterval(() => socket.write(Buffer.from([0x30])), everyMs);
  socket.on('close', () => {
    clearInterval(timer);
    d.closedAt = Date.now();
  });
  return d;
}

describe.each(BACKENDS)('gateway connection limits on %s', (backend) => {
  let h: GatewayHarness;
  const { log, lines } = capturedLog();
  beforeAll(async () => {
    h = await startGateway(backend, {
      routes: { commandTimeoutMs: 400 },
      gateway: { log, limits: { handshakeTimeoutMs: 3000, authTimeoutMs: 1000, maxPendingPerAddress: 20 } },
    });
  });
  afterAll(() => h.close());

  it('cuts sockets that drip bytes at the handshake deadline, refuses those over the per-address cap at once, and still serves a terminal and HTTP', async () => {
    const sockets = await Promise.all(Array.from({ length: 35 }, () => drip(h.port, 300)));
    await until(() => h.gateway.admission.pendingConnections === 20); // the drip holds its address's cap
    // While the drip holds its address's cap: a terminal from another address registers and
    // reports, and an HTTP login works.
    const t = h.terminal(demoTerminal(3), { localAddress: '127.0.0.2' });
    await t.connect();
    t.report({ latitude: 31.2, longitude: 121.4, speed: 30, status: { fixed: true }, time: Date.parse('2026-11-23T01:00:00Z') });
    await t.drain();
    const login = await http(`${h.httpUrl}/api/login`, 'POST', { loginName: 'admin', password: ADMIN_PASSWORD });
    expect(login.status).toBe(200);
    const servedAt = Date.now();

    await until(() => sockets.every((s) => s.closedAt !== null), 8000);
    const lived = sockets.map((s) => s.closedAt! - s.openedAt);
    const refused = lived.filter((ms) => ms < 700);
    const cut = lived.filter((ms) => ms >= 700);
    expect(refused).toHaveLength(15);
    expect(cut).toHaveLength(20);
    // Cut at the deadline (3 s), although a byte arrived every 300 ms (the silence timeout is 1 s).
    for (const ms of cut) {
      expect(ms).toBeGreaterThanOrEqual(2900);
      expect(ms).toBeLessThan(5000);
    }
    expect(Math.max(...sockets.map((s) => s.closedAt!))).toBeGreaterThan(servedAt); // served while the drip was on
    expect(h.gateway.stats.handshakeTimeouts).toBeGreaterThanOrEqual(20);
    expect(h.gateway.stats.refusedConnections).toBeGreaterThanOrEqual(15);
    expect(capLines(lines, 'maxPendingPerAddress')).toHaveLength(1); // one line, not fifteen
    // The authenticated terminal is not cut by the deadline.
    expect(t.isOnline).toBe(true);
    await t.end();
    // And the address is welcome again once its sockets are gone.
    const again = await RawClient.open(h.port);
    await new Promise((r) => setTimeout(r, 100));
    expect(again.closed).toBe(false);
    again.destroy();
  });

  it('caps connections in the handshake overall and gateway connections per process, logging each cap once', async () => {
    const { log: capLog, lines: capLogLines } = capturedLog();
    const g = new Jt808Gateway({
      db: h.s.database.db,
      log: capLog,
      maxConnections: 5,
      limits: { maxPending: 3, maxPendingPerAddress: 100 },
    });
    const port = await g.listen(0, '127.0.0.1');
    const raws: RawClient[] = [];
    const openRaw = async () => {
      const c = await RawClient.open(port);
      raws.push(c);
      return c;
    };
    const refusedAtOnce = async (c: RawClient) => c.waitClosed(1000);
    try {
      for (let i = 0; i < 3; i++) await openRaw();
      await until(() => g.admission.pendingConnections === 3);
      for (let i = 0; i < 4; i++) await refusedAtOnce(await openRaw()); // over maxPending
      raws[0].destroy();
      await until(() => g.admission.pendingConnections === 2);
      // Authenticated terminals leave the pending count…
      const terminals = [demoTerminal(16), demoTerminal(17)].map((phone) => new SimTerminal({ host: '127.0.0.1', port, phone }));
      for (const t of terminals) await t.connect();
      expect(g.admission.connections).toBe(4);
      await openRaw();
      expect(g.admission.connections).toBe(5);
      // …but count against the per-process cap.
      for (let i = 0; i < 4; i++) await refusedAtOnce(await openRaw());
      expect(capLines(capLogLines, 'maxPending')).toHaveLength(1);
      expect(capLines(capLogLines, 'maxConnections')).toHaveLength(1);
      expect(g.stats.refusedConnections).toBe(8);
      for (const t of terminals) t.destroy();
      await until(() => g.admission.connections === 3);
      expect((await openRaw()).closed).toBe(false); // room again
    } finally {
      for (const c of raws) c.destroy();
      await g.close();
    }
  });
});

describe('the gateway connection cap and its settings', () => {
  it('reads the process open-file limit, and keeps the cap below it minus the reserve', () => {
    const shell = Number(execSync('ulimit -n', { shell: '/bin/sh' }).toString().trim());
    expect(openFileLimit()).toBe(shell);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fs-limits-'));
    try {
      const file = path.join(dir, 'limits');
      fs.writeFileSync(
        file,
        'Limit                     Soft Limit           Hard Limit           Units     \nMax open files            1024                 4096                 files     \n',
      );
      expect(openFileLimit(file)).toBe(1024);
      fs.writeFileSync(file, 'Max open files            unlimited            unlimited            files\n');
      expect(openFileLimit(file)).toBe(Number.MAX_SAFE_INTEGER);
      expect(openFileLimit(path.join(dir, 'missing'))).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(connectionCap({ fileLimit: 20_000, reserve: 1024 })).toBe(18_976);
    expect(connectionCap({ configured: 50_000, fileLimit: 20_000, reserve: 1024 })).toBe(18_976);
    expect(connectionCap({ configured: 300, fileLimit: 20_000, reserve: 1024 })).toBe(300);
    expect(connectionCap({ fileLimit: 1024, reserve: 1024 })).toBe(1);
    expect(connectionCap({ configured: 300, fileLimit: null, reserve: 1024 })).toBe(300);
    const g = new Jt808Gateway({ db: null as never, log: pino({ level: 'silent' }) }); // never listens: no database needed
    expect(g.admission.limits.maxConnections).toBe(shell - DEFAULT_FD_RESERVE);
  });

  it('takes the limits from the environment and refuses bad values naming the setting', () => {
    expect(loadConfig({}).jt808Limits).toEqual({});
    expect(
      loadConfig({
        JT808_MAX_CONNECTIONS: '5000',
        JT808_FD_RESERVE: '2048',
        JT808_MAX_PENDING: '400',
        JT808_MAX_PENDING_PER_ADDRESS: '8',
        JT808_HANDSHAKE_TIMEOUT_S: '20',
      }).jt808Limits,
    ).toEqual({ maxConnections: 5000, fdReserve: 2048, maxPending: 400, maxPendingPerAddress: 8, handshakeTimeoutMs: 20_000 });
    for (const bad of ['0', '-1', '1.5', 'abc', ' 8', '1e3']) {
      expect(() => loadConfig({ JT808_MAX_PENDING_PER_ADDRESS: bad })).toThrow(
        `JT808_MAX_PENDING_PER_ADDRESS must be a whole number from 1 to 10000000, got "${bad}"`,
      );
    }
    expect(() => loadConfig({ JT808_HANDSHAKE_TIMEOUT_S: '3601' })).toThrow(
      'JT808_HANDSHAKE_TIMEOUT_S must be a whole number from 1 to 3600, got "3601"',
    );
  });

  it('runs the real server under a small open-file limit: the gateway stops at the limit minus the reserve, HTTP keeps working', async () => {
    // PostgreSQL and no demo data: the quickest start (the database is not what is tested here).
    const pg = await freshPostgres();
    const jt808Port = await freePort();
    const server = await startServerProcess(
      root,
      {
        DATABASE_URL: pg.url,
        SEED: 'none',
        ADMIN_PASSWORD,
        JT808_PORT: String(jt808Port),
        JT808_FD_RESERVE: '900',
        JT808_MAX_PENDING_PER_ADDRESS: '1000',
        JT808_HANDSHAKE_TIMEOUT_S: '30',
      },
      ['--no-console'],
      { fileLimit: 1000, direct: true },
    );
    const sockets: net.Socket[] = [];
    try {
      const closed: boolean[] = [];
      for (let i = 0; i < 130; i++) {
        const s = net.connect({ host: '127.0.0.1', port: jt808Port });
        const k = closed.push(false) - 1;
        s.on('error', () => undefined);
        s.on('close', () => (closed[k] = true));
        sockets.push(s);
        await new Promise((r) => s.once('connect', r));
      }
      await until(() => closed.filter(Boolean).length >= 30, 5000);
      await new Promise((r) => setTimeout(r, 300));
      expect(closed.filter((c) => !c)).toHaveLength(100); // 1000 − 900
      const login = await http(`${server.url}/api/login`, 'POST', { loginName: 'admin', password: ADMIN_PASSWORD });
      expect(login.status).toBe(200);
      expect((await http(`${server.url}/api/health`, 'GET')).json).toMatchObject({ status: 'ok' });
      expect(server.output().match(/jt808 connection cap reached/g)).toHaveLength(1);
    } finally {
      for (const s of sockets) s.destroy();
      expect(await server.stop()).toBe(0);
      await pg.drop();
    }
  }, 60_000);
});
