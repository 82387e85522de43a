/**
 * Asking terminals to stream over their 808 session: 0x9101 (audio and video of a channel, main stream, to
 * the media server's address) answered by the terminal's 0x0001, and 0x9102 to close the channel.
 * `askTerminal` is the one way a video message waits for its answer (the serial it went out with).
 */

import type { Downlink } from '../commands/service';
import type { TerminalResponse } from '../gateway/host';
import { MsgId, type Jt808BodyInput, type PlaybackControlBody, type VideoResource } from '../jt808/codec';
import type { ChannelKey, UpstreamControl } from './liveChannels';
import type { PlaybackCommand, PlaybackRange, PlaybackSignals, PlaybackSpeed } from './playbacks';

export interface MediaAddress {
  /** The address terminals dial (JT1078_MEDIA_HOST). */
  host: string;
  /** The media server's port, TCP and UDP alike (the terminal chooses its transport). */
  port: number;
}

/** How long a terminal has to answer 0x9101. */
export const OPEN_ANSWER_MS = 10_000;

export class UpstreamError extends Error {
  constructor(readonly reason: 'offline' | 'refused' | 'noAnswer') {
    super(
      reason === 'offline'
        ? 'the terminal is offline'
        : reason === 'refused'
          ? 'the terminal refused the stream'
          : 'the terminal did not answer',
    );
  }
}

/**
 * Sends a message and waits for the terminal's answer to its serial (one of `replyMsgIds`): an
 * answer that overtakes the serial (over NATS) is kept until the serial is known.
 */
export async function askTerminal(
  downlink: Downlink,
  terminalId: number,
  message: Jt808BodyInput,
  replyMsgIds: readonly number[],
  answerMs = OPEN_ANSWER_MS,
): Promise<TerminalResponse> {
  const r = await new Promise<TerminalResponse | 'offline' | null>((resolve) => {
    let serial: number | null = null;
    const early: TerminalResponse[] = [];
    const timer = setTimeout(() => finish(null), answerMs);
    const onResponse = (r: TerminalResponse): void => {
      if (r.terminalId !== terminalId || !replyMsgIds.includes(r.replyMsgId)) return;
      if (serial === null) early.push(r);
      else if (r.replySerial === serial) finish(r);
    };
    function finish(r: TerminalResponse | 'offline' | null): void {
      clearTimeout(timer);
      downlink.off('response', onResponse);
      resolve(r);
    }
    downlink.on('response', onResponse);
    void Promise.resolve(downlink.dispatch(terminalId, message)).then(
      (d) => {
        if (!d) return finish('offline');
        serial = d.serial;
        const got = early.find((r) => r.replySerial === serial);
        if (got) finish(got);
      },
      () => finish(null),
    );
  });
  if (r === 'offline') throw new UpstreamError('offline');
  if (r === null) throw new UpstreamError('noAnswer');
  if (r.result !== 0) throw new UpstreamError('refused');
  return r;
}

/** Sends a message without waiting for its answer (controls: the stream itself shows the effect). */
export function tell(downlink: Downlink, terminalId: number, message: Jt808BodyInput): void {
  void Promise.resolve(downlink.dispatch(terminalId, message)).catch(() => undefined);
}

export function downlinkUpstream(downlink: Downlink, media: MediaAddress, answerMs = OPEN_ANSWER_MS): UpstreamControl {
  return {
    async open(key: ChannelKey): Promise<void> {
      await askTerminal(
        downlink,
        key.terminalId,
        {
          msgId: MsgId.LiveVideoRequest,
          // Audio and video: a viewer may want the sound; those who do not never get it.
          body: { host: media.host, tcpPort: media.port, udpPort: media.port, channel: key.channel, dataType: 0, stream: 0 },
        },
        [MsgId.LiveVideoRequest],
        answerMs,
      );
    },
    close(key: ChannelKey): void {
      tell(downlink, key.terminalId, {
        msgId: MsgId.LiveVideoControl,
        body: { channel: key.channel, command: 0, closeWhat: 0, stream: 0 },
      });
    },
  };
}

/** 0x9202 speed codes 1–5 of the speeds ×1 … ×16. */
const SPEED_CODE: Record<PlaybackSpeed, number> = { 1: 1, 2: 2, 4: 3, 8: 4, 16: 5 };

/** The 0x9202 of a viewer's control (JT/T 1078 table 27: 0 play, 1 pause, 2 end, 3 fast forward, 5 seek). */
export function playbackControlBody(channel: number, c: PlaybackCommand | { kind: 'end' }): PlaybackControlBody {
  switch (c.kind) {
    case 'pause':
      return { channel, command: 1, speed: 0, seekTo: null };
    case 'end':
      return { channel, command: 2, speed: 0, seekTo: null };
    case 'seek':
      return { channel, command: 5, speed: 0, seekTo: c.at };
    case 'speed':
      // Back to ×1 is plain playing again; faster is fast forward at that speed.
      return c.speed === 1
        ? { channel, command: 0, speed: 0, seekTo: null }
        : { channel, command: 3, speed: SPEED_CODE[c.speed], seekTo: null };
    default:
      return { channel, command: 0, speed: 0, seekTo: null };
  }
}

/**
 * Recorded playback over the 808 session: 0x9201 (the channel's video from `begin` to `end`, to the
 * media server), answered by 0x0001 or, as the standard has it, by the 0x1205 of what it plays;
 * then 0x9202 controls.
 */
export function downlinkPlayback(downlink: Downlink, media: MediaAddress, answerMs = OPEN_ANSWER_MS): PlaybackSignals {
  return {
    async start(key: ChannelKey, range: PlaybackRange): Promise<void> {
      await askTerminal(
        downlink,
        key.terminalId,
        {
          msgId: MsgId.PlaybackRequest,
          body: {
            host: media.host,
            tcpPort: media.port,
            udpPort: media.port,
            channel: key.channel,
            resourceType: 0, // audio and video: a viewer may want the sound
            stream: 0,
            storage: 0,
            mode: 0,
            speed: 0,
            begin: range.begin,
            end: range.end,
          },
        },
        [MsgId.PlaybackRequest, MsgId.ResourceQuery],
        answerMs,
      );
    },
    control(key: ChannelKey, c: PlaybackCommand | { kind: 'end' }): void {
      tell(downlink, key.terminalId, { msgId: MsgId.PlaybackControl, body: playbackControlBody(key.channel, c) });
    },
  };
}

export interface ResourceQuery {
  /** 0: every channel. */
  channel: number;
  begin: string;
  end: string;
}

/** A terminal's recordings of a channel in a time range (0x9205 → 0x1205). */
export async function queryResources(
  downlink: Downlink,
  terminalId: number,
  q: ResourceQuery,
  answerMs = OPEN_ANSWER_MS,
): Promise<VideoResource[]> {
  const r = await askTerminal(
    downlink,
    terminalId,
    {
      msgId: MsgId.ResourceQuery,
      body: { ...q, alarmFlags: 0, videoAlarmFlags: 0, resourceType: 0, stream: 0, storage: 0 },
    },
    [MsgId.ResourceQuery],
    answerMs,
  );
  return r.resources ?? [];
}

/** The transmission status notice (0x9105): a streaming channel's packet loss, percent. */
export function downlinkStatus(downlink: Downlink): (key: ChannelKey, lossRate: number) => void {
  return (key, lossRate) =>
    tell(downlink, key.terminalId, { msgId: MsgId.LiveVideoStatus, body: { channel: key.channel, lossRate: Math.min(100, lossRate) } });
}
