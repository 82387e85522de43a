/**
 * Where a viewer's stream comes from: the routes open live channels and playbacks, and pass on a
 * playback's controls, through this one interface, whether the channel's media server runs in this
 * process (`localVideo`) or in the gateway worker holding the terminal's session
 * (cluster/video.ts, over NATS).
 */

import type { ChannelKey, LiveChannels, Viewer } from './liveChannels';
import type { PlaybackCommand, PlaybackRange, Playbacks } from './playbacks';

export interface VideoSource {
  /** Adds a live viewer of a channel; the returned function takes it away again. */
  watch(key: ChannelKey, viewer: Viewer): () => void;
  /** Starts a viewer's own playback (`id`: the ticket's); the returned function ends it. */
  playback(id: string, key: ChannelKey, range: PlaybackRange, memberId: number, viewer: Viewer): () => void;
  /** A viewer's control of its playback; false when no such playback is open for that member. */
  control(id: string, memberId: number, command: PlaybackCommand): Promise<boolean>;
}

/** The live channels and playbacks of this process. */
export function localVideo(channels: LiveChannels, playbacks: Playbacks): VideoSource {
  return {
    watch: (key, viewer) => channels.watch(key, viewer),
    playback: (id, key, range, memberId, viewer) => playbacks.open(id, key, range, memberId, viewer),
    control: async (id, memberId, command) => playbacks.control(id, memberId, command),
  };
}
