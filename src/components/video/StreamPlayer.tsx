import { Alert, Space, Tag } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { failureOf } from '../../services/http/failureOf';
import { streamSocketUrl } from '../../services/video';
import { latencyMs, readClockMessage, type StreamClock } from './latency';
import { splitLoader } from './splitLoader';
import { useT } from '../../session/useT';

type State = { kind: 'connecting' } | { kind: 'playing'; firstFrameMs: number } | { kind: 'ended'; reason: string };

export interface StreamPlayerProps {
  /** Asks for the stream's ticket (once: a new stream is a new player, by its React key). */
  open: () => Promise<{ url: string }>;
  testId: string;
  /** Told of the video element once it plays (the playback reads its time). */
  onPlaying?: (el: HTMLVideoElement) => void;
  /** Takes the stream's PCM audio messages (the stream asked for audio). */
  onAudio?: (message: ArrayBuffer) => void;
  /** A live stream: shows its latency (the server's clock messages). */
  live?: boolean;
}

/** How often the latency shown is worked out again, ms. */
const LATENCY_EVERY_MS = 500;

/**
 * One camera stream, live or played back: asks for a stream ticket, then plays the FLV stream with
 * mpegts.js (loaded with the player, never in the entry bundle). Shows how long the first picture took
 * and, live, how long ago the picture on screen reached the server.
 */
export default function StreamPlayer({ open, testId, onPlaying, onAudio, live }: StreamPlayerProps) {
  const t = useT();
  const video = useRef<HTMLVideoElement>(null);
  const opener = useRef(open);
  const playing = useRef(onPlaying);
  playing.current = onPlaying;
  const audio = useRef(onAudio);
  audio.current = onAudio;
  const [state, setState] = useState<State>({ kind: 'connecting' });
  const [latency, setLatency] = useState<number | null>(null);
  const clock = useRef<StreamClock | null>(null);
  const withClock = useRef(live === true);
  // The words may change with the language; the stream must not restart for that.
  const words = useRef(t);
  words.current = t;

  useEffect(() => {
    let stopped = false;
    let destroy: (() => void) | null = null;
    const began = performance.now();
    setState({ kind: 'connecting' });
    const t = (key: string) => words.current(key);
    void (async () => {
      try {
        const [{ default: mpegts }, ticket] = await Promise.all([import('mpegts.js'), opener.current()]);
        const el = video.current;
        if (stopped || !el) return;
        if (!mpegts.isSupported()) {
          setState({ kind: 'ended', reason: t('console.video.unsupported') });
          return;
        }
        const url = streamSocketUrl(ticket.url) + (withClock.current ? '&clock=true' : '');
        const side = {
          onAudio: (m: ArrayBuffer) => audio.current?.(m),
          onClock: (m: ArrayBuffer) => {
            clock.current = readClockMessage(m) ?? clock.current;
          },
        };
        const player = mpegts.createPlayer(
          { type: 'flv', isLive: true, hasAudio: false, url },
          {
            enableWorker: false,
            liveBufferLatencyChasing: true,
            lazyLoad: false,
            // The audio messages are split off before the FLV demuxer, which would take them for broken FLV.
            ...(audio.current || withClock.current ? { customLoader: splitLoader(mpegts, side) } : {}),
          },
        );
        player.attachMediaElement(el);
        player.on(mpegts.Events.ERROR, () => setState({ kind: 'ended', reason: t('console.video.streamEnded') }));
        player.on(mpegts.Events.LOADING_COMPLETE, () => setState({ kind: 'ended', reason: t('console.video.streamEnded') }));
        const shown = () => {
          el.removeEventListener('playing', shown);
          if (stopped) return;
          setState({ kind: 'playing', firstFrameMs: Math.round(performance.now() - began) });
          playing.current?.(el);
        };
        el.addEventListener('playing', shown);
        player.load();
        void Promise.resolve(player.play()).catch(() => undefined);
        destroy = () => {
          el.removeEventListener('playing', shown);
          player.pause();
          player.unload();
          player.detachMediaElement();
          player.destroy();
        };
      } catch (e) {
        if (stopped) return;
        const f = failureOf(e);
        setState({ kind: 'ended', reason: f.message || t('console.video.failed') });
      }
    })();
    return () => {
      stopped = true;
      destroy?.();
    };
  }, []);

  const isPlaying = state.kind === 'playing';
  useEffect(() => {
    if (!isPlaying || !withClock.current) return;
    const timer = setInterval(() => {
      const el = video.current;
      if (el && clock.current) setLatency(latencyMs(clock.current, el.currentTime));
    }, LATENCY_EVERY_MS);
    return () => clearInterval(timer);
  }, [isPlaying]);

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <video
        ref={video}
        muted
        playsInline
        data-testid={testId}
        data-state={state.kind}
        style={{ width: '100%', aspectRatio: '4 / 3', background: '#000' }}
      />
      {state.kind === 'connecting' && <Tag color="processing">{t('console.video.connecting')}</Tag>}
      {state.kind === 'playing' && (
        <Tag color="success" data-testid={`${testId}-first-frame`}>
          {t('console.video.firstFrame', { ms: state.firstFrameMs })}
        </Tag>
      )}
      {state.kind === 'playing' && latency !== null && (
        <Tag color="blue" data-testid={`${testId}-latency`} data-latency-ms={latency}>
          {t('console.video.latency', { ms: latency })}
        </Tag>
      )}
      {state.kind === 'ended' && <Alert type="warning" showIcon message={state.reason} data-testid={`${testId}-ended`} />}
    </Space>
  );
}
