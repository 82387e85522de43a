/**
 * GATEWAY_WORKERS=N: the primary prepares the shared database once (migrations, seed, every
 * terminal marked offline), then forks N workers that each run the whole server on the same HTTP
 * and JT/T 808 ports (node:cluster hands each new connection to a worker). Workers keep no state of
 * their own: terminals, positions and online state are in PostgreSQL, and with NATS_URL the bus and
 * downlink commands cross processes. A worker that dies is forked again; its terminals reconnect
 * to the others meanwhile and resend what was not acknowledged.
 */

import cluster from 'node:cluster';
import type { Config } from './config';
import { openDatabase } from './platform/db/database';
import { migrate } from './platform/db/migrate';
import { seed } from './seed/seed';

export async function runPrimary(config: Config): Promise<void> {
  if (!config.databaseUrl) throw new Error('GATEWAY_WORKERS above 1 needs DATABASE_URL: the embedded database belongs to one process');
  if (!config.natsUrl) throw new Error('GATEWAY_WORKERS above 1 needs NATS_URL: live push and commands must reach every worker');
  const database = await openDatabase({ databaseUrl: config.databaseUrl, poolSize: 2, prepare: config.databasePrepare });
  try {
    await migrate(database);
    await seed(database.db, { demo: config.seed === 'demo', adminPassword: config.adminPassword });
    await database.db.updateTable('terminal_link').set({ online: false }).where('online', '=', true).execute();
  } finally {
    await database.close();
  }
  let stopping = false;
  const fork = (index: number) => {
    // Only the first worker drives the demo fleet, so it is not started N times.
    const w = cluster.fork({ GATEWAY_WORKER: String(index), ...(index > 1 ? { SIMULATE: '0', DEMO_HISTORY_DAYS: '0' } : {}) });
    w.on('exit', (code, signal) => {
      if (stopping) return;
      console.error(`gateway worker ${index} (pid ${w.process.pid}) exited (${signal ?? code}); starting it again`);
      setTimeout(() => fork(index), 1000);
    });
  };
  for (let i = 1; i <= config.gatewayWorkers; i++) fork(i);
  const stop = (signal: NodeJS.Signals) => {
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill(signal);
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

export const isPrimaryOfWorkers = (config: Config) => config.gatewayWorkers > 1 && cluster.isPrimary;
