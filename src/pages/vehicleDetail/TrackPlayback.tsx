import PlaceText from '../../components/location/PlaceText';
import { Alert, Button, Card, DatePicker, Empty, List, Select, Slider, Space, Spin, Tabs, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useMapConfig } from '../../components/map/useMapConfig';
import { queryAlarms, queryTrips, type AlarmRow, type Range, type Trip } from '../../services/vehicleDetail';
import { useT } from '../../session/useT';
import { parseTime } from '../../utils/formatTime';
import { formatDuration } from '../../utils/duration';
import { useNumberFormat } from '../../components/charts/useNumberFormat';
import { positionAt, SPEEDS, trackRange, TRACK_RANGES, type PlaySpeed } from './playback';
import { usePlayback } from './usePlayback';

const TrackMap = lazy(() => import('./TrackMap'));
const SpeedChart = lazy(() => import('./SpeedChart'));

const toRange = ([a, b]: [Date, Date]): Range => ({ begin: a.toISOString(), end: b.toISOString() });

/** Track playback of one vehicle: a range, the line and its trips, play/pause/speed/seek. */
export default function TrackPlayback({ vehicleId, initial }: { vehicleId: number; initial?: Range }) {
  const t = useT();
  const fmt = useNumberFormat();
  const config = useMapConfig();
  const [range, setRange] = useState<Range>(() => initial ?? toRange(trackRange('last24h')));
  const { track, clock, play, pause, setSpeed, seekTo } = usePlayback(vehicleId, range);
  const [trips, setTrips] = useState<Trip[]>([]);
  const [alarms, setAlarms] = useState<AlarmRow[]>([]);
  const [focus, setFocus] = useState<{ begin: number; end: number; seq: number } | null>(null);
  /** A trip or stop picked in the list: the map zooms to it and the clock moves to its start. */
  const pick = (begin: string, end: string) => {
    const b = Date.parse(begin);
    setFocus((f) => ({ begin: b, end: Date.parse(end), seq: (f?.seq ?? 0) + 1 }));
    seekTo(b);
  };

  useEffect(() => {
    let live = true;
    queryTrips(vehicleId, range, 1, 100).then(
      (p) => live && setTrips(p.data),
      () => live && setTrips([]),
    );
    queryAlarms({ vehicleId, begin: range.begin, end: range.end }, 200).then(
      (p) => live && setAlarms(p.data),
      () => live && setAlarms([]),
    );
    return () => {
      live = false;
    };
  }, [vehicleId, range]);

  const points = useMemo(() => (track.kind === 'loaded' ? track.replay.points : []), [track]);
  const at = useMemo(() => positionAt(points, clock.at), [points, clock.at]);
  const stops = track.kind === 'loaded' ? track.replay.stops : [];
  const presets = TRACK_RANGES.map((k) => ({
    label: t(`console.vehicleDetail.range.${k}`),
    value: trackRange(k).map((d) => dayjs(d)) as [Dayjs, Dayjs],
  }));

  return (
    <div
      style={{ display: 'flex', gap: 12 }}
      data-testid="track-playback"
      data-state={track.kind}
      data-points={points.length}
      data-clock={clock.at}
      data-playing={clock.playing}
      data-track-begin={track.kind === 'loaded' ? track.begin : ''}
      data-track-end={track.kind === 'loaded' ? track.end : ''}
    >
      <div style={{ flex: 1, minWidth: 0 }}>
        <Space wrap style={{ marginBottom: 8 }}>
          <DatePicker.RangePicker
            showTime
            presets={presets}
            value={[dayjs(range.begin), dayjs(range.end)]}
            onChange={(v) => v?.[0] && v[1] && setRange({ begin: v[0].toISOString(), end: v[1].toISOString() })}
            data-testid="track-range"
          />
          {clock.playing ? (
            <Button onClick={pause} data-testid="track-pause">
              {t('console.vehicleDetail.pause')}
            </Button>
          ) : (
            <Button type="primary" onClick={play} disabled={points.length < 2} data-testid="track-play">
              {t('console.vehicleDetail.play')}
            </Button>
          )}
          <Select<PlaySpeed>
            value={clock.speed}
            onChange={setSpeed}
            options={SPEEDS.map((s) => ({ value: s, label: `×${s}` }))}
            style={{ width: 80 }}
            data-testid="track-speed"
          />
          {at && (
            <Typography.Text data-testid="track-now">
              {parseTime(new Date(clock.at))} · {t('console.monitor.speedValue', { speed: fmt(at.speed, 1) })}
            </Typography.Text>
          )}
        </Space>
        {track.kind === 'loaded' && points.length > 1 && (
          <Slider
            min={track.begin}
            max={track.end}
            value={clock.at}
            onChange={(v: number) => seekTo(v)}
            tooltip={{ formatter: (v) => (v ? parseTime(new Date(v)) : '') }}
            data-testid="track-timeline"
          />
        )}
        {track.kind === 'failed' && <Alert type="error" showIcon message={t('console.vehicleDetail.trackFailed')} />}
        {track.kind === 'loaded' && points.length === 0 && (
          <Empty description={t('console.vehicleDetail.noTrack')} data-testid="track-empty" />
        )}
        {track.kind === 'loading' || !config ? (
          <Spin style={{ display: 'block', margin: '60px auto' }} />
        ) : (
          track.kind === 'loaded' &&
          points.length > 0 && (
            <Suspense fallback={<Spin />}>
              <TrackMap
                config={config}
                vehicleId={vehicleId}
                replay={track.replay}
                alarms={alarms}
                at={at}
                stopLabel={(s) => t('console.vehicleDetail.stopFor', { duration: formatDuration(s, t) })}
                alarmLabel={(a) => t(`alarm.types.${a.type}`)}
                focus={focus}
              />
            </Suspense>
          )
        )}
        {track.kind === 'loaded' && points.length > 1 && (
          <Suspense fallback={<Spin />}>
            <SpeedChart points={points} at={clock.at} onSeek={seekTo} unit={t('console.vehicleDetail.speedUnit')} />
          </Suspense>
        )}
        {track.kind === 'loaded' && (
          <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
            {t('console.vehicleDetail.summary', {
              km: track.replay.summary.distanceKm.toFixed(1),
              max: track.replay.summary.maxSpeed,
              stops: track.replay.stops.length,
            })}
          </Typography.Paragraph>
        )}
      </div>
      <Card size="small" style={{ width: 260, flex: 'none' }} styles={{ body: { padding: '0 0 8px' } }}>
        <Tabs
          size="small"
          centered
          items={[
            {
              key: 'trips',
              label: t('console.vehicleDetail.trips'),
              children: (
                <List
                  size="small"
                  style={{ maxHeight: 520, overflow: 'auto' }}
                  dataSource={trips}
                  locale={{ emptyText: t('console.vehicleDetail.noTrips') }}
                  renderItem={(trip) => (
                    <List.Item
                      style={{ cursor: 'pointer', padding: '6px 12px' }}
                      onClick={() => pick(trip.begin, trip.end)}
                      data-testid="track-trip"
                      data-begin={Date.parse(trip.begin)}
                    >
                      <div>
                        <div>{parseTime(trip.begin)}</div>
                        <Typography.Text type="secondary">
                          {t('console.vehicleDetail.tripLine', {
                            km: trip.distanceKm.toFixed(1),
                            duration: formatDuration(trip.durationS, t),
                          })}
                        </Typography.Text>
                        <div data-testid="track-trip-places">
                          <Typography.Text type="secondary">
                            <PlaceText latitude={trip.start.latitude} longitude={trip.start.longitude} /> →{' '}
                            <PlaceText latitude={trip.stop.latitude} longitude={trip.stop.longitude} />
                          </Typography.Text>
                        </div>
                      </div>
                    </List.Item>
                  )}
                />
              ),
            },
            {
              key: 'stops',
              label: t('console.vehicleDetail.stops'),
              children: (
                <List
                  size="small"
                  style={{ maxHeight: 520, overflow: 'auto' }}
                  dataSource={stops}
                  locale={{ emptyText: t('console.vehicleDetail.noStops') }}
                  renderItem={(stop) => (
                    <List.Item
                      style={{ cursor: 'pointer', padding: '6px 12px' }}
                      onClick={() => pick(stop.begin, stop.end)}
                      data-testid="track-stop"
                      data-begin={Date.parse(stop.begin)}
                    >
                      <div>
                        <div>{parseTime(stop.begin)}</div>
                        <Typography.Text type="secondary">
                          {t('console.vehicleDetail.stopFor', { duration: formatDuration(stop.durationS, t) })}
                        </Typography.Text>
                        <div>
                          <Typography.Text type="secondary">
                            <PlaceText latitude={stop.latitude} longitude={stop.longitude} />
                          </Typography.Text>
                        </div>
                      </div>
                    </List.Item>
                  )}
                />
              ),
            },
          ]}
        />
      </Card>
    </div>
  );
}
