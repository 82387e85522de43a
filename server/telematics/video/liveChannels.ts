/**
 * Live channels: one upstream per terminal channel however many viewers watch it. The first viewer
 * asks the terminal to stream (0x9101, through `UpstreamControl`); each viewer gets an FLV stream
 * that starts with the decoder configuration and the current group of pictures (from its I frame,
 * so the first picture shows at once), and the audio as PCM if it asked for it; when the last viewer
 * leaves, the channel waits a grace time for another before it asks the terminal to stop (0x9102)
 * and forgets it.
 */

import { flvHeader } from './flv';
import { audioMessage, decodeAudio } from './audio';
import { CLOCK_EVERY_MS, clockMessage } from './clock';
import type { MediaFrame } from './frameAssembler';
import { DataType } from './rtpPacket';
import { frameTagOf, hasParameterSets, sequenceHeaderOf, videoFrameOf, type ParameterSets, type VideoFrame } from './videoFrame';

export interface ChannelKey {
  terminalId: number;
  channel: number;
}

/** Asks a terminal to start or stop streaming a channel. */
export interface UpstreamControl {
  open(key: ChannelKey): Promise<void>;
  close(key: ChannelKey): void;
}

/** A browser's end of a channel. */
export interface Viewer {
  send(chunk: Buffer): void;
  /** Wants the channel's audio too, as PCM messages beside the FLV (audio.ts). */
  audio?: boolean;
  /** Wants clock messages beside the FLV (clock.ts), for its latency. */
  clock?: boolean;
  /** The channel ended for this viewer (terminal gone, silent, refused), with the reason. */
  end(reason: string): void;
}

export interface LiveChannelsOptions {
  /** How long a channel without viewers keeps its upstream, ms. */
  graceMs: number;
  /** Bytes of the current group of pictures kept for viewers who join mid-way. */
  maxGopBytes: number;
}

export const DEFAULT_LIVE_OPTIONS: LiveChannelsOptions = { graceMs: 10_000, maxGopBytes: 4 * 1024 * 1024 };

interface ViewerState {
  viewer: Viewer;
  /** The terminal timestamp that is time 0 of this viewer's stream; null before its first frame. */
  base: number | null;
  last: number;
  /** When it was last sent a clock message (0: never). */
  clockAt: number;
}

interface Channel extends ParameterSets {
  key: ChannelKey;
  viewers: Set<ViewerState>;
  gop: VideoFrame[];
  gopBytes: number;
  grace: NodeJS.Timeout | null;
  /** Frames received since the channel opened. */
  frames: number;
  openedAt: number;
}

export function channelId(k: ChannelKey): string {
  return `${k.terminalId}/${k.channel}`;
}

export class LiveChannels {
  private readonly channels = new Map<string, Channel>();
  private readonly opts: LiveChannelsOptions;

  constructor(
    private readonly control: UpstreamControl,
    opts: Partial<LiveChannelsOptions> = {},
  ) {
    this.opts = { ...DEFAULT_LIVE_OPTIONS, ...opts };
  }

  /** Adds a viewer; the returned function takes it away again. The terminal is asked to stream if nobody watched. */
  watch(key: ChannelKey, viewer: Viewer): () => void {
    const id = channelId(key);
    let ch = this.channels.get(id);
    const fresh = !ch;
    if (!ch) {
      ch = { key, viewers: new Set(), sps: null, pps: null, gop: [], gopBytes: 0, grace: null, frames: 0, openedAt: Date.now() };
      this.channels.set(id, ch);
    }
    if (ch.grace) {
      clearTimeout(ch.grace);
      ch.grace = null;
    }
    const state: ViewerState = { viewer, base: null, last: 0, clockAt: 0 };
    ch.viewers.add(state);
    viewer.send(flvHeader());
    const header = ch.gop.length ? sequenceHeaderOf(ch) : null;
    if (header) {
      viewer.send(header);
      for (const f of ch.gop) this.sendFrame(state, f);
    }
    if (fresh) {
      const opened = ch;
      this.control.open(key).catch((e: unknown) => {
        if (this.channels.get(id) === opened)
          this.end(id, `the terminal did not start the stream: ${e instanceof Error ? e.message : String(e)}`);
      });
    }
    const channel = ch;
    return () => this.leave(id, channel, state);
  }

  /** Whether a terminal may send this channel: somebody asked for it. */
  accepts(key: ChannelKey): boolean {
    return this.channels.has(channelId(key));
  }

  /** A frame from the terminal's media connection. */
  frame(key: ChannelKey, f: MediaFrame): void {
    const ch = this.channels.get(channelId(key));
    if (!ch) return;
    if (f.dataType === DataType.audio) return this.audio(ch, f);
    const vf = videoFrameOf(f, ch);
    if (f.dataType <= DataType.bFrame) ch.frames++;
    if (!vf) return;
    if (vf.key) {
      ch.gop = [];
      ch.gopBytes = 0;
    }
    if (ch.gop.length || vf.key) {
      if (ch.gopBytes + vf.bytes <= this.opts.maxGopBytes) {
        ch.gop.push(vf);
        ch.gopBytes += vf.bytes;
      }
    }
    if (!hasParameterSets(ch)) return;
    let header: Buffer | null = null;
    for (const v of ch.viewers) {
      if (v.base === null) {
        if (!vf.key) continue; // waits for an I frame
        header ??= sequenceHeaderOf(ch);
        if (header) v.viewer.send(header);
      }
      this.sendFrame(v, vf);
    }
  }

  /** The terminal's stream of this channel ended (connection closed or silent): its viewers are told. */
  upstreamEnded(key: ChannelKey, reason: string): void {
    this.end(channelId(key), reason);
  }

  /** Channels open, with their viewers and frames (for metrics and tests). */
  list(): Array<ChannelKey & { viewers: number; frames: number; gopBytes: number }> {
    return [...this.channels.values()].map((c) => ({ ...c.key, viewers: c.viewers.size, frames: c.frames, gopBytes: c.gopBytes }));
  }

  /** Ends every channel (shutdown). */
  close(): void {
    for (const id of [...this.channels.keys()]) this.end(id, 'server stopping');
  }

  /** An audio frame, decoded to PCM for the viewers who want it, once they have their first picture. */
  private audio(ch: Channel, f: MediaFrame): void {
    const listeners = [...ch.viewers].filter((v) => v.viewer.audio && v.base !== null);
    if (!listeners.length) return;
    const pcm = decodeAudio(f.payloadType, f.data);
    if (!pcm?.length) return;
    const message = audioMessage(pcm);
    for (const v of listeners) v.viewer.send(message);
  }

  private sendFrame(v: ViewerState, f: VideoFrame): void {
    if (v.base === null) v.base = f.timestamp;
    // A terminal's clock that goes back is held at the last time: FLV timestamps never decrease.
    const t = Math.max(v.last, f.timestamp - v.base);
    v.last = t;
    v.viewer.send(frameTagOf(f, t));
    if (!v.viewer.clock) return;
    const now = Date.now();
    if (now - v.clockAt < CLOCK_EVERY_MS) return;
    v.clockAt = now;
    v.viewer.send(clockMessage(t, f.arrivedAt, now));
  }

  private leave(id: string, ch: Channel, state: ViewerState): void {
    if (!ch.viewers.delete(state) || ch.viewers.size > 0 || this.channels.get(id) !== ch) return;
    ch.grace = setTimeout(() => {
      if (this.channels.get(id) !== ch || ch.viewers.size > 0) return;
      this.channels.delete(id);
      this.control.close(ch.key);
    }, this.opts.graceMs);
    ch.grace.unref();
  }

  private end(id: string, reason: string): void {
    const ch = this.channels.get(id);
    if (!ch) return;
    this.channels.delete(id);
    if (ch.grace) clearTimeout(ch.grace);
    for (const v of ch.viewers) v.viewer.end(reason);
    this.control.close(ch.key);
  }
}
