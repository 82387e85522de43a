/**
 * The bus on NATS JetStream, for a fleet run as several processes (NATS_URL set): gateway workers
 * publish what they committed, and every API/WebSocket process (`subscribe`) or one worker of a
 * group (`subscribeShared`, e.g. derivation) gets it, whichever process the terminal is connected
 * to. One stream holds every topic (subject `<prefix>.<topic>`) for `maxAgeMs`, so a consumer that
 * was away (a restarted process, a restarted nats-server) catches up from where it stopped.
 *
 * Publishing never drops: a message is retried until JetStream has stored it, in order, and
 * `settle()` waits for that. Payloads are JSON; committed batches in the packed form of storedWire.ts.
 */

import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type JetStreamClient,
  type JsMsg,
} from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { randomUUID } from 'node:crypto';
import type { Bus, Handler } from './bus';
import { packStored, unpackStored } from './storedWire';

export interface NatsBusOptions {
  url: string;
  /** Stream name (default FLEET) and subject prefix (default fleet). */
  stream?: string;
  prefix?: string;
  /** How long the stream keeps messages, ms (default 1 hour: room for a consumer to catch up). */
  maxAgeMs?: number;
  /** Largest message body; bigger payloads of array topics are split (default 512 KiB). */
  maxPayloadBytes?: number;
  onError?: (err: unknown, topic: string) => void;
  /** Connection name shown by nats-server (default the pid). */
  name?: string;
}

export interface NatsBus<Topics extends object> extends Bus<Topics> {
  readonly connection: NatsConnection;
  settle(): Promise<void>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A consumer name from a group and a topic ("derive" + "positions.stored" → "derive_positions_stored"). */
const consumerName = (group: string, topic: string) => `${group}_${topic}`.replace(/[^A-Za-z0-9_-]/g, '_');

/** Rows stringified to estimate a batch's size before it is stringified whole. */
const SAMPLE_ROWS = 32;

/**
 * A payload as one or more JSON bodies no larger than `max`: a `{ inserted: [...] }` batch (the
 * stored topics) is split by its list, so a 2,000-position batch never exceeds NATS's payload limit.
 * A batch whose first rows say it will not fit is split before it is stringified whole: that
 * wasted stringify was ~5 % of a gateway worker's CPU at its ceiling (docs/benchmarks.md).
 */
function bodies(payload: unknown, max: number): Uint8Array[] {
  const list = (payload as { inserted?: unknown[] } | null)?.inserted;
  const part = (inserted: unknown[]) => ({ ...(payload as object), inserted });
  if (Array.isArray(list) && list.length >= 4 * SAMPLE_ROWS) {
    const sample = Buffer.byteLength(JSON.stringify(packStored(part(list.slice(0, SAMPLE_ROWS)))));
    const parts = Math.ceil((sample * list.length) / SAMPLE_ROWS / (0.8 * max));
    if (parts > 1) {
      const size = Math.ceil(list.length / parts);
      const out: Uint8Array[] = [];
      for (let i = 0; i < list.length; i += size) out.push(...bodies(part(list.slice(i, i + size)), max));
      return out;
    }
  }
  const whole = Buffer.from(JSON.stringify(packStored(payload)));
  if (whole.length <= max || !Array.isArray(list) || list.length < 2) return [whole];
  const half = list.length >> 1;
  return [...bodies(part(list.slice(0, half)), max), ...bodies(part(list.slice(half)), max)];
}

export async function createNatsBus<Topics extends object>(opts: NatsBusOptions): Promise<NatsBus<Topics>> {
  const stream = opts.stream ?? 'FLEET';
  const prefix = opts.prefix ?? 'fleet';
  const max = opts.maxPayloadBytes ?? 512 * 1024;
  const onError = opts.onError ?? (() => undefined);
  const nc = await connect({
    servers: opts.url,
    name: opts.name ?? `fleet-${process.pid}`,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
  });
  const jsm = await jetstreamManager(nc);
  const config = {
    name: stream,
    subjects: [`${prefix}.>`],
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    max_age: (opts.maxAgeMs ?? 3_600_000) * 1_000_000, // nanoseconds
  };
  try {
    await jsm.streams.info(stream);
    await jsm.streams.update(stream, config);
  } catch {
    await jsm.streams.add(config);
  }
  const js: JetStreamClient = jetstream(nc);
  const subject = (topic: PropertyKey) => `${prefix}.${String(topic)}`;
  let chain: Promise<void> = Promise.resolve();
  let closed = false;
  const stops: Array<() => void> = [];

  /** Stored by JetStream, or retried until it is (nats-server restarting, a leader moving). */
  async function publishDurably(subj: string, body: Uint8Array): Promise<void> {
    const msgID = randomUUID();
    for (let attempt = 0; ; attempt++) {
      try {
        // The id lets JetStream drop the copy when a publish that timed out was stored after all.
        await js.publish(subj, body, { timeout: 5000, msgID });
        return;
      } catch (err) {
        if (closed) throw err;
        if (attempt % 20 === 0) onError(err, subj);
        await sleep(Math.min(2000, 100 * (attempt + 1)));
      }
    }
  }

  /** Runs `handler` for each message of `consumer` until stopped; `ack` says whether to acknowledge. */
  function run(
    topic: string,
    next: () => Promise<AsyncIterable<JsMsg> & { stop(): void }>,
    handler: Handler<never>,
    ack: boolean,
    active?: () => boolean,
  ): () => void {
    let stopped = false;
    let current: { stop(): void } | undefined;
    void (async () => {
      while (!stopped && !closed) {
        try {
          const messages = await next();
          current = messages;
          for await (const m of messages) {
            // Nobody to hand it to: not decoded (an ordered consumer, nothing to acknowledge).
            if (active && !active()) continue;
            try {
              await (handler as Handler<unknown>)(unpackStored(m.json()));
              if (ack) m.ack();
            } catch (err) {
              onError(err, topic);
              if (ack) m.nak(1000); // delivered again: the work is not lost
            }
          }
        } catch (err) {
          if (!stopped && !closed) onError(err, topic);
        }
        if (!stopped && !closed) await sleep(500); // the consumer ended (server gone): start again
      }
    })();
    const stop = () => {
      stopped = true;
      current?.stop();
    };
    stops.push(stop);
    return stop;
  }

  return {
    connection: nc,
    publish(topic, payload) {
      const subj = subject(topic);
      for (const body of bodies(payload, max))
        chain = chain.then(() => publishDurably(subj, body)).catch((err: unknown) => onError(err, String(topic)));
    },
    subscribe(topic, handler, options) {
      // An ordered consumer from now on: every process sees every message (live push).
      return run(
        String(topic),
        async () => (await js.consumers.get(stream, { filter_subjects: subject(topic), deliver_policy: DeliverPolicy.New })).consume(),
        handler as Handler<never>,
        false,
        options?.active,
      );
    },
    subscribeShared(topic, group, handler) {
      // One durable consumer per group: its members share the messages, each acknowledged once handled.
      const name = consumerName(group, String(topic));
      return run(
        String(topic),
        async () => {
          await jsm.consumers.add(stream, {
            durable_name: name,
            ack_policy: AckPolicy.Explicit,
            filter_subject: subject(topic),
            deliver_policy: DeliverPolicy.New,
            ack_wait: 30_000_000_000,
          });
          return (await js.consumers.get(stream, name)).consume();
        },
        handler as Handler<never>,
        true,
      );
    },
    settle: () => chain,
    async close() {
      await chain;
      closed = true;
      for (const stop of stops) stop();
      await nc.drain().catch(() => nc.close());
    },
  };
}
