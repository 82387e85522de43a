import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from './app';
import { tokenSecret } from './auth/secret';
import { loadConfig } from './config';
import { openDatabase } from './db/database';
import { migrate } from './db/migrate';
import { seed } from './seed/seed';
import { startTelematics } from './telematics';
import { startPartitionMaintenance } from './telematics/store/partitions';

/** `npm start`: build the console when missing, migrate, seed an empty database, serve. */
async function main() {
  const config = loadConfig();
  const apiOnly = process.argv.includes('--no-console');
  if (!apiOnly && !fs.existsSync(path.join(config.consoleDir, 'index.html'))) {
    console.log('Building the console (first start only)…');
    const r = spawnSync('npx', ['max', 'build'], { stdio: 'inherit', cwd: path.join(__dirname, '..') });
    if (r.status !== 0) throw new Error('console build failed');
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const applied = await migrate(database);
  const seeded = await seed(database.db, { demo: config.seed === 'demo', adminPassword: config.adminPassword });
  if (seeded.generatedAdminPassword) {
    // Printed once on the terminal, never logged: it exists nowhere else in clear.
    process.stdout.write(
      `\n  车管星 first start: log in as "admin" with password ${seeded.generatedAdminPassword}\n  (set ADMIN_PASSWORD before the first start to choose it)\n\n`,
    );
  }
  const secret = await tokenSecret(database.db, config.jwtSecret);
  const app = await buildApp({
    database,
    secret,
    tokenTtlHours: config.tokenTtlHours,
    consoleDir: apiOnly ? undefined : config.consoleDir,
    logLevel: config.logLevel,
    mapTileUrl: config.mapTileUrl,
    mapTileCoords: config.mapTileCoords,
  });
  app.log.info({ migrations: applied.length, database: database.kind, seeded: seeded.seeded }, 'database ready');
  // This month's and the next months' partitions exist before the gateway stores anything.
  const partitions = startPartitionMaintenance(database.db, { retentionMonths: config.positionRetentionMonths, log: app.log });
  await partitions.ready;
  const telematics = await startTelematics(app, { database, config, secret });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    await telematics.close();
    await partitions.stop();
    await app.close();
    await database.close();
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
