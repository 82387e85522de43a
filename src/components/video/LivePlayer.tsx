import { Alert, Space, Tag } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { failureOf } from '../../services/http/failureOf';
import { openLiveVideo, streamSocketUrl } from '../../services/video';
import { useT } from '../../session/useT';

type State = { kind: 'connecting' } | { kind: 'playing'; firstFrameMs: number } | { kind: 'ended'; reason: string };

/**
 * One camera channel, live: asks for a stream ticket, then plays the FLV stream with mpegts.js
 * (loaded with the player, never in the entry bundle). Shows how long the first picture took.
 */
export default function LivePlayer({ vehicleId, channel }: { vehicleId: number; channel: number }) {
  const t = useT();
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<State>({ kind: 'connecting' });
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
        const [{ default: mpegts }, ticket] = await Promise.all([import('mpegts.js'), openLiveVideo(vehicleId, channel)]);
        const el = video.current;
        if (stopped || !el) return;
        if (!mpegts.isSupported()) {
          setState({ kind: 'ended', reason: t('console.video.unsupported') });
          return;
        }
        const player = mpegts.createPlayer(
          { type: 'flv', isLive: true, hasAudio: false, url: streamSocketUrl(ticket.url) },
          { enableWorker: false, liveBufferLatencyChasing: true, lazyLoad: false },
        );
        player.attachMediaElement(el);
        player.on(mpegts.Events.ERROR, () => setState({ kind: 'ended', reason: t('console.video.streamEnded') }));
        player.on(mpegts.Events.LOADING_COMPLETE, () => setState({ kind: 'ended', reason: t('console.video.streamEnded') }));
        const shown = () => {
          el.removeEventListener('playing', shown);
          if (!stopped) setState({ kind: 'playing', firstFrameMs: Math.round(performance.now() - began) });
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
  }, [vehicleId, channel]);

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <video
        ref={video}
        muted
        playsInline
        data-testid="live-video"
        data-state={state.kind}
        style={{ width: '100%', aspectRatio: '4 / 3', background: '#000' }}
      />
      {state.kind === 'connecting' && <Tag color="processing">{t('console.video.connecting')}</Tag>}
      {state.kind === 'playing' && (
        <Tag color="success" data-testid="live-video-first-frame">
          {t('console.video.firstFrame', { ms: state.firstFrameMs })}
        </Tag>
      )}
      {state.kind === 'ended' && <Alert type="warning" showIcon message={state.reason} data-testid="live-video-ended" />}
    </Space>
  );
}
