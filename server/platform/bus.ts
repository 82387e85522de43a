/**
 * A small typed in-process event bus: features publish what happened under a topic and others
 * subscribe, so neither imports the other. Delivery is synchronous and in subscription order; a
 * handler that throws or rejects is reported to `onError` and never reaches the publisher or the
 * other handlers. A durable implementation (e.g. NATS JetStream) can sit behind the same interface.
 */
import type { SessionTopics } from './auth/sessionChanges';
import type { ForwardTopics } from './forwardChanges';
import type { TelemetryTopics } from './telemetry';

export type Handler<P> = (payload: P) => void | Promise<void>;

export interface SubscribeOptions {
  /**
   * Asked before each message is decoded: false skips it. For a listener with nobody to hand it to
   * (live push without sockets), so a durable bus does not parse every batch for nothing.
   */
  active?: () => boolean;
}

export interface Bus<Topics extends object> {
  publish<K extends keyof Topics>(topic: K, payload: Topics[K]): void;
  /** Every subscriber of every process gets every message. Returns the function that unsubscribes this handler. */
  subscribe<K extends keyof Topics>(topic: K, handler: Handler<Topics[K]>, options?: SubscribeOptions): () => void;
  /**
   * Each message goes to one subscriber of `group` across all processes, and is delivered again
   * when its handler fails (work such as derivation, done once however many processes run). In one
   * process it is the same as `subscribe`.
   */
  subscribeShared?<K extends keyof Topics>(topic: K, group: string, handler: Handler<Topics[K]>): () => void;
  /** Resolves once what was published so far is delivered or durably stored; absent: nothing to wait for. */
  settle?(): Promise<void>;
  /** Releases connections (a durable bus); absent: nothing to release. */
  close?(): Promise<void>;
}

/**
 * The bus as seen by work done once per fleet: its `subscribe` is `subscribeShared` in `group`
 * when the bus has it (so code written for `subscribe`, such as derivation, is not repeated by
 * every process).
 */
export function sharedView<Topics extends object>(bus: Bus<Topics>, group: string): Bus<Topics> {
  const shared = bus.subscribeShared?.bind(bus);
  if (!shared) return bus;
  return { publish: (t, p) => bus.publish(t, p), subscribe: (t, h) => shared(t, group, h) };
}

/** The server's topics: telemetry's, the sessions' and the forwarding links'; a feature adding topics extends this type. */
export type ServerTopics = TelemetryTopics & SessionTopics & ForwardTopics;
export type ServerBus = Bus<ServerTopics>;

export function createBus<Topics extends object = ServerTopics>(
  onError: (err: unknown, topic: keyof Topics) => void = () => undefined,
): Bus<Topics> {
  // One entry per subscription, so subscribing the same function twice delivers twice and each unsubscribe removes one.
  const handlers = new Map<keyof Topics, Set<{ h: Handler<never>; active?: () => boolean }>>();
  return {
    publish(topic, payload) {
      const set = handlers.get(topic);
      if (!set) return;
      for (const { h, active } of [...set]) {
        if (active && !active()) continue;
        try {
          const r = (h as Handler<typeof payload>)(payload);
          if (r instanceof Promise) r.catch((err: unknown) => onError(err, topic));
        } catch (err) {
          onError(err, topic);
        }
      }
    },
    subscribe(topic, handler, options) {
      let set = handlers.get(topic);
      if (!set) handlers.set(topic, (set = new Set()));
      const entry = { h: handler as Handler<never>, active: options?.active };
      set.add(entry);
      return () => void set.delete(entry);
    },
    subscribeShared(topic, _group, handler) {
      return this.subscribe(topic, handler);
    },
  };
}
