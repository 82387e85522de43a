/**
 * Sends the outbox: each pass claims the due deliveries (one per subscription and vehicle, so a
 * vehicle's events arrive in order), posts them signed through the notification webhooks' guarded
 * agents, keeps each outcome, and pauses the endpoints failing for hours (audited under their
 * organisation, mailed to the subscription's contact, the paused state shown on the subscription).
 * Any number of processes may run it.
 */

import type { Kysely } from 'kysely';
import { writeAudit } from '../platform/audit';
import type { DB } from '../platform/db/tables';
import { NO_ALLOW, type TargetAllow } from '../notify/target';
import { postSigned, webhookAgents } from '../notify/webhook';
import { sendMail, type SmtpConfig } from '../notify/smtp';
import { claim, pauseFailing, record, type Claimed, type Outcome, type Paused } from './outbox';
import { pausedMail } from './pausedMail';

export const DELIVERY_HEADER = 'x-fleet-delivery';
export const EVENT_HEADER = 'x-fleet-event';

export interface SubscriptionDeliveryOptions {
  db: Kysely<DB>;
  /** Non-public targets the operator allows (WEBHOOK_ALLOW); default none. */
  allow?: TargetAllow;
  /** The mail server (SMTP_*) a paused subscription's contact is told through; absent, the pause is audited only. */
  smtp?: SmtpConfig | null;
  timeoutMs?: number;
  /** Deliveries claimed per pass. */
  batch?: number;
  /** Between passes when the last found nothing to send. */
  idleMs?: number;
  now?: () => number;
  log?: { warn(obj: object, msg: string): void };
  onAttempt?: (outcome: 'delivered' | 'retry' | 'failed') => void;
}

export interface SubscriptionDelivery {
  /** One pass at `nowMs`: pauses failing endpoints, sends what is due; answers how many were attempted. */
  tick(nowMs?: number): Promise<number>;
  /** Passes at `nowMs` until nothing more is due then. */
  drain(nowMs?: number): Promise<number>;
  /** Passes on a timer. */
  start(): void;
  stop(): Promise<void>;
}

/** The idempotency key of a delivery: the subscription and the event, the same on every retry and replay. */
export const deliveryKey = (c: Pick<Claimed, 'subscriptionId' | 'eventKey'>): string => `${c.subscriptionId}:${c.eventKey}`;

export function subscriptionDelivery(opts: SubscriptionDeliveryOptions): SubscriptionDelivery {
  const { db } = opts;
  const now = opts.now ?? Date.now;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const batch = opts.batch ?? 200;
  const idleMs = opts.idleMs ?? 1000;
  const agents = webhookAgents(opts.allow ?? NO_ALLOW);
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;

  /** The pause mailed to the subscription's contact, when it has one and a mail server is set; a failure is logged, never retried. */
  const tellContact = async (p: Paused): Promise<void> => {
    if (!opts.smtp || !p.contactEmail) return;
    try {
      await sendMail(
        opts.smtp,
        pausedMail({ name: p.name, url: p.url, contactEmail: p.contactEmail, failingSince: new Date(p.failingSince) }),
      );
    } catch (err) {
      opts.log?.warn({ err, subscriptionId: p.id }, 'event subscription pause could not be mailed');
    }
  };

  const send = async (c: Claimed, nowMs: number): Promise<{ claimed: Claimed; outcome: Outcome }> => {
    const started = performance.now();
    const r = await postSigned(agents, c.url, c.body, c.secret, nowMs, timeoutMs, {
      [DELIVERY_HEADER]: deliveryKey(c),
      [EVENT_HEADER]: c.eventType,
    });
    if (r.detail) opts.log?.warn({ deliveryId: c.id, detail: r.detail }, 'event subscription delivery failed');
    return { claimed: c, outcome: { ok: r.ok, status: r.status, error: r.error, latencyMs: performance.now() - started } };
  };

  const tick = async (nowMs = now()): Promise<number> => {
    for (const p of await pauseFailing(db, nowMs)) {
      await writeAudit(db, {
        action: 'subscriptionPaused',
        orgId: p.orgId,
        target: p.name,
        success: false,
        detail: { id: p.id, url: p.url },
      });
      await tellContact(p);
    }
    const claimed = await claim(db, nowMs, batch);
    const outcomes = await record(db, await Promise.all(claimed.map((c) => send(c, nowMs))), nowMs);
    for (const o of outcomes) opts.onAttempt?.(o);
    return claimed.length;
  };

  const drain = async (nowMs = now()): Promise<number> => {
    let total = 0;
    for (let n = await tick(nowMs); n > 0; n = await tick(nowMs)) total += n;
    return total;
  };

  const loop = (): void => {
    if (stopped) return;
    running = drain()
      .catch((err: unknown) => opts.log?.warn({ err }, 'event subscription pass failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(loop, idleMs);
      });
  };

  return {
    tick,
    drain,
    start: () => {
      if (!timer && !stopped) timer = setTimeout(loop, 0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      agents.destroy();
    },
  };
}
