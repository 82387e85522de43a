/**
 * A worker answers on one subject per terminal it holds (`<prefix>.<kind>.<terminalId>`), from the
 * session's login to its end: a request for a terminal no worker holds finds no responders, which
 * tells the sender "offline" at once. The downlink and the video requests are served this way.
 */

import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import type { Jt808Gateway } from '../gateway/server';

/**
 * Serves `subject(terminalId)` for each terminal `gateway` holds; `handle` gets each request's
 * JSON (a malformed one gets no answer: its sender times out). Returns the function that stops.
 */
export function serveHeldTerminals<R>(
  nc: NatsConnection,
  gateway: Jt808Gateway,
  subject: (terminalId: number) => string,
  handle: (terminalId: number, req: R, msg: Msg) => void,
): () => void {
  const subs = new Map<number, Subscription>();
  const online = (terminalId: number) => {
    subs.get(terminalId)?.unsubscribe();
    subs.set(
      terminalId,
      nc.subscribe(subject(terminalId), {
        callback: (err, msg) => {
          if (err) return;
          let req: R;
          try {
            req = msg.json<R>();
          } catch {
            return;
          }
          handle(terminalId, req, msg);
        },
      }),
    );
  };
  const offline = (terminalId: number) => {
    subs.get(terminalId)?.unsubscribe();
    subs.delete(terminalId);
  };
  gateway.on('online', online);
  gateway.on('offline', offline);
  return () => {
    gateway.off('online', online);
    gateway.off('offline', offline);
    for (const s of subs.values()) s.unsubscribe();
    subs.clear();
  };
}
