/**
 * GET /metrics (Prometheus text format, outside /api: scrapers are not members) and the hook that
 * times every HTTP request by its route pattern, never the raw URL (ids would make a series each).
 */

import type { FastifyInstance } from 'fastify';
import { PUBLIC } from '../auth/caller';
import { forbidden, unauthorized } from '../http/errors';
import { metricsRefusal, type MetricsAccess } from './access';
import type { ServerMetrics } from './serverMetrics';

export function registerMetrics(app: FastifyInstance, metrics: ServerMetrics, access: MetricsAccess): void {
  app.addHook('onResponse', async (req, reply) => {
    // Unmatched URLs (404s, probes) share one series instead of one per URL.
    const route = req.routeOptions.url ?? 'unmatched';
    metrics.httpDuration.observe({ method: req.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
  app.get('/metrics', { config: { permission: PUBLIC }, schema: { hide: true } }, async (req, reply) => {
    const refused = metricsRefusal(access, req.ip, req.headers.authorization);
    if (refused === 'token') throw unauthorized();
    if (refused === 'address') throw forbidden();
    reply.header('content-type', metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
