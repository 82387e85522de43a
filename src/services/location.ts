import { call } from './http/call';

export interface SharedPosition {
  latitude: number;
  longitude: number;
  speed: number;
  direction: number;
  /** ISO 8601. */
  time: string;
}

/** `GET /api/location/{ticket}`. */
export interface SharedLocation {
  licence: string;
  position: SharedPosition | null;
}

/** `GET /api/map/config`: the tiles a map may load (none by default). */
export interface MapConfig {
  tileUrl: string | null;
  coordSystem: 'WGS84' | 'GCJ02';
  /** Credit to show on the map (HTML of a text and links); null when none is needed. */
  attribution: string | null;
}

// Public calls: no session needed, and the page shows their failures itself.
export const sharedLocation = (ticket: string) =>
  call<SharedLocation>(`/location/${encodeURIComponent(ticket)}`, { method: 'GET', skipErrorHandler: true });

export const mapConfig = () => call<MapConfig>('/map/config', { method: 'GET', skipErrorHandler: true });
