import { Checkbox, InputNumber, Select, Space, Typography } from 'antd';
import { PHOTO_MAX_COUNT, PHOTO_RESOLUTIONS, type PhotoRequest } from '../../services/commands';
import { useT } from '../../session/useT';

/** What a take-photo command asks for before anything is changed. */
export const DEFAULT_PHOTO: PhotoRequest = { channel: 1, count: 1, interval: 0, resolution: 1, quality: 5, save: false };

/** The take-photo command's fields (0x8801): channel, count, interval, resolution, quality, keep on the terminal. */
export default function PhotoForm({ value, onChange }: { value: PhotoRequest; onChange: (v: PhotoRequest) => void }) {
  const t = useT();
  // A cleared number field keeps the last value: the command always has every field.
  const number = (key: 'channel' | 'count' | 'interval' | 'quality') => (v: number | null) =>
    v !== null && onChange({ ...value, [key]: v });
  return (
    <Space direction="vertical">
      <Typography.Text type="secondary">{t('console.command.photoHint')}</Typography.Text>
      <Space wrap>
        {t('console.command.photoChannel')}
        <InputNumber min={1} max={255} precision={0} value={value.channel} onChange={number('channel')} data-testid="photo-channel" />
        {t('console.command.photoCount')}
        <InputNumber min={1} max={PHOTO_MAX_COUNT} precision={0} value={value.count} onChange={number('count')} data-testid="photo-count" />
        {t('console.command.photoInterval')}
        <InputNumber min={0} max={3600} precision={0} value={value.interval} onChange={number('interval')} data-testid="photo-interval" />
      </Space>
      <Space wrap>
        {t('console.command.photoResolution')}
        <Select
          style={{ width: 130 }}
          value={value.resolution}
          onChange={(resolution) => onChange({ ...value, resolution })}
          options={PHOTO_RESOLUTIONS.map((r) => ({ value: r.code, label: r.size }))}
          data-testid="photo-resolution"
        />
        {t('console.command.photoQuality')}
        <InputNumber min={1} max={10} precision={0} value={value.quality} onChange={number('quality')} data-testid="photo-quality" />
      </Space>
      <Checkbox checked={value.save} onChange={(e) => onChange({ ...value, save: e.target.checked })} data-testid="photo-save">
        {t('console.command.photoSave')}
      </Checkbox>
    </Space>
  );
}
