/**
 * Recorded playback: each viewer has a playback of its own (a recording is watched from where that
 * viewer chose, at the speed it chose). Opening one asks the terminal (0x9201) to send the recording
 * to the media server; the first connection that brings that terminal's channel while the playback
 * waits is its feed (the media server asks `claim`). Pause, resume, speed and seek go down as 0x9202;
 * the viewer leaving ends the playback (0x9202 end) and drops its connection.
 *
 * FLV time is the picture's own: each frame advances it by the terminal's interval between frames
 * divided by the speed (a jump — a seek, a gap in the recording — counts as one frame's interval),
 * so the browser's player plays on without a hole whatever the terminal's clock does.
 */

import { audioMessage, decodeAudio } from './audio';
import { flvHeader } from './flv';
import type { MediaFrame } from './frameAssembler';
import { channelId, type ChannelKey, type Viewer } from './liveChannels';
import { DataType } from './rtpPacket';
import { frameTagOf, hasParameterSets, sequenceHeaderOf, videoFrameOf, type ParameterSets, type VideoFrame } from './videoFrame';

/** Playback speeds of JT/T 1078 (0x9201/0x9202 speed 1–5). */
export const PLAYBACK_SPEEDS = [1, 2, 4, 8, 16] as const;
export type PlaybackSpeed = (typeof PLAYBACK_SPEEDS)[number];

export type PlaybackCommand =
  | { kind: 'pause' }
  | { kind: 'resume' }
  | { kind: 'speed'; speed: PlaybackSpeed }
  /** ISO time inside the recording. */
  | { kind: 'seek'; at: string };

export interface PlaybackRange {
  /** ISO UTC. */
  begin: string;
  /** ISO UTC; null to the end of the recording. */
  end: string | null;
}

/** Asks a terminal to play a recording back, controls it and ends it. */
export interface PlaybackSignals {
  start(key: ChannelKey, range: PlaybackRange): Promise<void>;
  control(key: ChannelKey, command: PlaybackCommand | { kind: 'end' }): void;
}

/** What the media server feeds a playback's frames through. */
export interface PlaybackFeed {
  id: string;
  frame(f: MediaFrame): void;
  /** Paused by its viewer (the terminal sends nothing meanwhile). */
  paused(): boolean;
  /** The connection ended (the recording's end, the terminal gone or silent). */
  ended(reason: string): void;
}

export interface PlaybacksOptions {
  /** How long the terminal has to connect once it accepted the playback, ms. */
  connectMs: number;
}

/** A frame interval assumed when the terminal's times jump (25 fps). */
const FRAME_MS = 40;
/** An interval above this between two frames is a jump (a seek, a gap between recordings), ms. */
const MAX_STEP_MS = 1000;

interface Playback extends ParameterSets {
  id: string;
  key: ChannelKey;
  /** The member who opened it: the only one who controls it. */
  memberId: number;
  viewer: Viewer;
  speed: PlaybackSpeed;
  paused: boolean;
  /** A media connection feeds it. */
  fed: boolean;
  /** Drops the media connection. */
  drop: (() => void) | null;
  started: boolean;
  /** FLV time of the last frame sent (ms, unrounded), and the terminal's time of it. */
  flvExact: number;
  terminalMs: number | null;
  frames: number;
  timer: NodeJS.Timeout | null;
}

export class Playbacks {
  private readonly sessions = new Map<string, Playback>();
  private readonly opts: PlaybacksOptions;

  constructor(
    private readonly signals: PlaybackSignals,
    opts: Partial<PlaybacksOptions> = {},
  ) {
    this.opts = { connectMs: 15_000, ...opts };
  }

  /**
   * Starts a playback for one viewer; the returned function ends it. `id` names it for controls
   * (it is the ticket's, so the console knows it before the stream opens).
   */
  open(id: string, key: ChannelKey, range: PlaybackRange, memberId: number, viewer: Viewer): () => void {
    const p: Playback = {
      id,
      key,
      memberId,
      viewer,
      speed: 1,
      paused: false,
      fed: false,
      drop: null,
      started: false,
      flvExact: 0,
      terminalMs: null,
      frames: 0,
      sps: null,
      pps: null,
      timer: null,
    };
    this.sessions.set(id, p);
    viewer.send(flvHeader());
    this.signals.start(key, range).then(
      () => {
        if (this.sessions.get(id) !== p || p.fed) return;
        p.timer = setTimeout(() => this.end(p, 'the terminal did not send the recording'), this.opts.connectMs);
        p.timer.unref();
      },
      (e: unknown) => this.end(p, `the terminal did not start the playback: ${e instanceof Error ? e.message : String(e)}`, false),
    );
    return () => this.end(p, null);
  }

  /** The playback a new media connection bringing this channel feeds, if one waits for it. */
  claim(key: ChannelKey, drop: () => void): PlaybackFeed | null {
    const id = channelId(key);
    const p = [...this.sessions.values()].find((s) => !s.fed && channelId(s.key) === id);
    if (!p) return null;
    p.fed = true;
    p.drop = drop;
    if (p.timer) clearTimeout(p.timer);
    return {
      id: p.id,
      frame: (f) => this.frame(p, f),
      paused: () => p.paused,
      ended: (reason) => this.end(p, reason, false),
    };
  }

  /** Applies a viewer's control; false when the playback is not open or not the member's. */
  control(id: string, memberId: number, command: PlaybackCommand): boolean {
    const p = this.sessions.get(id);
    if (!p || p.memberId !== memberId) return false;
    if (command.kind === 'speed') p.speed = command.speed;
    // Anything but a pause plays on (0x9202 play, fast forward and seek all resume a paused terminal).
    p.paused = command.kind === 'pause';
    this.signals.control(p.key, command);
    return true;
  }

  /** Playbacks open (for metrics and tests). */
  list(): Array<ChannelKey & { id: string; fed: boolean; frames: number; speed: number; paused: boolean; at: number | null }> {
    return [...this.sessions.values()].map((p) => ({
      ...p.key,
      id: p.id,
      fed: p.fed,
      frames: p.frames,
      speed: p.speed,
      paused: p.paused,
      /** The recording time (the terminal's) of the last frame sent, ms. */
      at: p.terminalMs,
    }));
  }

  /** Ends every playback (shutdown). */
  close(): void {
    for (const p of [...this.sessions.values()]) this.end(p, 'server stopping');
  }

  private frame(p: Playback, f: MediaFrame): void {
    if (this.sessions.get(p.id) !== p) return;
    if (f.dataType === DataType.audio) {
      // Sound once the picture has started, for a viewer who asked for it.
      const pcm = p.viewer.audio && p.started ? decodeAudio(f.payloadType, f.data) : null;
      if (pcm?.length) p.viewer.send(audioMessage(pcm));
      return;
    }
    const vf = videoFrameOf(f, p);
    if (!vf || !hasParameterSets(p)) return;
    if (!p.started) {
      if (!vf.key) return; // waits for an I frame
      p.started = true;
      p.viewer.send(sequenceHeaderOf(p)!); // hasParameterSets: there is one
    } else {
      const step = p.terminalMs === null ? FRAME_MS : vf.timestamp - p.terminalMs;
      // Kept exact and rounded when sent, so ×16's 2.5 ms a frame does not drift to 3.
      p.flvExact += (step > 0 && step <= MAX_STEP_MS ? step : FRAME_MS) / p.speed;
    }
    p.terminalMs = vf.timestamp;
    p.frames++;
    this.send(p, vf);
  }

  private send(p: Playback, vf: VideoFrame): void {
    p.viewer.send(frameTagOf(vf, Math.round(p.flvExact)));
  }

  /** Ends a playback: the viewer told (`reason`, unless it left itself), the terminal told to stop when it may still send. */
  private end(p: Playback, reason: string | null, tellTerminal = true): void {
    if (this.sessions.get(p.id) !== p) return;
    this.sessions.delete(p.id);
    if (p.timer) clearTimeout(p.timer);
    if (tellTerminal) this.signals.control(p.key, { kind: 'end' });
    p.drop?.();
    if (reason !== null) p.viewer.end(reason);
  }
}
