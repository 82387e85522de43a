/**
 * Asking terminals to stream over their 808 session: 0x9101 (video of a channel, main stream, to
 * the media server's address) answered by the terminal's 0x0001, and 0x9102 to close the channel.
 */

import type { Downlink } from '../commands/service';
import type { TerminalResponse } from '../gateway/host';
import { MsgId } from '../jt808/codec';
import type { ChannelKey, UpstreamControl } from './liveChannels';

export interface MediaAddress {
  /** The address terminals dial (JT1078_MEDIA_HOST). */
  host: string;
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

export function downlinkUpstream(downlink: Downlink, media: MediaAddress, answerMs = OPEN_ANSWER_MS): UpstreamControl {
  return {
    async open(key: ChannelKey): Promise<void> {
      const answer = new Promise<TerminalResponse | 'offline' | null>((resolve) => {
        let serial: number | null = null;
        const early: TerminalResponse[] = [];
        const timer = setTimeout(() => finish(null), answerMs);
        const onResponse = (r: TerminalResponse): void => {
          if (r.terminalId !== key.terminalId || r.replyMsgId !== MsgId.LiveVideoRequest) return;
          if (serial === null) early.push(r);
          else if (r.replySerial === serial) finish(r);
        };
        function finish(r: TerminalResponse | 'offline' | null): void {
          clearTimeout(timer);
          downlink.off('response', onResponse);
          resolve(r);
        }
        downlink.on('response', onResponse);
        void Promise.resolve(
          downlink.dispatch(key.terminalId, {
            msgId: MsgId.LiveVideoRequest,
            body: { host: media.host, tcpPort: media.port, udpPort: 0, channel: key.channel, dataType: 1, stream: 0 },
          }),
        ).then(
          (d) => {
            if (!d) return finish('offline');
            serial = d.serial;
            const got = early.find((r) => r.replySerial === serial);
            if (got) finish(got);
          },
          () => finish(null),
        );
      });
      const r = await answer;
      if (r === 'offline') throw new UpstreamError('offline');
      if (r === null) throw new UpstreamError('noAnswer');
      if (r.result !== 0) throw new UpstreamError('refused');
    },
    close(key: ChannelKey): void {
      void Promise.resolve(
        downlink.dispatch(key.terminalId, {
          msgId: MsgId.LiveVideoControl,
          body: { channel: key.channel, command: 0, closeWhat: 0, stream: 0 },
        }),
      ).catch(() => undefined);
    },
  };
}
