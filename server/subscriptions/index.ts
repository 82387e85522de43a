/**
 * Event subscriptions: the routes (app.ts), and the outbox fed from the bus and sent by the
 * deliverer (bootstrap.ts). Events are queued once across processes (a shared subscription of the
 * bus; the outbox ignores an event queued before), and sent by whichever process claims them.
 */

import type { Kysely } from 'kysely';
import { sharedView, type ServerBus } from '../platform/bus';
import type { DB } from '../platform/db/tables';
import type { TargetAllow } from '../notify/target';
import { subscriptionDelivery, type SubscriptionDelivery, type SubscriptionDeliveryOptions } from './deliverer';
import { alarmEvents, commandEvents, mediaEvents, positionEvents, tripEvents } from './events';
import { enqueue, enqueueOfType } from './outbox';

export { registerSubscriptionRoutes } from './routes';

export interface SubscriptionFeed {
  delivery: SubscriptionDelivery;
  stop(): Promise<void>;
}

/** Queues the bus's alarms, positions, trips, command results and media into the outbox and, with `clock`, sends it on a timer. */
export function startSubscriptions(
  bus: ServerBus,
  opts: { db: Kysely<DB>; allow?: TargetAllow; clock: boolean } & Pick<SubscriptionDeliveryOptions, 'log' | 'onAttempt' | 'smtp'>,
): SubscriptionFeed {
  const { db } = opts;
  const shared = sharedView(bus, 'subscriptions');
  const unsubscribe = [
    shared.subscribe('alarm.raised', async (a) => void (await enqueue(db, await alarmEvents(db, [a.alarmId])))),
    shared.subscribe('positions.stored', async (batch) => void (await enqueueOfType(db, 'position', () => positionEvents(batch)))),
    shared.subscribe('trips.closed', async ({ trips }) => void (await enqueue(db, await tripEvents(db, trips)))),
    shared.subscribe('command.finished', async (f) => void (await enqueue(db, await commandEvents(db, f)))),
    shared.subscribe('media.stored', async (m) => void (await enqueue(db, await mediaEvents(db, m)))),
  ];
  const delivery = subscriptionDelivery(opts);
  if (opts.clock) delivery.start();
  return {
    delivery,
    async stop() {
      for (const u of unsubscribe) u();
      await delivery.stop();
    },
  };
}
