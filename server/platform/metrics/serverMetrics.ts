/**
 * The series this process exposes on /metrics (prom-client, one registry per server so tests that
 * start several servers in one process keep them apart). Counters and histograms are updated at
 * the edges (HTTP hook, the writer's committed batches, the bus, the notification attempts); gauges
 * read their figure when scraped, so nothing runs on the gateway's path for them.
 */

import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { FixedHistogram } from './fixedHistogram';

/** What a gauge reads when scraped; set by whichever part owns the figure (absent: the series stays empty). */
export interface MetricsSources {
  connections?: () => number;
  pool?: () => { total: number; idle: number; waiting: number };
  derivation?: () => Promise<{ lagSeconds: number; pendingMarks: number }>;
}

export interface ServerMetrics {
  registry: Registry;
  sources: MetricsSources;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  reports: Counter;
  batchSize: Histogram;
  /** Observed once per acknowledgement on the gateway's path: allocation-free. */
  ackLatency: FixedHistogram;
  alarms: Counter<'type'>;
  notifyAttempts: Counter<'outcome'>;
  subscriptionAttempts: Counter<'outcome'>;
}

export function createServerMetrics(): ServerMetrics {
  const registry = new Registry();
  const registers = [registry];
  const sources: MetricsSources = {};
  collectDefaultMetrics({ register: registry, prefix: 'fleet_process_' });
  new Gauge({
    name: 'fleet_gateway_connections',
    help: 'JT/T 808 terminal connections open in this process',
    registers,
    collect() {
      if (sources.connections) this.set(sources.connections());
    },
  });
  new Gauge({
    name: 'fleet_db_pool_connections',
    help: 'PostgreSQL pool connections of this process by state (no series on the embedded database)',
    labelNames: ['state'],
    registers,
    collect() {
      const p = sources.pool?.();
      if (!p) return;
      this.set({ state: 'in_use' }, p.total - p.idle);
      this.set({ state: 'idle' }, p.idle);
      this.set({ state: 'waiting' }, p.waiting);
    },
  });
  const pending = new Gauge({ name: 'fleet_derivation_pending_marks', help: 'Store marks waiting for a derivation pass', registers });
  new Gauge({
    name: 'fleet_derivation_lag_seconds',
    help: 'Seconds between the newest stored report still to derive and the newest derived one (0 when nothing is pending)',
    registers,
    async collect() {
      const d = await sources.derivation?.();
      if (!d) return;
      this.set(d.lagSeconds);
      pending.set(d.pendingMarks);
    },
  });
  return {
    registry,
    sources,
    httpDuration: new Histogram({
      name: 'fleet_http_request_duration_seconds',
      help: 'HTTP request latency by route pattern',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    reports: new Counter({
      name: 'fleet_reports_stored_total',
      help: 'Position reports stored by this process (duplicates left out)',
      registers,
    }),
    batchSize: new Histogram({
      name: 'fleet_store_batch_size',
      help: 'Positions per committed store batch',
      buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000],
      registers,
    }),
    ackLatency: new FixedHistogram(
      'fleet_gateway_ack_latency_seconds',
      'From a report handed to the store to its acknowledgement',
      [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registry,
    ),
    alarms: new Counter({ name: 'fleet_alarms_raised_total', help: 'Alarms raised, by type', labelNames: ['type'], registers }),
    notifyAttempts: new Counter({
      name: 'fleet_notify_attempts_total',
      help: 'Webhook, SMS and e-mail delivery attempts by outcome (delivered, retry: failed and retried later, failed: given up)',
      labelNames: ['outcome'],
      registers,
    }),
    subscriptionAttempts: new Counter({
      name: 'fleet_subscription_attempts_total',
      help: 'Event subscription delivery attempts by outcome (delivered, retry: failed and retried later, failed: given up)',
      labelNames: ['outcome'],
      registers,
    }),
  };
}
