import { call } from './http/call';

/** Live video of a vehicle's camera channels (server/telematics/video): a stream ticket, then the stream. */

export const VIDEO_LIVE_CODE = 'video-live';

export interface LiveTicket {
  ticket: string;
  /** The stream's path on this server (WebSocket, FLV). */
  url: string;
  expiresAt: string;
}

/** A ticket for one opening of the channel (406: no terminal, the terminal offline, or video off). */
export const openLiveVideo = (vehicleId: number, channel: number) =>
  call<LiveTicket>('/video/live', { method: 'POST', data: { vehicleId, channel }, authority: VIDEO_LIVE_CODE, skipErrorHandler: true });

/** The WebSocket address of a ticket's stream path, on the page's own host. */
export function streamSocketUrl(path: string, location: Pick<Location, 'href' | 'protocol'> = window.location): string {
  const u = new URL(path, location.href);
  u.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return u.toString();
}
