import { Button, Modal, Radio } from 'antd';
import { lazy, Suspense, useState } from 'react';
import Permission from '../../session/Permission';
import { VIDEO_LIVE_CODE } from '../../services/video';
import { useT } from '../../session/useT';

const LivePlayer = lazy(() => import('./LivePlayer'));

/** Camera channels a vehicle is shown with (JT/T 1078 logical channels 1–4: the usual four cameras). */
const CHANNELS = [1, 2, 3, 4];

/** Live video of a vehicle's cameras, one channel at a time, behind the `video-live` code. */
export default function VideoButton({ vehicleId, disabled }: { vehicleId: number; disabled?: boolean }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [channel, setChannel] = useState(1);
  return (
    <Permission code={VIDEO_LIVE_CODE}>
      <Button size="small" disabled={disabled} onClick={() => setOpen(true)} data-testid="card-video">
        {t('console.video.open')}
      </Button>
      <Modal open={open} title={t('console.video.title')} onCancel={() => setOpen(false)} footer={null} destroyOnClose width={520}>
        <Radio.Group value={channel} onChange={(e) => setChannel(e.target.value as number)} optionType="button" style={{ marginBottom: 8 }}>
          {CHANNELS.map((c) => (
            <Radio.Button key={c} value={c} data-testid={`video-channel-${c}`}>
              {t('console.video.channel', { channel: c })}
            </Radio.Button>
          ))}
        </Radio.Group>
        {open && (
          <Suspense fallback={null}>
            <LivePlayer key={channel} vehicleId={vehicleId} channel={channel} />
          </Suspense>
        )}
      </Modal>
    </Permission>
  );
}
