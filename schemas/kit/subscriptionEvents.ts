/**
 * The event types an event subscription may carry: the server's outbox and routes and the console's
 * subscription page take them from here.
 */

export const EVENT_TYPES = ['position', 'alarm', 'geofence', 'maintenance', 'trip', 'command-result', 'media'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
