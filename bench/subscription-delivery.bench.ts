/**
 * Event subscription throughput and latency: positions of 1,000 vehicles queued into the outbox
 * at a steady rate (default 2,000 events/s for 5 s) on a fresh PostgreSQL, delivered by one
 * deliverer on its own timer to a local receiver. Latency is from queueing to arrival; the
 * target is p99 < 1 s at 2,000 events/s.
 *
 *   npx tsx bench/subscription-delivery.bench.ts   (BENCH_RATE, BENCH_SECONDS)
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { parseTargetAllow } from '../server/notify/target';
import { openDatabase } from '../server/platform/db/database';
import { migrate } from '../server/platform/db/migrate';
import type { StoredPositions } from '../server/platform/telemetry';
import { seed } from '../server/seed/seed';
import { subscriptionDelivery } from '../server/subscriptions/deliverer';
import { positionEvents } from '../server/subscriptions/events';
import { enqueue } from '../server/subscriptions/outbox';
import { freshPostgres } from '../tests/helpers/testServer';
import { percentile, runAsScript, type BenchResult } from './lib';

const RATE = Number(process.env.BENCH_RATE || 2000);
const SECONDS = Number(process.env.BENCH_SECONDS || 5);
const VEHICLES = 1000;
/** Batches per second, as the position writer commits them. */
const BATCHES = 20;

export async function run(): Promise<BenchResult> {
  const pg = await freshPostgres();
  const database = await openDatabase({ databaseUrl: pg.url, poolSize: 4 });
  const arrived = new Map<string, number>();
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrived.set(String(req.headers['x-fleet-delivery']), performance.now());
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.2', done));
  const port = (receiver.address() as AddressInfo).port;
  const delivery = subscriptionDelivery({ db: database.db, allow: parseTargetAllow('127.0.0.2'), idleMs: 10 });
  try {
    await migrate(database);
    await seed(database.db, { demo: true, adminPassword: 'Admin2026x' });
    const root = (
      await sql<{ id: number; path: string }>`SELECT id, path FROM organisation ORDER BY length(path), id LIMIT 1`.execute(database.db)
    ).rows[0];
    const sub = await sql<{ id: number }>`
      INSERT INTO subscription (org_id, name, url, secret, event_types) VALUES (${root.id}, 'bench', ${`http://127.0.0.2:${port}/`}, 'bench-secret-0123456789', ARRAY['position'])
      RETURNING id`.execute(database.db);
    const queuedAt = new Map<string, number>();
    delivery.start();
    const perBatch = RATE / BATCHES;
    const t0 = Date.now();
    let k = 0;
    for (let b = 0; b < SECONDS * BATCHES; b++) {
      const batch: StoredPositions = {
        inserted: Array.from({ length: perBatch }, () => {
          const v = k % VEHICLES;
          const at = t0 + k++;
          const source = {
            terminalId: v,
            terminalNo: `T${v}`,
            sim: `S${v}`,
            orgId: root.id,
            orgPath: root.path,
            vehicleId: 100_000 + v,
            licence: `B${v}`,
            vehicleOrgPath: root.path,
          };
          const record = {
            terminalId: v,
            vehicleId: 100_000 + v,
            deviceTime: at,
            latitude: 31.2,
            longitude: 121.4,
            altitude: 5,
            speed: 40,
            direction: 90,
            alarm: 0,
            status: 3,
            acc: true,
            fixed: true,
            mileageKm: null,
            fuelL: null,
            blind: false,
            extras: null,
            dtcs: null,
          };
          return { source, record };
        }),
      };
      const events = positionEvents(batch);
      const now = performance.now();
      for (const e of events) queuedAt.set(`${sub.rows[0].id}:${e.key}`, now);
      await enqueue(database.db, events);
      // Keep the rate: the next batch is due 1/BATCHES s after this one was.
      const wait = t0 + ((b + 1) * 1000) / BATCHES - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    const deadline = Date.now() + 60_000;
    while (arrived.size < queuedAt.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const latencies = [...queuedAt].filter(([key]) => arrived.has(key)).map(([key, at]) => arrived.get(key)! - at);
    latencies.sort((a, b) => a - b);
    return {
      name: 'subscription-delivery',
      rate: RATE,
      seconds: SECONDS,
      vehicles: VEHICLES,
      queued: queuedAt.size,
      delivered: arrived.size,
      p50Ms: +percentile(latencies, 50).toFixed(1),
      p99Ms: +percentile(latencies, 99).toFixed(1),
      maxMs: +latencies[latencies.length - 1].toFixed(1),
    };
  } finally {
    await delivery.stop();
    await new Promise<void>((done) => receiver.close(() => done()).closeAllConnections());
    await database.close();
    await pg.drop();
  }
}

if (require.main === module) runAsScript(run);
