import type { MapConfig, SharedLocation } from '../../schemas/kit/location';
import { call } from './http/call';

export type { MapConfig, SharedLocation, SharedPosition } from '../../schemas/kit/location';

// Public calls: no session needed, and the page shows their failures itself.
export const sharedLocation = (ticket: string) =>
  call<SharedLocation>(`/location/${encodeURIComponent(ticket)}`, { method: 'GET', skipErrorHandler: true });

export const mapConfig = () => call<MapConfig>('/map/config', { method: 'GET', skipErrorHandler: true });
