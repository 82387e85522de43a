/** Where the series read their figures: the gateway, the database pool, the derivation tables. */

import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database';
import type { DB } from '../db/tables';
import type { Jt808Gateway } from '../../telematics/gateway/server';
import type { StoredPositions } from '../telemetry';
import type { ServerMetrics } from './serverMetrics';

/** Connections (read when scraped), reports and batch sizes (per committed batch), ack latency (per acknowledgement). */
export function watchGateway(metrics: ServerMetrics, gateway: Jt808Gateway): void {
  metrics.sources.connections = () => gateway.connectionCount;
  // This process's writer, not the bus: with NATS the bus carries every process's batches.
  gateway.writer.on('stored', (batch: StoredPositions) => {
    const n = batch.inserted.length;
    metrics.reports.inc(n);
    metrics.batchSize.observe(n);
  });
  const ack = metrics.ackLatency;
  gateway.acked = (seconds) => ack.observe(seconds);
}

/** The PostgreSQL pool's connections; the embedded database has no pool, so no series. */
export function watchDatabase(metrics: ServerMetrics, database: Database): void {
  const pool = database.pool;
  if (pool) metrics.sources.pool = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
}

/**
 * Derivation lag from the pipeline's own tables, so every process shows the fleet's figure
 * whichever of them derives: the newest stored report still marked against the newest watermark.
 */
export function watchDerivation(metrics: ServerMetrics, db: Kysely<DB>): void {
  metrics.sources.derivation = async () => {
    const { rows } = await sql<{ pending: string | number; lag: string | number | null }>`
      SELECT (SELECT count(*) FROM derive_mark) AS pending,
             extract(epoch FROM (SELECT max(pending_to) FROM derive_mark) - (SELECT max(watermark) FROM derive_state)) AS lag`.execute(db);
    const r = rows[0];
    return { pendingMarks: Number(r.pending), lagSeconds: Math.max(0, Number(r.lag ?? 0)) };
  };
}
