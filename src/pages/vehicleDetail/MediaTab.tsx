import { DownloadOutlined } from '@ant-design/icons';
import { Button, DatePicker, Image, InputNumber, Select, Space, Table, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { humanSize } from '../../components/sheet/limits';
import PlaceText from '../../components/location/PlaceText';
import {
  MEDIA_EVENTS,
  MEDIA_TYPES,
  mediaFile,
  mediaFileName,
  mediaTime,
  vehicleMedia,
  type MediaFilter,
  type MediaType,
  type VehicleMedia,
} from '../../services/media';
import type { Range } from '../../services/vehicleDetail';
import { useT } from '../../session/useT';
import { saveBlob } from '../../utils/saveBlob';
import { parseTime } from '../../utils/formatTime';
import { trackRange, TRACK_RANGES } from './playback';

const PAGE_SIZE = 20;
/** Alarm events show in red (robbery, collision), the others plainly. */
const ALARM_EVENTS: ReadonlySet<string> = new Set(['robberyAlarm', 'collisionAlarm']);

type Loaded = { data: VehicleMedia[]; total: number } | null;

/** A photo's thumbnail, fetched with the session; a click enlarges it. */
function Thumbnail({ media }: { media: VehicleMedia }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    let url: string | null = null;
    mediaFile(media.id).then(
      (blob) => {
        url = URL.createObjectURL(blob);
        if (live) setSrc(url);
        else URL.revokeObjectURL(url);
      },
      () => undefined,
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [media.id]);
  return src ? (
    <Image src={src} alt={`#${media.mediaId}`} width={96} data-testid="media-thumbnail" />
  ) : (
    <div style={{ width: 96, height: 72 }} />
  );
}

/**
 * The vehicle's uploaded photos, recordings and clips by the time they were taken, newest first
 * and paged, filtered by the event that made the terminal take them, the channel and the type:
 * photos shown inline (a click enlarges), every file downloadable.
 */
export function MediaTab({ vehicleId, initial }: { vehicleId: number; initial: Range }) {
  const t = useT();
  const [range, setRange] = useState<Range>(initial);
  const [filter, setFilter] = useState<MediaFilter>({});
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<Loaded>(null);
  useEffect(() => {
    let live = true;
    setRows(null);
    vehicleMedia(vehicleId, range, filter, page, PAGE_SIZE).then(
      (p) => live && setRows(p),
      () => live && setRows({ data: [], total: 0 }),
    );
    return () => {
      live = false;
    };
  }, [vehicleId, range, filter, page]);
  const refine = (next: MediaFilter) => {
    setFilter({ ...filter, ...next });
    setPage(1);
  };
  const download = async (m: VehicleMedia) => saveBlob(await mediaFile(m.id), mediaFileName(m));
  const presets = TRACK_RANGES.map((k) => ({
    label: t(`console.vehicleDetail.range.${k}`),
    value: trackRange(k).map((d) => dayjs(d)) as [Dayjs, Dayjs],
  }));
  const typeName = (type: VehicleMedia['type']) =>
    typeof type === 'string' ? t(`console.vehicleDetail.media.types.${type}`) : t('console.vehicleDetail.media.otherCode', { code: type });
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="detail-media">
      <Space wrap>
        <DatePicker.RangePicker
          showTime
          presets={presets}
          value={[dayjs(range.begin), dayjs(range.end)]}
          onChange={(v) => {
            if (!v?.[0] || !v[1]) return;
            setRange({ begin: v[0].toISOString(), end: v[1].toISOString() });
            setPage(1);
          }}
          data-testid="media-range"
        />
        <Select<number>
          allowClear
          style={{ width: 200 }}
          placeholder={t('console.vehicleDetail.media.event')}
          value={filter.event}
          onChange={(event) => refine({ event })}
          options={MEDIA_EVENTS.map((e, code) => ({ value: code, label: t(`console.vehicleDetail.media.events.${e}`) }))}
          data-testid="media-event"
        />
        <InputNumber<number>
          min={0}
          max={255}
          precision={0}
          style={{ width: 140 }}
          placeholder={t('console.vehicleDetail.media.channel')}
          value={filter.channel ?? null}
          onChange={(channel) => refine({ channel: channel ?? undefined })}
          data-testid="media-channel"
        />
        <Select<MediaType>
          allowClear
          style={{ width: 140 }}
          placeholder={t('console.vehicleDetail.media.type')}
          value={filter.type}
          onChange={(type) => refine({ type })}
          options={MEDIA_TYPES.map((type) => ({ value: type, label: t(`console.vehicleDetail.media.types.${type}`) }))}
          data-testid="media-type"
        />
      </Space>
      <Table<VehicleMedia>
        size="small"
        rowKey="id"
        loading={!rows}
        dataSource={rows?.data ?? []}
        locale={{ emptyText: t('console.vehicleDetail.media.none') }}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: rows?.total ?? 0, onChange: setPage, showSizeChanger: false }}
        columns={[
          { title: t('console.vehicleDetail.media.time'), key: 'time', render: (_: unknown, m) => parseTime(mediaTime(m)) },
          {
            title: t('console.vehicleDetail.media.event'),
            key: 'event',
            render: (_: unknown, m) => (
              <Tag color={m.eventName && ALARM_EVENTS.has(m.eventName) ? 'red' : undefined}>
                {m.eventName
                  ? t(`console.vehicleDetail.media.events.${m.eventName}`)
                  : t('console.vehicleDetail.media.otherCode', { code: m.event })}
              </Tag>
            ),
          },
          { title: t('console.vehicleDetail.media.channel'), dataIndex: 'channel' },
          { title: t('console.vehicleDetail.media.type'), key: 'type', render: (_: unknown, m) => typeName(m.type) },
          {
            title: t('console.vehicleDetail.messages.place'),
            key: 'place',
            render: (_: unknown, m) => <PlaceText latitude={m.latitude} longitude={m.longitude} />,
          },
          {
            title: t('console.vehicleDetail.media.content'),
            key: 'content',
            render: (_: unknown, m) => (
              <Space align="center">
                {m.type === 'image' && <Thumbnail media={m} />}
                <Space direction="vertical" size={0}>
                  <Button size="small" icon={<DownloadOutlined />} onClick={() => void download(m)} data-testid="media-download">
                    {t('console.vehicleDetail.media.download')}
                  </Button>
                  <Typography.Text type="secondary">{humanSize(m.bytes)}</Typography.Text>
                </Space>
              </Space>
            ),
          },
        ]}
        data-testid="media-list"
      />
    </Space>
  );
}
