/**
 * A PostgreSQL cluster of the test's own: initdb in a temporary directory, a free port, stopped and
 * started at will. Fault tests stop it; the machine's shared PostgreSQL (other tests use it) is
 * never touched. PostgreSQL refuses to run as root, so as root the cluster runs as `postgres`.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './serverProcess';

export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** pg_ctl stop -m fast: open connections are cut, as a restarted database server cuts them. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its files. */
  destroy(): Promise<void>;
}

/** The newest PostgreSQL binaries installed (Debian keeps them per major version). */
function binDir(): string | null {
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return null;
  const versions = fs
    .readdirSync(base)
    .filter((v) => fs.existsSync(path.join(base, v, 'bin/initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(base, versions[0], 'bin') : null;
}

const isRoot = () => process.getuid?.() === 0;

/** Why a private cluster cannot run here, or null when it can. */
export function privatePostgresUnavailable(): string | null {
  if (!binDir()) return 'no PostgreSQL binaries under /usr/lib/postgresql/*/bin';
  if (isRoot()) {
    try {
      execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
    } catch {
      return 'running as root and there is no postgres user to run initdb as';
    }
  }
  return null;
}

export async function startPostgresServer(): Promise<PostgresServer> {
  const why = privatePostgresUnavailable();
  if (why) throw new Error(why);
  const bin = binDir()!;
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-private-'));
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'log');
  if (isRoot()) execFileSync('chown', ['postgres:', dir]);
  // As root, every PostgreSQL program runs as postgres (initdb and postgres refuse root).
  // Not blocking: the test's own terminals keep reporting while the cluster stops and starts.
  const run = async (program: string, args: string[]) => {
    const [cmd, argv] = isRoot()
      ? ['runuser', ['-u', 'postgres', '--', path.join(bin, program), ...args]]
      : [path.join(bin, program), args];
    await promisify(execFile)(cmd, argv, { timeout: 60_000 });
  };
  await run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  // Its own socket directory, only loopback TCP, and no durability a throw-away cluster needs.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const start = () => run('pg_ctl', ['start', '-w', '-t', '60', '-D', data, '-l', log, '-o', options]);
  const stop = () => run('pg_ctl', ['stop', '-w', '-t', '60', '-m', 'fast', '-D', data]);
  await start();
  let running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      await stop();
      running = false;
    },
    async start() {
      await start();
      running = true;
    },
    async destroy() {
      if (running) await stop();
      running = false;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
