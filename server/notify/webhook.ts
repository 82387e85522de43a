/**
 * Webhook delivery: the alarm as JSON, POSTed and signed with HMAC-SHA256 over
 * `${timestamp}.${body}` with the rule's secret, so a receiver can check both origin and freshness.
 * Only to targets the guard allows (target.ts), checked on the literal URL and again on the
 * addresses the name resolves to when connecting.
 */

import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { guardedLookup, literalTargetProblem, TargetRefused, type TargetAllow } from './target';

export const SIGNATURE_HEADER = 'x-fleet-signature';
export const TIMESTAMP_HEADER = 'x-fleet-timestamp';

/** 'sha256=<hex>' of `${timestamp}.${body}`. */
export function signBody(secret: string, timestamp: string, body: string): string {
  return 'sha256=' + createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/**
 * The reasons the delivery log keeps: generic on purpose, so the log of a rule pointed at some host
 * and port tells nothing about what listens there (the detail goes to the server log only).
 */
export const TARGET_REFUSED = 'target refused';
export const DELIVERY_FAILED = 'delivery failed';

export interface PostResult {
  ok: boolean;
  status: number | null;
  /** What the delivery log keeps. */
  error: string | null;
  /** The underlying failure, for the server log only. */
  detail?: string;
  /** No retry can change the outcome (a refused target). */
  final?: boolean;
}

/** The agents deliveries go through: kept-alive connections, every name resolved through the guard. */
export interface WebhookAgents {
  http: http.Agent;
  https: https.Agent;
  allow: TargetAllow;
  destroy(): void;
}

export function webhookAgents(allow: TargetAllow): WebhookAgents {
  const lookup = guardedLookup(allow);
  const agents = { http: new http.Agent({ keepAlive: true, lookup }), https: new https.Agent({ keepAlive: true, lookup }) };
  return { ...agents, allow, destroy: () => (agents.http.destroy(), agents.https.destroy()) };
}

const refused = (detail: string): PostResult => ({ ok: false, status: null, error: TARGET_REFUSED, detail, final: true });

/** One attempt: a 2xx is success; anything else (status, refusal, timeout) is a failure. */
export async function postSigned(
  agents: WebhookAgents,
  url: string,
  body: string,
  secret: string | null,
  nowMs: number,
  timeoutMs: number,
  /** Further headers (an event subscription's delivery key and event type). */
  extraHeaders: Readonly<Record<string, string>> = {},
): Promise<PostResult> {
  // A literal address is connected to without a lookup: it is checked here; names (localhost too)
  // are checked by the agents' lookup on the addresses actually connected to.
  const problem = literalTargetProblem(url, agents.allow, { localNames: false });
  if (problem)
    return refused(
      problem === 'scheme' ? `${url} is not an http(s) URL` : `${url} names an address webhooks may not reach (WEBHOOK_ALLOW)`,
    );
  const target = new URL(url);
  const timestamp = String(Math.floor(nowMs / 1000));
  const headers: Record<string, string> = {
    ...extraHeaders,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    [TIMESTAMP_HEADER]: timestamp,
  };
  if (secret) headers[SIGNATURE_HEADER] = signBody(secret, timestamp, body);
  const secure = target.protocol === 'https:';
  return new Promise<PostResult>((resolve) => {
    // Redirects are not followed: a 3xx is a failure like any other non-2xx.
    const req = (secure ? https : http).request(
      target,
      { method: 'POST', headers, agent: secure ? agents.https : agents.http, signal: AbortSignal.timeout(timeoutMs) },
      (res) => {
        const status = res.statusCode ?? 0;
        res.resume();
        const ok = status >= 200 && status < 300;
        // The status decides; a body cut short (or its error) changes nothing. First settle wins.
        res.on('close', () => resolve({ ok, status, error: ok ? null : `HTTP ${status}` }));
        res.on('error', () => undefined);
      },
    );
    req.on('error', (e) =>
      resolve(
        e instanceof TargetRefused
          ? refused(e.message)
          : { ok: false, status: null, error: DELIVERY_FAILED, detail: `${url}: ${e.message}` },
      ),
    );
    req.end(body);
  });
}
