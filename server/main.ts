import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bootstrap } from './bootstrap';
import { loadConfig } from './config';
import { logFormatFor } from './platform/http/logging';
import { seed } from './seed/seed';
import { demoFleetStarter } from './simulator/demo';
import { isPrimaryOfWorkers, runPrimary } from './workers';

/** `npm start`: build the console when missing, migrate, seed an empty database, serve. */
async function main() {
  const config = loadConfig();
  const apiOnly = process.argv.includes('--no-console');
  if (!apiOnly && !fs.existsSync(path.join(config.consoleDir, 'index.html'))) {
    console.log('Building the console (first start only)…');
    const r = spawnSync('npx', ['max', 'build'], { stdio: 'inherit', cwd: path.join(__dirname, '..') });
    if (r.status !== 0) throw new Error('console build failed');
  }
  if (isPrimaryOfWorkers(config)) return runPrimary(config);
  const server = await bootstrap({
    database: { databaseUrl: config.databaseUrl, dataDir: config.dataDir, prepare: config.databasePrepare },
    seed: async (db) => {
      const seeded = await seed(db, {
        demo: config.seed === 'demo',
        demoAlarms: config.seed === 'demo',
        adminPassword: config.adminPassword,
      });
      if (seeded.generatedAdminPassword) {
        // Printed once on the terminal, never logged: it exists nowhere else in clear.
        process.stdout.write(
          `\n  车管星 first start: log in as "admin" with password ${seeded.generatedAdminPassword}\n  (set ADMIN_PASSWORD before the first start to choose it)\n\n`,
        );
      }
      return seeded;
    },
    jwtSecret: config.jwtSecret,
    app: {
      tokenTtlHours: config.tokenTtlHours,
      consoleDir: apiOnly ? undefined : config.consoleDir,
      mediaDir: path.join(config.dataDir, 'media'),
      logLevel: config.logLevel,
      logFormat: logFormatFor(process.stdout),
      mapTileUrl: config.mapTileUrl,
      mapTileCoords: config.mapTileCoords,
      geocode: config.geocode,
      trustProxy: config.trustProxy,
      mapTileAttribution: config.mapTileAttribution,
      timeZone: config.fleetTimeZone,
      webhookAllow: config.webhookAllow,
      forwardAllow: config.forwardAllow,
      metricsAccess: config.metricsAccess,
      obdAlarmTypes: config.obdAlarmTypes,
    },
    partitions: { retentionMonths: config.positionRetentionMonths },
    nats: config.natsUrl ? { url: config.natsUrl } : undefined,
    forwarding: { jt809: (config.gatewayWorker ?? 1) === 1 },
    derivation: {
      timeZone: config.fleetTimeZone,
      smtp: config.smtp,
      obdAlarmTypes: config.obdAlarmTypes,
      clock: (config.gatewayWorker ?? 1) === 1,
      thread: config.deriveThread,
    },
    telematics: { config, fleet: demoFleetStarter({ count: config.simulate, historyDays: config.demoHistoryDays }) },
  });
  const { app } = server;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    await server.close();
    clearTimeout(force);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
}

main().catch((e: Error) => {
  console.error(e.message);
  process.exit(1);
});
