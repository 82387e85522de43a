/**
 * Webhook delivery: the alarm as JSON, POSTed and signed with HMAC-SHA256 over
 * `${timestamp}.${body}` with the rule's secret, so a receiver can check both origin and freshness.
 */

import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-fleet-signature';
export const TIMESTAMP_HEADER = 'x-fleet-timestamp';

/** 'sha256=<hex>' of `${timestamp}.${body}`. */
export function signBody(secret: string, timestamp: string, body: string): string {
  return 'sha256=' + createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

export interface PostResult {
  ok: boolean;
  status: number | null;
  error: string | null;
}

/** One attempt: a 2xx is success; anything else (status, refusal, timeout) is a failure to retry. */
export async function postSigned(url: string, body: string, secret: string | null, nowMs: number, timeoutMs: number): Promise<PostResult> {
  const timestamp = String(Math.floor(nowMs / 1000));
  const headers: Record<string, string> = { 'content-type': 'application/json', [TIMESTAMP_HEADER]: timestamp };
  if (secret) headers[SIGNATURE_HEADER] = signBody(secret, timestamp, body);
  try {
    const r = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    await r.arrayBuffer().catch(() => undefined);
    return { ok: r.status >= 200 && r.status < 300, status: r.status, error: r.status >= 200 && r.status < 300 ? null : `HTTP ${r.status}` };
  } catch (e) {
    return { ok: false, status: null, error: e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message).slice(0, 300) : String(e) };
  }
}
