/**
 * A simulated camera's recordings: it "records" every channel 1–4 in files of 25 minutes starting
 * on the hour and the half hour (so a timeline shows the gaps between files), which 0x9205 lists;
 * 0x9201 plays one back by streaming the test clip with the recording's times, and 0x9202 pauses,
 * resumes, speeds up (fast forward ×2 … ×16), seeks and ends it; asked for audio, it sends the tone
 * with the picture at ×1.
 */

import net from 'node:net';
import type { PlaybackControlBody, ResourceQueryBody, VideoResource } from '../telematics/jt808/codec';
import { encodeRtpPacket } from '../telematics/video/rtpPacket';
import { audioPacket, framePackets } from './camera';
import { CLIP_FPS, loadTestClip } from './testClip';

export const SIM_CHANNELS = [1, 2, 3, 4];
/** A file every half hour, 25 minutes long. */
export const FILE_EVERY_MS = 30 * 60_000;
export const FILE_MS = 25 * 60_000;
/** The most recordings one 0x1205 lists (the newest kept). */
export const MAX_RECORDINGS = 400;
const FRAME_MS = 1000 / CLIP_FPS;
/** 0x9202 speed codes 1–5: ×1 … ×16. */
const SPEEDS = [1, 1, 2, 4, 8, 16];

/** The recordings a resource query finds (files overlapping its range, before `now`). */
export function simRecordings(q: ResourceQueryBody, now = Date.now()): VideoResource[] {
  const from = q.begin ? Date.parse(q.begin) : now - 86_400_000;
  const to = Math.min(q.end ? Date.parse(q.end) : now, now);
  const channels = q.channel === 0 ? SIM_CHANNELS : SIM_CHANNELS.filter((c) => c === q.channel);
  const clip = loadTestClip();
  const bytesPerMs = clip.video.reduce((n, f) => n + f.data.length, 0) / clip.durationMs;
  const out: VideoResource[] = [];
  for (let start = Math.floor(from / FILE_EVERY_MS) * FILE_EVERY_MS; start < to; start += FILE_EVERY_MS) {
    const end = Math.min(start + FILE_MS, now);
    if (end <= from || end <= start) continue;
    for (const channel of channels)
      out.push({
        channel,
        begin: new Date(start).toISOString(),
        end: new Date(end).toISOString(),
        alarmFlags: 0,
        videoAlarmFlags: 0,
        resourceType: 2,
        stream: 1,
        storage: 1,
        size: Math.round((end - start) * bytesPerMs),
      });
  }
  return out.slice(-MAX_RECORDINGS);
}

export interface PlaybackTarget {
  host: string;
  port: number;
  sim: string;
  channel: number;
  /** Epoch ms. */
  begin: number;
  /** Epoch ms; null to the end of the recordings (now). */
  end: number | null;
  /** Send the tone too (0x9201 asked for audio: resource type 0 or 1), at ×1 only. */
  audio?: boolean;
}

/** The clip's frame shown at a recording time, and the time of the I frame its group starts at. */
function frameAt(t: number): { index: number; keyAt: number } {
  const clip = loadTestClip();
  const n = clip.video.length;
  let index = Math.floor(t / FRAME_MS) % n;
  let keyAt = Math.floor(t / FRAME_MS) * FRAME_MS;
  while (!clip.video[index].key) {
    index = (index - 1 + n) % n;
    keyAt -= FRAME_MS;
  }
  return { index, keyAt };
}

export class PlaybackStream {
  private socket: net.Socket | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private seq = 0;
  /** The recording time of the next frame, and the wall clock and recording time it is timed from. */
  private next = 0;
  private anchor = { wall: 0, at: 0 };
  private lastKey = 0;
  speed = 1;
  paused = false;
  /** Frames sent. */
  sent = 0;

  constructor(private readonly target: PlaybackTarget) {}

  start(): void {
    const socket = net.connect({ host: this.target.host, port: this.target.port });
    this.socket = socket;
    socket.setNoDelay(true);
    socket.on('error', () => undefined); // 'close' follows
    socket.on('close', () => this.stop());
    socket.on('connect', () => {
      this.jump(this.target.begin);
      this.tick();
    });
  }

  /** A 0x9202. */
  control(c: PlaybackControlBody): void {
    switch (c.command) {
      case 0: // play on, at ×1
        this.speed = 1;
        this.paused = false;
        this.reanchor();
        return;
      case 1:
        this.paused = true;
        return;
      case 2:
        this.stop();
        return;
      case 3: // fast forward
        this.speed = SPEEDS[c.speed] ?? 1;
        this.paused = false;
        this.reanchor();
        return;
      case 5:
        if (c.seekTo) this.jump(Date.parse(c.seekTo));
        this.paused = false;
        return;
    }
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.socket?.destroy();
  }

  get running(): boolean {
    return !this.stopped;
  }

  /** Goes on from the I frame at or before `t`. */
  private jump(t: number): void {
    this.next = frameAt(t).keyAt;
    this.reanchor();
  }

  private reanchor(): void {
    this.anchor = { wall: Date.now(), at: this.next };
  }

  private tick(): void {
    if (this.stopped) return;
    const clip = loadTestClip();
    // Every frame due by now at this speed: a late timer catches up rather than drifting.
    while (!this.stopped && !this.paused && (Date.now() - this.anchor.wall) * this.speed >= this.next - this.anchor.at) {
      if (this.target.end !== null && this.next >= this.target.end) return this.stop();
      const at = this.next;
      const { index } = frameAt(at);
      const f = clip.video[index];
      // The 40 ms of the tone this frame's time falls in, before it (a fast-forward plays no sound).
      const tone = clip.audio[Math.floor(at / FRAME_MS) % clip.audio.length];
      if (this.target.audio && this.speed === 1 && tone) {
        this.socket!.write(encodeRtpPacket(audioPacket(tone.data, this.target, this.seq, Math.round(at))));
        this.seq = (this.seq + 1) & 0xffff;
      }
      if (f.key) this.lastKey = at;
      const packets = framePackets(f, this.target, this.seq, Math.round(at), Math.round(at - this.lastKey), FRAME_MS);
      this.seq = (this.seq + packets.length) & 0xffff;
      for (const p of packets) this.socket!.write(encodeRtpPacket(p));
      this.sent++;
      this.next += FRAME_MS;
    }
    this.timer = setTimeout(() => this.tick(), 10);
  }
}
