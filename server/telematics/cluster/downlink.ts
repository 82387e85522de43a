/**
 * Downlink commands across processes, on NATS request/reply: each gateway worker answers on
 * `<prefix>.downlink.<terminalId>` for exactly the terminals whose live session it holds, so a
 * command from any API process reaches the terminal wherever it is connected, and "no responders"
 * means offline at once. The same request drops a session whose registration was reset
 * (`disconnect`) and makes a session read its binding again after a write moved its terminal or
 * vehicle (`rebind`). Terminal answers (0x0001, 0x0201, 0x0104) are published on
 * `<prefix>.downlink.responses` and ended sessions on `<prefix>.downlink.ended`, for whichever
 * process waits for them (prefix: `fleetctl`).
 *
 * One terminal logged in at two workers at once (a reconnect landing elsewhere before the old link
 * is noticed dead): before the login is accepted, the worker holding the terminal is asked whether
 * its session gives way (`takeover`: the same rule as within one process); once accepted, the
 * login is published on `<prefix>.session.opened` and the worker holding an older session of the
 * terminal closes it. The later login stays, whichever worker holds either.
 *
 * Commands themselves are not queued in JetStream: a command is for a terminal online now, and
 * its durable record is the terminal_command row its sender wrote.
 *
 * A command's bytes (JSON has none) travel as base64, and those beyond INLINE_BYTES by their
 * SHA-256 alone: the only such payload is an upgrade package (up to 8 MB, beyond NATS's 1 MB
 * messages), which the holder reads from the database where its upload stored it.
 */

import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { Downlink } from '../commands/service';
import type { Dispatched, SessionEnded, SessionOpened, TerminalResponse } from '../gateway/host';
import type { Jt808Gateway } from '../gateway/server';
import { serveHeldTerminals } from './heldTerminals';
import type { Jt808BodyInput } from '../jt808/codec';

/** Bytes above this go by their SHA-256 (NATS's default message limit is 1 MB). */
const INLINE_BYTES = 256 * 1024;
/** Reads bytes by their SHA-256 (the upgrade packages), null when none are stored so. */
export type BytesBySha256 = (sha256: string) => Promise<Buffer | null>;

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The message with its Buffers as `{$b64}` or `{$sha256}` (JSON.stringify would write them as arrays of numbers). */
export function toWire(v: unknown): unknown {
  if (Buffer.isBuffer(v))
    return v.length > INLINE_BYTES ? { $sha256: crypto.createHash('sha256').update(v).digest('hex') } : { $b64: v.toString('base64') };
  if (Array.isArray(v)) return v.map(toWire);
  return isPlain(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toWire(x)])) : v;
}

/** Bytes a command named by their SHA-256 that are not stored here (the package deleted meanwhile). */
class BytesGone extends Error {}

/** The message again, its bytes read back. */
export async function fromWire(v: unknown, bytesBy: BytesBySha256): Promise<unknown> {
  if (Array.isArray(v)) return Promise.all(v.map((x) => fromWire(x, bytesBy)));
  if (!isPlain(v)) return v;
  if (typeof v.$b64 === 'string') return Buffer.from(v.$b64, 'base64');
  if (typeof v.$sha256 === 'string') {
    const bytes = await bytesBy(v.$sha256);
    if (!bytes) throw new BytesGone(v.$sha256);
    return bytes;
  }
  return Object.fromEntries(await Promise.all(Object.entries(v).map(async ([k, x]) => [k, await fromWire(x, bytesBy)])));
}

type Request =
  | { op: 'online' }
  | { op: 'send'; message: unknown }
  | { op: 'disconnect'; reason: string }
  | { op: 'rebind' }
  | { op: 'takeover'; remoteAddress: string | null };
type Reply =
  { online: boolean } | { sent: Dispatched | null } | { disconnected: boolean } | { rebound: boolean } | { mayTakeOver: boolean };

const REQUEST_TIMEOUT_MS = 3000;
/** Outside the bus stream's subjects (`fleet.>`): JetStream would store the requests and answer them itself. */
export const DOWNLINK_PREFIX = 'fleetctl';

/** No bytes stored by their SHA-256 (a process with no database at hand). */
const noStoredBytes: BytesBySha256 = async () => null;

/**
 * Worker side: serves the terminals `gateway` holds, reading large bytes of a command with
 * `bytesBy`. Returns the function that stops serving.
 */
export function serveDownlink(
  nc: NatsConnection,
  gateway: Jt808Gateway,
  bytesBy: BytesBySha256 = noStoredBytes,
  prefix = DOWNLINK_PREFIX,
): () => void {
  const reply = async (terminalId: number, req: Request): Promise<Reply> => {
    if (req.op === 'send') {
      try {
        // The sender's toWire of a Jt808BodyInput: the same shape with its bytes back.
        return { sent: gateway.dispatch(terminalId, (await fromWire(req.message, bytesBy)) as Jt808BodyInput) };
      } catch (e) {
        if (e instanceof BytesGone) return { sent: null }; // nothing to send: as though offline
        throw e;
      }
    }
    if (req.op === 'disconnect') return { disconnected: gateway.disconnect(terminalId, req.reason) };
    if (req.op === 'rebind') return { rebound: (await gateway.rebind([terminalId])) > 0 };
    if (req.op === 'takeover') return { mayTakeOver: await gateway.yieldsTo(terminalId, req.remoteAddress) };
    return { online: gateway.isOnline(terminalId) };
  };
  const stopServing = serveHeldTerminals<Request>(
    nc,
    gateway,
    (terminalId) => `${prefix}.downlink.${terminalId}`,
    (terminalId, req, msg) => void reply(terminalId, req).then((r) => msg.respond(JSON.stringify(r))),
  );
  // Logins here close older sessions of the same terminal in the other workers, and theirs ours.
  const opened = (o: SessionOpened) => nc.publish(`${prefix}.session.opened`, JSON.stringify(o));
  const others = nc.subscribe(`${prefix}.session.opened`, {
    callback: (err, msg) => {
      if (err) return;
      try {
        gateway.supersede(msg.json<SessionOpened>());
      } catch {
        /* not a SessionOpened: ignored */
      }
    },
  });
  gateway.peers = {
    async mayTakeOver(terminalId, remoteAddress) {
      try {
        // The holder may probe its session first: wait as long as that probe may take.
        const m = await nc.request(
          `${prefix}.downlink.${terminalId}`,
          JSON.stringify({ op: 'takeover', remoteAddress } satisfies Request),
          {
            timeout: gateway.limits.takeoverProbeMs + REQUEST_TIMEOUT_MS,
          },
        );
        const r = m.json<Reply>();
        return !('mayTakeOver' in r) || r.mayTakeOver;
      } catch {
        return true; // no responders: no other worker holds the terminal (or its holder is gone)
      }
    },
  };
  const response = (r: TerminalResponse) => nc.publish(`${prefix}.downlink.responses`, JSON.stringify(r));
  const ended = (e: SessionEnded) => nc.publish(`${prefix}.downlink.ended`, JSON.stringify(e));
  gateway.on('sessionOpened', opened);
  gateway.on('response', response);
  gateway.on('sessionEnded', ended);
  return () => {
    stopServing();
    gateway.off('sessionOpened', opened);
    gateway.off('response', response);
    gateway.off('sessionEnded', ended);
    others.unsubscribe();
    gateway.peers = undefined;
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
    const r = await this.ask(terminalId, { op: 'send', message: toWire(message) });
    return r !== null && 'sent' in r ? r.sent : null;
  }

  async disconnect(terminalId: number, reason: string): Promise<boolean> {
    const r = await this.ask(terminalId, { op: 'disconnect', reason });
    return r !== null && 'disconnected' in r && r.disconnected;
  }

  /** The holders of these terminals' live sessions read their binding again; resolves once each answered (or none holds it). */
  async rebind(terminalIds: number[]): Promise<void> {
    await Promise.all(terminalIds.map((id) => this.ask(id, { op: 'rebind' })));
  }

  close(): void {
    this.responses.unsubscribe();
    this.ended.unsubscribe();
  }
}
