import { call } from './http/call';

/** Video of a vehicle's camera channels (server/telematics/video), live or recorded: a stream ticket, then the stream. */

export const VIDEO_LIVE_CODE = 'video-live';

export interface LiveTicket {
  ticket: string;
  /** The stream's path on this server (WebSocket, FLV). */
  url: string;
  expiresAt: string;
}

/**
 * A ticket for one opening of the channel (406: no terminal, the terminal offline, or video off);
 * with `audio`, the stream carries the channel's sound as PCM messages beside the FLV.
 */
export const openLiveVideo = (vehicleId: number, channel: number, audio = false) =>
  call<LiveTicket>('/video/live', {
    method: 'POST',
    data: { vehicleId, channel, audio },
    authority: VIDEO_LIVE_CODE,
    skipErrorHandler: true,
  });

/** The WebSocket address of a ticket's stream path, on the page's own host. */
export function streamSocketUrl(path: string, location: Pick<Location, 'href' | 'protocol'> = window.location): string {
  const u = new URL(path, location.href);
  u.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return u.toString();
}

export const VIDEO_PLAYBACK_CODE = 'video-playback';

/** One recording a terminal lists (0x1205): a channel's video from `begin` to `end`. */
export interface VideoRecord {
  channel: number;
  begin: string;
  end: string | null;
  size: number;
}

/** The terminal's recordings of a channel (0: every channel) in a range (the terminal is asked at once). */
export const queryRecords = (vehicleId: number, channel: number, begin: string, end: string) =>
  call<{ records: VideoRecord[] }>('/video/records', {
    method: 'POST',
    data: { vehicleId, channel, begin, end },
    authority: VIDEO_PLAYBACK_CODE,
    skipErrorHandler: true,
  });

export interface PlaybackTicket extends LiveTicket {
  /** Names the playback for its controls. */
  playbackId: string;
}

/** A ticket for one playback of the channel's recording from `begin` (with its sound, when `audio`). */
export const openPlayback = (vehicleId: number, channel: number, begin: string, audio = false) =>
  call<PlaybackTicket>('/video/playback', {
    method: 'POST',
    data: { vehicleId, channel, begin, audio },
    authority: VIDEO_PLAYBACK_CODE,
    skipErrorHandler: true,
  });

export const PLAYBACK_SPEEDS = [1, 2, 4, 8, 16] as const;
export type PlaybackSpeed = (typeof PLAYBACK_SPEEDS)[number];

export type PlaybackControl =
  { command: 'pause' } | { command: 'resume' } | { command: 'speed'; speed: PlaybackSpeed } | { command: 'seek'; at: string };

/** Pauses, resumes, speeds up or seeks an open playback (the terminal is told with 0x9202). */
export const controlPlayback = (playbackId: string, c: PlaybackControl) =>
  call<{ ok: true }>(`/video/playback/${encodeURIComponent(playbackId)}/control`, {
    method: 'POST',
    data: c,
    authority: VIDEO_PLAYBACK_CODE,
  });

/** A vehicle's camera channel and its name from the vehicle model (null: the default "通道 N"). */
export interface ChannelName {
  channel: number;
  name: string | null;
}

export const fetchChannelNames = (vehicleId: number) =>
  call<{ channels: ChannelName[] }>('/video/channels', { method: 'GET', params: { vehicleId }, quiet: true, skipErrorHandler: true });
