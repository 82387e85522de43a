/**
 * The outbox in the database: events queued per subscription, claimed by one process at a time
 * (`FOR UPDATE SKIP LOCKED`, then a lease while it sends), sent in order per subscription and
 * vehicle, retried on a fixed schedule and given up after a day. Every function takes the
 * instant it acts at, so the retry clock can be driven.
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../platform/db/tables';
import { pathInSubtree } from '../platform/scope';
import type { OutboxEvent } from './events';

/** The first retry's delay, doubled after each failure up to `MAX_DELAY_MS`. */
export const FIRST_DELAY_MS = 10_000;
export const MAX_DELAY_MS = 3_600_000;
/** How long an event is retried, counted from its first attempt (or from a resume). */
export const RETRY_WINDOW_MS = 24 * 3_600_000;
/** An endpoint with no success for this long after a failure is paused. */
export const PAUSE_AFTER_MS = 6 * 3_600_000;
/** A claim outlives the send it covers; a process that died mid-send leaves it to expire. */
const LEASE_MS = 60_000;

/** The delay after the n-th failed attempt (n ≥ 1): 10 s, 20 s, 40 s … 1 h, 1 h … */
export const retryDelayMs = (n: number): number => Math.min(FIRST_DELAY_MS * 2 ** (n - 1), MAX_DELAY_MS);

const at = (ms: number) => new Date(ms).toISOString();

interface Taker {
  id: number;
  path: string;
  eventTypes: string[];
  vehicleIds: number[] | null;
}

/** The subscriptions (paused ones included) that take any of `types`. */
async function takers(db: Kysely<DB>, types: readonly string[]): Promise<Taker[]> {
  return (
    await sql<Taker>`
      SELECT s.id, o.path, s.event_types AS "eventTypes", s.vehicle_ids AS "vehicleIds"
      FROM subscription s JOIN organisation o ON o.id = s.org_id WHERE s.event_types && ${types}::text[]`.execute(db)
  ).rows;
}

/**
 * Queues each event for every subscription whose subtree, vehicles and types take it (a paused
 * subscription included: it keeps its outbox). An event queued before is not queued again.
 */
export async function enqueue(db: Kysely<DB>, events: readonly OutboxEvent[]): Promise<number> {
  if (!events.length) return 0;
  return queueFor(db, events, await takers(db, [...new Set(events.map((e) => e.type))]));
}

/**
 * `enqueue` for events of one type, built only once some subscription takes that type: every
 * committed batch of positions otherwise built a JSON body per position for nobody (~5 % of a
 * gateway worker's CPU at its ceiling; docs/benchmarks.md, "Profiling the ingest").
 */
export async function enqueueOfType(db: Kysely<DB>, type: OutboxEvent['type'], build: () => readonly OutboxEvent[]): Promise<number> {
  const subs = await takers(db, [type]);
  return subs.length ? queueFor(db, build(), subs) : 0;
}

async function queueFor(db: Kysely<DB>, events: readonly OutboxEvent[], subs: readonly Taker[]): Promise<number> {
  const rows: Array<{ sub: number; e: OutboxEvent }> = [];
  for (const e of events)
    for (const s of subs)
      if (s.eventTypes.includes(e.type) && pathInSubtree(s.path, e.orgPath) && (!s.vehicleIds || s.vehicleIds.includes(e.vehicleId)))
        rows.push({ sub: s.id, e });
  if (!rows.length) return 0;
  const r = await sql`
    INSERT INTO subscription_delivery (subscription_id, event_key, event_type, vehicle_id, event_time, body)
    SELECT * FROM unnest(${rows.map((x) => x.sub)}::int[], ${rows.map((x) => x.e.key)}::text[], ${rows.map((x) => x.e.type)}::text[],
                         ${rows.map((x) => x.e.vehicleId)}::int[], ${rows.map((x) => x.e.time.toISOString())}::timestamptz[],
                         ${rows.map((x) => x.e.body)}::text[])
    ON CONFLICT (subscription_id, event_key) DO NOTHING`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

export interface Claimed {
  id: number;
  subscriptionId: number;
  eventKey: string;
  eventType: string;
  body: string;
  attempts: number;
  firstAttemptAt: Date | null;
  url: string;
  secret: string;
}

/**
 * Claims up to `limit` due deliveries of active subscriptions, each the oldest pending one of its
 * subscription and vehicle (the next waits until it is delivered or given up). Rows another
 * process is claiming are skipped, and a claim holds for `LEASE_MS`.
 */
export async function claim(db: Kysely<DB>, nowMs: number, limit: number): Promise<Claimed[]> {
  const now = at(nowMs);
  const r = await sql<Claimed>`
    UPDATE subscription_delivery d SET lease_until = ${at(nowMs + LEASE_MS)}::timestamptz
    FROM subscription s
    WHERE s.id = d.subscription_id AND d.id IN (
      SELECT c.id FROM subscription_delivery c JOIN subscription cs ON cs.id = c.subscription_id
      WHERE c.status = 'pending' AND cs.state = 'active' AND c.next_at <= ${now}::timestamptz
        AND (c.lease_until IS NULL OR c.lease_until <= ${now}::timestamptz)
        AND NOT EXISTS (SELECT 1 FROM subscription_delivery e WHERE e.subscription_id = c.subscription_id
                        AND e.vehicle_id = c.vehicle_id AND e.status = 'pending' AND e.id < c.id)
      ORDER BY c.id LIMIT ${limit} FOR UPDATE OF c SKIP LOCKED)
    RETURNING d.id::int AS id, d.subscription_id AS "subscriptionId", d.event_key AS "eventKey", d.event_type AS "eventType", d.body,
              d.attempts, d.first_attempt_at AS "firstAttemptAt", s.url, s.secret`.execute(db);
  return r.rows;
}

export interface Outcome {
  ok: boolean;
  status: number | null;
  error: string | null;
  latencyMs: number;
}

/**
 * Keeps the outcomes of a pass's attempts, in one statement: delivered; or failed again, retried
 * after `retryDelayMs` unless the retry window has passed since its first attempt (then 'failed',
 * given up). A subscription's `failing_since` is cleared by a success and set by the first failure
 * after one.
 */
export async function record(
  db: Kysely<DB>,
  attempts: ReadonlyArray<{ claimed: Claimed; outcome: Outcome }>,
  nowMs: number,
): Promise<Array<'delivered' | 'retry' | 'failed'>> {
  if (!attempts.length) return [];
  const rows = attempts.map(({ claimed: c, outcome: o }) => {
    const n = c.attempts + 1;
    const first = c.firstAttemptAt ? new Date(c.firstAttemptAt).getTime() : nowMs;
    const status: 'delivered' | 'failed' | 'pending' = o.ok ? 'delivered' : nowMs - first >= RETRY_WINDOW_MS ? 'failed' : 'pending';
    return { c, o, n, first, status, next: status === 'pending' ? nowMs + retryDelayMs(n) : nowMs };
  });
  await sql`
    UPDATE subscription_delivery d SET status = u.status, attempts = u.attempts, http_status = u.http_status, error = u.error,
           latency_ms = u.latency_ms, first_attempt_at = u.first_attempt_at, next_at = u.next_at, lease_until = NULL,
           updated_at = ${at(nowMs)}::timestamptz
    FROM unnest(${rows.map((r) => r.c.id)}::bigint[], ${rows.map((r) => r.status)}::text[], ${rows.map((r) => r.n)}::int[],
                ${rows.map((r) => r.o.status)}::int[], ${rows.map((r) => r.o.error)}::text[], ${rows.map((r) => Math.round(r.o.latencyMs))}::int[],
                ${rows.map((r) => at(r.first))}::timestamptz[], ${rows.map((r) => at(r.next))}::timestamptz[])
         AS u(id, status, attempts, http_status, error, latency_ms, first_attempt_at, next_at)
    WHERE d.id = u.id`.execute(db);
  const succeeded = [...new Set(rows.filter((r) => r.o.ok).map((r) => r.c.subscriptionId))];
  const failed = [...new Set(rows.filter((r) => !r.o.ok).map((r) => r.c.subscriptionId))].filter((id) => !succeeded.includes(id));
  if (succeeded.length)
    await sql`UPDATE subscription SET failing_since = NULL WHERE id = ANY (${succeeded}::int[]) AND failing_since IS NOT NULL`.execute(db);
  if (failed.length)
    await sql`UPDATE subscription SET failing_since = ${at(nowMs)}::timestamptz WHERE id = ANY (${failed}::int[]) AND failing_since IS NULL`.execute(
      db,
    );
  return rows.map((r) => (r.status === 'pending' ? 'retry' : r.status));
}

/** Pauses the active subscriptions with no success for `PAUSE_AFTER_MS` since a failure; answers them. */
export interface Paused {
  id: number;
  orgId: number;
  name: string;
  url: string;
  contactEmail: string | null;
  failingSince: Date;
}

export async function pauseFailing(db: Kysely<DB>, nowMs: number): Promise<Paused[]> {
  const r = await sql<Paused>`
    UPDATE subscription SET state = 'paused', paused_reason = 'failing', updated_at = ${at(nowMs)}::timestamptz
    WHERE state = 'active' AND failing_since <= ${at(nowMs - PAUSE_AFTER_MS)}::timestamptz
    RETURNING id, org_id AS "orgId", name, url, contact_email AS "contactEmail", failing_since AS "failingSince"`.execute(db);
  return r.rows;
}

/** Resumes a subscription: its kept deliveries are due at once, each with a fresh retry window. */
export async function resume(db: Kysely<DB>, id: number): Promise<void> {
  await sql`UPDATE subscription SET state = 'active', paused_reason = NULL, failing_since = NULL, updated_at = now() WHERE id = ${id}`.execute(
    db,
  );
  await sql`UPDATE subscription_delivery SET first_attempt_at = NULL, next_at = now() WHERE subscription_id = ${id} AND status = 'pending'`.execute(
    db,
  );
}

/**
 * Queues again the events of a subscription from a time (delivered or given up), with their own
 * delivery keys, so a receiver that keeps them recognises the ones it has. Answers how many.
 */
export async function replay(db: Kysely<DB>, id: number, from: Date): Promise<number> {
  const r = await sql`
    UPDATE subscription_delivery SET status = 'pending', attempts = 0, first_attempt_at = NULL, next_at = now(), lease_until = NULL,
           http_status = NULL, error = NULL, latency_ms = NULL, updated_at = now()
    WHERE subscription_id = ${id} AND event_time >= ${from.toISOString()}::timestamptz AND status <> 'pending'`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}
