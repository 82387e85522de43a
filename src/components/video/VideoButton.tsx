import { Button, Modal, Radio, Tabs } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import Permission from '../../session/Permission';
import { usePermission } from '../../session/navigationStore';
import { fetchChannelNames, VIDEO_LIVE_CODE, VIDEO_PLAYBACK_CODE, type ChannelName } from '../../services/video';
import { useT } from '../../session/useT';

const LivePlayer = lazy(() => import('./LivePlayer'));
const PlaybackPanel = lazy(() => import('./PlaybackPanel'));
const VideoGrid = lazy(() => import('./VideoGrid'));

/** Before the vehicle's own list arrives: the usual four cameras (JT/T 1078 logical channels 1–4). */
const FOUR: ChannelName[] = [1, 2, 3, 4].map((channel) => ({ channel, name: null }));

type Tab = 'live' | 'grid' | 'playback';

export interface VideoButtonProps {
  vehicleId: number;
  disabled?: boolean;
  /** Opens on the recording at this time (a past alarm's), not live. */
  playbackAt?: string | null;
  testId?: string;
}

/**
 * A vehicle's cameras: one channel live or all of them in a 1/4/9/16 grid (code `video-live`), and
 * recorded playback from the terminal's recordings (code `video-playback`); shown to a member with
 * either. Channels are named as the vehicle's model names them, else "通道 N".
 */
export default function VideoButton({ vehicleId, disabled, playbackAt, testId = 'card-video' }: VideoButtonProps) {
  const t = useT();
  const canLive = usePermission(VIDEO_LIVE_CODE);
  const canPlayback = usePermission(VIDEO_PLAYBACK_CODE);
  const [open, setOpen] = useState(false);
  const [channel, setChannel] = useState(1);
  const [channels, setChannels] = useState<ChannelName[]>(FOUR);
  const [tab, setTab] = useState<Tab>(playbackAt || !canLive ? 'playback' : 'live');

  useEffect(() => {
    if (!open) return;
    let stopped = false;
    fetchChannelNames(vehicleId).then(
      (r) => !stopped && setChannels(r.channels),
      () => undefined, // the default four stay
    );
    return () => {
      stopped = true;
    };
  }, [open, vehicleId]);

  const label = (c: number) => channels.find((x) => x.channel === c)?.name ?? t('console.video.channel', { channel: c });
  const items = [
    ...(canLive ? [{ key: 'live', label: <span data-testid="video-tab-live">{t('console.video.live')}</span> }] : []),
    ...(canLive ? [{ key: 'grid', label: <span data-testid="video-tab-grid">{t('console.video.grid')}</span> }] : []),
    ...(canPlayback ? [{ key: 'playback', label: <span data-testid="video-tab-playback">{t('console.video.playback')}</span> }] : []),
  ];
  return (
    <Permission code={[VIDEO_LIVE_CODE, VIDEO_PLAYBACK_CODE]}>
      <Button size="small" disabled={disabled} onClick={() => setOpen(true)} data-testid={testId}>
        {t('console.video.open')}
      </Button>
      <Modal
        open={open}
        title={t('console.video.title')}
        onCancel={() => setOpen(false)}
        footer={null}
        destroyOnClose
        width={tab === 'grid' ? 960 : 640}
      >
        <Tabs size="small" activeKey={tab} onChange={(k) => setTab(k as Tab)} items={items} />
        {tab !== 'grid' && (
          <Radio.Group
            value={channel}
            onChange={(e) => setChannel(e.target.value as number)}
            optionType="button"
            style={{ marginBottom: 8 }}
          >
            {channels.map(({ channel: c }) => (
              <Radio.Button key={c} value={c} data-testid={`video-channel-${c}`}>
                {label(c)}
              </Radio.Button>
            ))}
          </Radio.Group>
        )}
        {open && (
          <Suspense fallback={null}>
            {tab === 'live' && canLive && <LivePlayer key={channel} vehicleId={vehicleId} channel={channel} />}
            {tab === 'grid' && canLive && <VideoGrid vehicleId={vehicleId} channels={channels.map((c) => c.channel)} label={label} />}
            {tab === 'playback' && canPlayback && <PlaybackPanel key={channel} vehicleId={vehicleId} channel={channel} at={playbackAt} />}
          </Suspense>
        )}
      </Modal>
    </Permission>
  );
}
