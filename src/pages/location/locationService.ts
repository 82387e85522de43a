import { request } from '@umijs/max';
import type { MapConfig, SharedLocation } from './locationFormat';

// Public calls: no session needed, and the page shows their failures itself.
export const sharedLocation = (ticket: string) => request<SharedLocation>(`/location/${encodeURIComponent(ticket)}`, { method: 'GET', skipErrorHandler: true });

export const mapConfig = () => request<MapConfig>('/map/config', { method: 'GET', skipErrorHandler: true });
