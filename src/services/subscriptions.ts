import type { EventType } from '../../schemas/kit/subscriptionEvents';
import { call } from './http/call';

/** Event subscriptions of the caller's subtree, their delivery log and replay. */
export const SUBSCRIPTION_CODES = {
  add: 'subscription-add',
  edit: 'subscription-edit',
  remove: 'subscription-remove',
  replay: 'subscription-replay',
} as const;

export { EVENT_TYPES, type EventType } from '../../schemas/kit/subscriptionEvents';

export interface Subscription {
  id: number;
  orgId: number;
  orgName: string;
  name: string;
  url: string;
  eventTypes: EventType[];
  vehicleIds: number[] | null;
  state: 'active' | 'paused';
  pausedReason: 'manual' | 'failing' | null;
  failingSince: string | null;
  /** Told by e-mail when the subscription is paused for failing. */
  contactEmail: string | null;
  pending: number;
  createdAt: string;
  updatedAt: string;
}

/** The answer to a creation: the only time the secret is seen. */
export type CreatedSubscription = Subscription & { secret: string };

export interface NewSubscription {
  name: string;
  url: string;
  orgId?: number;
  eventTypes: EventType[];
  vehicleIds?: number[] | null;
  secret?: string;
  contactEmail?: string | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface Delivery {
  id: number;
  deliveryKey: string;
  eventType: EventType;
  vehicleId: number;
  eventTime: string;
  status: DeliveryStatus;
  attempts: number;
  httpStatus: number | null;
  latencyMs: number | null;
  error: string | null;
  nextAt: string;
  updatedAt: string;
}

const BASE = '/vehicle/subscription';

export const listSubscriptions = () => call<Subscription[]>(BASE, { method: 'GET' });

// The answer carries the secret shown once: the page says so itself.
export const createSubscription = (body: NewSubscription) =>
  call<CreatedSubscription>(BASE, { method: 'POST', data: body, authority: SUBSCRIPTION_CODES.add, quiet: true });

export const setSubscriptionState = (id: number, state: 'active' | 'paused') =>
  call<Subscription>(`${BASE}/${id}`, { method: 'PUT', data: { state }, authority: SUBSCRIPTION_CODES.edit, quiet: true });

export const deleteSubscription = (id: number) => call<void>(`${BASE}/${id}`, { method: 'DELETE', authority: SUBSCRIPTION_CODES.remove });

export const replaySubscription = (id: number, from: string) =>
  call<{ id: number; queued: number }>(`${BASE}/${id}/replay`, {
    method: 'POST',
    data: { from },
    authority: SUBSCRIPTION_CODES.replay,
    quiet: true,
  });

export const queryDeliveries = (id: number, pageIndex: number, pageSize: number) =>
  call<{ data: Delivery[]; total: number }>(`${BASE}/${id}/delivery/query`, { method: 'POST', data: { pageIndex, pageSize } });
