/**
 * The real multi-worker server for the cluster benchmarks: a nats-server and a fresh PostgreSQL
 * database of the bench's own, bench terminals provisioned (and, unless asked otherwise,
 * registered beforehand as 0x0100 would have left them, codes included), then `server/main.ts`
 * with GATEWAY_WORKERS=N, started as the cluster tests start it. Also the per-process figures the
 * benches report: CPU time and RSS from /proc, for the workers, the clients, nats-server and the
 * database's backends.
 */

import { execFileSync, execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../../server/platform/db/database';
import { migrate } from '../../server/platform/db/migrate';
import { seed } from '../../server/seed/seed';
import { newAuthCode } from '../../server/telematics/gateway/registration';
import { startNatsServer, type NatsServer } from '../../tests/helpers/natsServer';
import { freePort, startServerProcess, type ServerProcess } from '../../tests/helpers/serverProcess';
import { freshPostgres } from '../../tests/helpers/testServer';
import { provisionTerminals } from './provision';

const root = path.resolve(__dirname, '../..');

export interface BenchCluster {
  database: Database;
  jt808Port: number;
  phones: string[];
  /** The codes of `phones`, in order (empty when not registered beforehand). */
  authCodes: string[];
  server: ServerProcess;
  nats: NatsServer;
  /** The worker processes (node, children of the primary). */
  workers(): number[];
  /** nats-server's pid. */
  natsPid(): number | null;
  /** The database's backends serving connections, or its autovacuum workers (pg_stat_activity of the bench's database). */
  backends(kind?: 'client' | 'autovacuum'): Promise<number[]>;
  close(): Promise<void>;
}

/**
 * Writes terminal_link rows as a successful registration (registration.ts) leaves them: a code,
 * the hardware the simulator names (maker FSSIM, model FS-OBD-1, device id the phone's last 7
 * digits), the 2013 layout, no IMEI yet. Returns the codes in the order of `phones`.
 */
export async function preRegister(database: Database, phones: string[]): Promise<string[]> {
  const codes = phones.map(() => newAuthCode());
  for (let i = 0; i < phones.length; i += 5000) {
    const p = phones.slice(i, i + 5000);
    await sql`INSERT INTO terminal_link (terminal_id, auth_code, maker_id, model, device_id, layout)
      SELECT t.id, u.code, 'FSSIM', 'FS-OBD-1', right(u.phone, 7), 2013
      FROM unnest(${p}::text[], ${codes.slice(i, i + 5000)}::text[]) AS u(phone, code)
      JOIN terminal t ON t.terminal_no = u.phone`.execute(database.db);
  }
  return codes;
}

export async function benchCluster(opts: {
  workers: number;
  terminals: number;
  unregistered?: number;
  env?: Record<string, string>;
}): Promise<BenchCluster> {
  const nats = await startNatsServer();
  const pg = await freshPostgres();
  const database = await openDatabase({ databaseUrl: pg.url, poolSize: 4 });
  let server: ServerProcess | undefined;
  try {
    await migrate(database);
    await seed(database.db, { demo: true, adminPassword: 'Admin2026x' });
    const all = await provisionTerminals(database.db, opts.terminals + (opts.unregistered ?? 0));
    const phones = all.slice(0, opts.terminals);
    const authCodes = await preRegister(database, phones);
    // A database in service has been vacuumed since its terminals were imported: right after a bulk
    // insert, the trigram (GIN) indexes' pending lists are long, and a lookup the planner sends
    // through them took 100–300 ms instead of 0.1 ms.
    await sql`VACUUM ANALYZE`.execute(database.db);
    const jt808Port = await freePort();
    server = await startServerProcess(
      root,
      {
        DATABASE_URL: pg.url,
        NATS_URL: nats.url,
        GATEWAY_WORKERS: String(opts.workers),
        SEED: 'demo',
        ADMIN_PASSWORD: 'Admin2026x',
        JT808_PORT: String(jt808Port),
        // Thousands of terminals connect at once from a few addresses: the handshake caps and
        // deadline that guard a public gateway are lifted, the reserve fits the benches' own needs.
        JT808_MAX_PENDING: '1000000',
        JT808_MAX_PENDING_PER_ADDRESS: '1000000',
        JT808_HANDSHAKE_TIMEOUT_S: '600',
        JT808_FD_RESERVE: '512',
        ...opts.env,
      },
      ['--no-console'],
      { direct: true, fileLimit: openFilesHardLimit() },
    );
    const s = server;
    const workers = () => {
      try {
        return execFileSync('pgrep', ['-P', String(s.child.pid), '-x', 'node'], { encoding: 'utf8' })
          .split('\n')
          .filter(Boolean)
          .map(Number);
      } catch {
        return [];
      }
    };
    // Every worker listening: each is up once it holds its first descriptors for the port.
    const deadline = Date.now() + 120_000;
    while (workers().length < opts.workers) {
      if (Date.now() > deadline) throw new Error(`only ${workers().length} of ${opts.workers} workers started:\n${s.output()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const dbName = new URL(pg.url).pathname.slice(1);
    return {
      database,
      jt808Port,
      phones,
      authCodes,
      server: s,
      nats,
      workers,
      natsPid: () => {
        try {
          return (
            Number(execFileSync('pgrep', ['-f', `nats-server -a 127.0.0.1 -p ${nats.port} `], { encoding: 'utf8' }).split('\n')[0]) || null
          );
        } catch {
          return null;
        }
      },
      async backends(kind: 'client' | 'autovacuum' = 'client') {
        const r = await sql<{
          pid: number;
          kind: string;
        }>`SELECT pid, backend_type AS kind FROM pg_stat_activity WHERE datname = ${dbName} AND pid <> pg_backend_pid()`.execute(
          database.db,
        );
        return r.rows.filter((x) => x.kind === (kind === 'client' ? 'client backend' : 'autovacuum worker')).map((x) => x.pid);
      },
      async close() {
        await s.stop();
        await database.close();
        await pg.drop();
        await nats.stop();
      },
    };
  } catch (e) {
    await server?.stop();
    await database.close();
    await pg.drop();
    await nats.stop();
    throw e;
  }
}

/** The hard open-files limit (the soft one is raised to it for the server and its workers). */
export function openFilesHardLimit(): number {
  return Number(execSync('ulimit -Hn', { shell: '/bin/sh' }).toString().trim()) || 1024;
}

const TICKS_PER_S = Number(execSync('getconf CLK_TCK').toString().trim()) || 100;

/** utime + stime of a process, ms (0 when it is gone). */
export function cpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / TICKS_PER_S;
  } catch {
    return 0;
  }
}

/** Resident memory of a process, bytes (0 when it is gone). */
export function rssBytes(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Open descriptors of a process (a worker's connections, plus a few dozen of its own). */
export function openFiles(pid: number): number {
  try {
    return fs.readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return 0;
  }
}

/** CPU ms of a set of processes: a snapshot now, and the CPU spent since it (processes gone meanwhile count what they had). */
export class CpuWindow {
  private readonly start = new Map<number, number>();
  constructor(pids: number[]) {
    for (const p of pids) this.start.set(p, cpuMs(p));
  }
  spentMs(pids: number[]): number {
    let ms = 0;
    for (const p of pids) ms += cpuMs(p) - (this.start.get(p) ?? 0);
    return ms;
  }
}

/** Where the CPU went, ms per unit of work, by kind of process. */
export interface CpuBreakdown {
  primary: number;
  workers: number;
  postgres: number;
  /** Autovacuum workers on the bench database (after the bulk import and the writes). */
  autovacuum: number;
  nats: number;
  clients: number;
}

/** A CpuWindow over every process a cluster bench involves, split by kind. */
export class ClusterCpu {
  private readonly window: CpuWindow;
  private constructor(
    private readonly pids: () => Promise<Record<keyof CpuBreakdown, number[]>>,
    first: Record<keyof CpuBreakdown, number[]>,
  ) {
    this.window = new CpuWindow(Object.values(first).flat());
  }

  static async start(c: BenchCluster, clientPids: () => number[]): Promise<ClusterCpu> {
    const pids = async () => ({
      primary: [c.server.child.pid!],
      workers: c.workers(),
      postgres: await c.backends('client'),
      autovacuum: await c.backends('autovacuum'),
      nats: [c.natsPid() ?? 0].filter(Boolean),
      clients: clientPids(),
    });
    return new ClusterCpu(pids, await pids());
  }

  /** CPU ms spent since start, per kind, divided by `per` (e.g. per stored position). */
  async spent(per = 1): Promise<CpuBreakdown> {
    const p = await this.pids();
    const r = (k: keyof CpuBreakdown) => +(this.window.spentMs(p[k]) / Math.max(1, per)).toFixed(4);
    return {
      primary: r('primary'),
      workers: r('workers'),
      postgres: r('postgres'),
      autovacuum: r('autovacuum'),
      nats: r('nats'),
      clients: r('clients'),
    };
  }
}

/** Kernel limits that bound how many connections one machine holds, for the report. */
export function kernelLimits() {
  const read = (f: string) => {
    try {
      return fs.readFileSync(f, 'utf8').trim().replace(/\s+/g, '-');
    } catch {
      return 'unknown';
    }
  };
  return {
    ipLocalPortRange: read('/proc/sys/net/ipv4/ip_local_port_range'),
    somaxconn: Number(read('/proc/sys/net/core/somaxconn')),
    tcpMaxSynBacklog: Number(read('/proc/sys/net/ipv4/tcp_max_syn_backlog')),
    fileMax: Number(read('/proc/sys/fs/file-max')),
    openFilesPerProcess: openFilesHardLimit(),
    memAvailableMB: Math.round(Number(/MemAvailable:\s+(\d+)/.exec(fs.readFileSync('/proc/meminfo', 'utf8'))?.[1] ?? 0) / 1024),
  };
}

export const loadAverage = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
