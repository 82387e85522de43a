/**
 * A simulated camera: streams the shipped test clip (testClip.ts) as JT/T 1078 media packets over
 * TCP to the media server a 0x9101 names (with its G.711A tone when audio is asked), in real time
 * and in a loop, until stopped (0x9102) or the server closes the connection. Every demo terminal
 * has one (fleet.ts); its recordings are played back by cameraPlayback.ts.
 */

import net from 'node:net';
import { AV_CODING, MsgId, type DecodedMessage } from '../telematics/jt808/codec';
import { DataType, encodeRtpPacket, packetsOfFrame, Subpackage, type MediaPacket } from '../telematics/video/rtpPacket';
import type { SimTerminal } from './terminal';
import { PlaybackStream, simRecordings } from './cameraPlayback';
import { loadTestClip, type ClipFrame } from './testClip';

export interface CameraTarget {
  host: string;
  port: number;
  /** The SIM number the packets carry (the terminal's 808 number). */
  sim: string;
  channel: number;
  /** Send the clip's G.711A tone too (0x9101 asked for audio and video). */
  audio?: boolean;
}

/**
 * The packets of one clip frame. `seq` is its first packet's number, `timestamp` its time (ms),
 * `sinceKey` the ms since the last I frame, `sincePrevious` since the frame before.
 */
export function framePackets(
  frame: ClipFrame,
  target: Pick<CameraTarget, 'sim' | 'channel'>,
  seq: number,
  timestamp: number,
  sinceKey: number,
  sincePrevious: number,
): MediaPacket[] {
  return packetsOfFrame(
    frame.data,
    {
      payloadType: AV_CODING.h264,
      sim: target.sim,
      channel: target.channel,
      dataType: frame.key ? DataType.iFrame : DataType.pFrame,
      timestamp,
      lastIFrameIntervalMs: sinceKey,
      lastFrameIntervalMs: sincePrevious,
    },
    seq,
  );
}

/** One G.711A frame of the tone as an (atomic) audio packet. */
export function audioPacket(data: Buffer, target: Pick<CameraTarget, 'sim' | 'channel'>, seq: number, timestamp: number): MediaPacket {
  return {
    marker: true,
    payloadType: AV_CODING.g711a,
    seq,
    sim: target.sim,
    channel: target.channel,
    dataType: DataType.audio,
    subpackage: Subpackage.atomic,
    timestamp,
    lastIFrameIntervalMs: 0,
    lastFrameIntervalMs: 0,
    body: data,
  };
}

/** Every frame of the clip once, as packet lists, numbered from `seq` and timed from `t0`. */
export function clipPackets(target: Pick<CameraTarget, 'sim' | 'channel'>, seq = 0, t0 = 0): MediaPacket[][] {
  const out: MediaPacket[][] = [];
  let lastKey = 0;
  let previous = 0;
  for (const f of loadTestClip().video) {
    if (f.key) lastKey = f.at;
    const packets = framePackets(f, target, seq, t0 + f.at, f.at - lastKey, f.at - previous);
    previous = f.at;
    seq = (seq + packets.length) & 0xffff;
    out.push(packets);
  }
  return out;
}

export class CameraStream {
  private socket: net.Socket | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Frames sent. */
  sent = 0;

  constructor(private readonly target: CameraTarget) {}

  start(): void {
    const clip = loadTestClip();
    const socket = net.connect({ host: this.target.host, port: this.target.port });
    this.socket = socket;
    socket.setNoDelay(true);
    socket.on('error', () => undefined); // 'close' follows
    socket.on('close', () => this.stop());
    socket.on('connect', () => {
      const begin = Date.now();
      let seq = 0;
      let i = 0;
      let ai = 0;
      let lastKey = 0;
      const audio = this.target.audio ? clip.audio.filter((a) => a.at < clip.durationMs) : [];
      const audioAt = (k: number) => Math.floor(k / audio.length) * clip.durationMs + audio[k % audio.length].at;
      const tick = (): void => {
        if (this.stopped) return;
        // Every frame that is due by now, video and audio in time order: a late timer catches up rather than drifting.
        while (!this.stopped) {
          const loop = Math.floor(i / clip.video.length);
          const f = clip.video[i % clip.video.length];
          const at = loop * clip.durationMs + f.at;
          if (audio.length && audioAt(ai) <= at && audioAt(ai) <= Date.now() - begin) {
            const t = audioAt(ai);
            socket.write(encodeRtpPacket(audioPacket(audio[ai % audio.length].data, this.target, seq, begin + t)));
            seq = (seq + 1) & 0xffff;
            ai++;
            continue;
          }
          if (at > Date.now() - begin) break;
          if (f.key) lastKey = at;
          const packets = framePackets(f, this.target, seq, begin + at, at - lastKey, i ? 1000 / 25 : 0);
          seq = (seq + packets.length) & 0xffff;
          for (const p of packets) socket.write(encodeRtpPacket(p));
          this.sent++;
          i++;
        }
        this.timer = setTimeout(tick, 10);
      };
      tick();
    });
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.socket?.destroy();
  }

  get running(): boolean {
    return !this.stopped;
  }
}

/**
 * Makes a simulated terminal a camera terminal: it streams the clip on each channel a 0x9101 asks
 * for (one stream per channel, a new request replacing the old), and stops a channel on 0x9102
 * close and every channel when its 808 connection closes. It lists its recordings (0x9205,
 * cameraPlayback.ts) and plays one back on 0x9201, obeying 0x9202.
 */
export function attachCamera(
  terminal: SimTerminal,
  sim: string,
): { streams: Map<number, CameraStream>; playbacks: Map<number, PlaybackStream> } {
  const streams = new Map<number, CameraStream>();
  const playbacks = new Map<number, PlaybackStream>();
  terminal.recordings = (q) => simRecordings(q);
  terminal.on('command', (m: DecodedMessage) => {
    if (m.opaque !== undefined) return;
    if (m.msgId === MsgId.LiveVideoRequest) {
      streams.get(m.body.channel)?.stop();
      const s = new CameraStream({ host: m.body.host, port: m.body.tcpPort, sim, channel: m.body.channel, audio: m.body.dataType === 0 });
      streams.set(m.body.channel, s);
      s.start();
    } else if (m.msgId === MsgId.LiveVideoControl && m.body.command === 0) {
      streams.get(m.body.channel)?.stop();
      streams.delete(m.body.channel);
    } else if (m.msgId === MsgId.PlaybackRequest && m.body.begin) {
      playbacks.get(m.body.channel)?.stop();
      const p = new PlaybackStream({
        host: m.body.host,
        port: m.body.tcpPort,
        sim,
        channel: m.body.channel,
        begin: Date.parse(m.body.begin),
        end: m.body.end ? Date.parse(m.body.end) : null,
        audio: m.body.resourceType === 0 || m.body.resourceType === 1,
      });
      playbacks.set(m.body.channel, p);
      p.start();
    } else if (m.msgId === MsgId.PlaybackControl) {
      playbacks.get(m.body.channel)?.control(m.body);
      if (m.body.command === 2) playbacks.delete(m.body.channel);
    }
  });
  terminal.on('close', () => {
    for (const s of streams.values()) s.stop();
    for (const p of playbacks.values()) p.stop();
    streams.clear();
    playbacks.clear();
  });
  return { streams, playbacks };
}
