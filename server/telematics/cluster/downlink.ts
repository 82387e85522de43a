/**
 * Downlink commands across processes, on NATS request/reply: each gateway worker answers on
 * `<prefix>.downlink.<terminalId>` for exactly the terminals whose live session it holds, so a
 * command from any API process reaches the terminal wherever it is connected, and "no responders"
 * means offline at once. Terminal answers (0x0001, 0x0201, 0x0104) are published on
 * `<prefix>.downlink.responses` and ended sessions on `<prefix>.downlink.ended`, for whichever
 * process waits for them (prefix: `fleetctl`).
 *
 * Commands themselves are not queued in JetStream: a command is for a terminal online now, and
 * its durable record is the terminal_command row its sender wrote.
 */

import { EventEmitter } from 'node:events';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { Downlink } from '../commands/service';
import type { Dispatched, SessionEnded, TerminalResponse } from '../gateway/host';
import type { Jt808Gateway } from '../gateway/server';
import type { Jt808BodyInput } from '../jt808/codec';

type Request = { op: 'online' } | { op: 'send'; message: Jt808BodyInput } | { op: 'disconnect'; reason: string };
type Reply = { online: boolean } | { sent: Dispatched | null } | { disconnected: boolean };

const REQUEST_TIMEOUT_MS = 3000;
/** Outside the bus stream's subjects (`fleet.>`): JetStream would store the requests and answer them itself. */
export const DOWNLINK_PREFIX = 'fleetctl';

/** Worker side: serves the terminals `gateway` holds. Returns the function that stops serving. */
export function serveDownlink(nc: NatsConnection, gateway: Jt808Gateway, prefix = DOWNLINK_PREFIX): () => void {
  const subs = new Map<number, Subscription>();
  const reply = (terminalId: number, req: Request): Reply => {
    if (req.op === 'send') return { sent: gateway.dispatch(terminalId, req.message) };
    if (req.op === 'disconnect') return { disconnected: gateway.disconnect(terminalId, req.reason) };
    return { online: gateway.isOnline(terminalId) };
  };
  const online = (terminalId: number) => {
    subs.get(terminalId)?.unsubscribe();
    subs.set(
      terminalId,
      nc.subscribe(`${prefix}.downlink.${terminalId}`, {
        callback: (err, msg) => {
          if (err) return;
          try {
            msg.respond(JSON.stringify(reply(terminalId, msg.json<Request>())));
          } catch {
            /* a malformed request gets no answer: the sender times out */
          }
        },
      }),
    );
  };
  const offline = (terminalId: number) => {
    subs.get(terminalId)?.unsubscribe();
    subs.delete(terminalId);
  };
  const response = (r: TerminalResponse) => nc.publish(`${prefix}.downlink.responses`, JSON.stringify(r));
  const ended = (e: SessionEnded) => nc.publish(`${prefix}.downlink.ended`, JSON.stringify(e));
  gateway.on('online', online);
  gateway.on('offline', offline);
  gateway.on('response', response);
  gateway.on('sessionEnded', ended);
  return () => {
    gateway.off('online', online);
    gateway.off('offline', offline);
    gateway.off('response', response);
    gateway.off('sessionEnded', ended);
    for (const s of subs.values()) s.unsubscribe();
    subs.clear();
  };
}

/** API side: the Downlink of CommandService when gateways run in other processes. */
export class NatsDownlink extends EventEmitter implements Downlink {
  private readonly responses: Subscription;
  private readonly ended: Subscription;

  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix = DOWNLINK_PREFIX,
  ) {
    super();
    this.responses = nc.subscribe(`${prefix}.downlink.responses`, {
      callback: (err, msg) => {
        if (!err) this.emit('response', msg.json<TerminalResponse>());
      },
    });
    this.ended = nc.subscribe(`${prefix}.downlink.ended`, {
      callback: (err, msg) => {
        if (!err) this.emit('sessionEnded', msg.json<SessionEnded>());
      },
    });
  }

  /** The holder's answer, or null when no worker holds the terminal (or it did not answer in time). */
  private async ask(terminalId: number, req: Request): Promise<Reply | null> {
    try {
      const m = await this.nc.request(`${this.prefix}.downlink.${terminalId}`, JSON.stringify(req), { timeout: REQUEST_TIMEOUT_MS });
      return m.json<Reply>();
    } catch {
      return null; // no responders: offline
    }
  }

  async isOnline(terminalId: number): Promise<boolean> {
    const r = await this.ask(terminalId, { op: 'online' });
    return r !== null && 'online' in r && r.online;
  }

  async dispatch(terminalId: number, message: Jt808BodyInput): Promise<Dispatched | null> {
    const r = await this.ask(terminalId, { op: 'send', message });
    return r !== null && 'sent' in r ? r.sent : null;
  }

  async disconnect(terminalId: number, reason: string): Promise<boolean> {
    const r = await this.ask(terminalId, { op: 'disconnect', reason });
    return r !== null && 'disconnected' in r && r.disconnected;
  }

  close(): void {
    this.responses.unsubscribe();
    this.ended.unsubscribe();
  }
}
