import fs from 'node:fs';
import path from 'node:path';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { bootstrap, type Server } from '../../../server/bootstrap';
import { seed } from '../../../server/seed/seed';
import { parseMetricsAccess } from '../../../server/platform/metrics/access';
import { SimTerminal } from '../../../server/simulator/terminal';
import { freePort } from '../../helpers/serverProcess';
import { ADMIN_PASSWORD, BACKENDS, freshPostgres } from '../../helpers/testServer';
import { demoTerminal, until } from '../telematics/gateway/harness';

jest.setTimeout(120_000);

const TOKEN = 'metrics-token-0123456789';

type Families = ReturnType<typeof parsePrometheusTextFormat>;
const family = (fs: Families, name: string) => {
  const f = fs.find((x) => x.name === name);
  if (!f) throw new Error(`no series ${name}`);
  return f;
};
/** The sum of a counter's or gauge's samples matching `labels`. */
const value = (fs: Families, name: string, labels: Record<string, string> = {}) =>
  family(fs, name)
    .metrics.filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))
    .reduce((s, m) => s + Number(m.value), 0);
/** A histogram's observation count over its samples matching `labels`. */
const count = (fs: Families, name: string, labels: Record<string, string> = {}) =>
  family(fs, name)
    .metrics.filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))
    .reduce((s, m) => s + Number(m.count ?? 0), 0);

describe('access rules', () => {
  it('loopback only without a token; a token may open every address; bad settings refuse to start', () => {
    const open = parseMetricsAccess(undefined, undefined);
    expect(open.token).toBeUndefined();
    expect(open.text).toBe('127.0.0.0/8,::1/128');
    expect(parseMetricsAccess(TOKEN, undefined).allow).toBeNull();
    expect(() => parseMetricsAccess(undefined, 'any')).toThrow('METRICS_ALLOW=any needs METRICS_TOKEN');
    expect(() => parseMetricsAccess(undefined, '10.0.0.0/33')).toThrow('"10.0.0.0/33" is not an address or CIDR range');
    expect(() => parseMetricsAccess(undefined, 'example.com')).toThrow('is not an address or CIDR range');
    expect(() => parseMetricsAccess('short', undefined)).toThrow('METRICS_TOKEN must be at least 16 characters');
  });
});

describe.each(BACKENDS)('GET /metrics (%s)', (backend) => {
  let server: Server;
  let base: string;
  let jt808Port: number;
  const terminals: SimTerminal[] = [];
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const pg = backend === 'postgres' ? await freshPostgres() : null;
    drop = pg?.drop;
    jt808Port = await freePort();
    server = await bootstrap({
      database: pg ? { databaseUrl: pg.url, poolSize: 4 } : { dataDir: 'memory://' },
      seed: (db) => seed(db, { demo: true, adminPassword: ADMIN_PASSWORD }),
      jwtSecret: 'test-secret',
      app: { logLevel: 'silent', metricsAccess: parseMetricsAccess(TOKEN, '127.0.0.0/8,::1') },
      derivation: { timeZone: 'Asia/Shanghai' },
      telematics: { config: { jt808Port, host: '127.0.0.1', tokenTtlHours: 12 } },
    });
    base = await server.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const t of terminals) t.destroy();
    await server?.close();
    await drop?.();
  });

  const scrape = async () => {
    const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    // The parser throws on a malformed line: the whole page must be valid exposition text.
    return Object.assign(parsePrometheusTextFormat(text), { text });
  };
  /**
   * A labelled histogram's observation count, from its `_count` line: the parser folds a labelled
   * histogram's samples into one and drops the labels, so these are read from the text it accepted.
   */
  const labelledCount = (page: { text: string }, name: string, labels: string) =>
    page.text
      .split('\n')
      .filter((l) => l.startsWith(`${name}_count{${labels}}`))
      .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);

  it('refuses a missing or wrong token (401) and an address outside METRICS_ALLOW (403), in the caller’s language', async () => {
    const none = await fetch(`${base}/metrics`, { headers: { 'accept-language': 'en-US' } });
    expect(none.status).toBe(401);
    const wrong = await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer nope-nope-nope-nope' } });
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).message).toBeTruthy();
    const outside = await server.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '203.0.113.9',
      headers: { authorization: `Bearer ${TOKEN}`, 'accept-language': 'zh-CN' },
    });
    expect(outside.statusCode).toBe(403);
    expect(JSON.parse(outside.body).message).toMatch(/[\u4e00-\u9fff]/);
    const inside = await server.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '127.0.0.1',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(inside.statusCode).toBe(200);
  });

  it('parses, and HTTP latency is counted by route pattern, not by URL', async () => {
    const before = await scrape();
    expect(family(before, 'fleet_http_request_duration_seconds').type).toBe('HISTOGRAM');
    const health = 'method="GET",route="/api/health",status="200"';
    const was = labelledCount(before, 'fleet_http_request_duration_seconds', health);
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    expect((await fetch(`${base}/api/passport/member/123456`)).status).toBe(401);
    const after = await scrape();
    expect(labelledCount(after, 'fleet_http_request_duration_seconds', health)).toBe(was + 1);
    expect(labelledCount(after, 'fleet_http_request_duration_seconds', 'method="GET",route="/api/passport/member/:id",status="401"')).toBe(
      1,
    );
    expect(after.text).not.toContain('/api/passport/member/123456');
  });

  it('a terminal reporting over TCP moves connections, reports, batch sizes, ack latency, derivation and alarms by type', async () => {
    const before = await scrape();
    const t = new SimTerminal({ host: '127.0.0.1', port: jt808Port, phone: demoTerminal(3) });
    terminals.push(t);
    await t.connect();
    const start = Date.now() - 60_000;
    for (let i = 0; i < 5; i++) t.report({ latitude: 30.5 + i * 0.001, longitude: 114.3, speed: 40, time: start + i * 10_000 });
    await t.drain(30_000);
    const after = await scrape();
    expect(value(after, 'fleet_gateway_connections')).toBe(1);
    expect(value(after, 'fleet_reports_stored_total') - value(before, 'fleet_reports_stored_total')).toBe(5);
    expect(count(after, 'fleet_store_batch_size')).toBeGreaterThan(count(before, 'fleet_store_batch_size'));
    expect(Number(family(after, 'fleet_store_batch_size').metrics[0].sum)).toBeGreaterThanOrEqual(5);
    expect(count(after, 'fleet_gateway_ack_latency_seconds') - count(before, 'fleet_gateway_ack_latency_seconds')).toBe(5);
    expect(family(after, 'fleet_derivation_lag_seconds').type).toBe('GAUGE');
    // What an operator waits for: the pending marks drained and the lag back to 0.
    await server.derivation!.idle();
    let derived = await scrape();
    await until(async () => {
      derived = await scrape();
      return value(derived, 'fleet_derivation_pending_marks') === 0;
    }, 20_000);
    expect(value(derived, 'fleet_derivation_lag_seconds')).toBe(0);
    const dashboard = JSON.stringify(JSON.parse(fs.readFileSync(path.join(__dirname, '../../../docs/grafana-dashboard.json'), 'utf8')));
    const used = new Set([...dashboard.matchAll(/fleet_[a-z0-9_]+/g)].map((m) => m[0].replace(/_(bucket|sum|count)$/, '')));
    const exposed = new Set(derived.text.match(/^# TYPE (\S+)/gm)!.map((l) => l.slice('# TYPE '.length)));
    for (const name of used) expect([name, exposed.has(name)]).toEqual([name, true]);

    // An SOS from the terminal raises an alarm: counted by its type.
    const sosBefore = derived.text.includes('fleet_alarms_raised_total{type="Sos"}')
      ? value(derived, 'fleet_alarms_raised_total', { type: 'Sos' })
      : 0;
    t.report({ latitude: 30.51, longitude: 114.3, speed: 0, time: start + 50_000, alarm: { active: ['sos'] } });
    await t.drain(30_000);
    await until(async () => {
      const page = await scrape();
      return (
        page.text.includes('fleet_alarms_raised_total{type="Sos"}') &&
        value(page, 'fleet_alarms_raised_total', { type: 'Sos' }) === sosBefore + 1
      );
    }, 30_000);
    if (backend === 'postgres') expect(value(derived, 'fleet_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
    else expect(derived.some((f) => f.name === 'fleet_db_pool_connections' && f.metrics.length)).toBe(false);
  });
});
