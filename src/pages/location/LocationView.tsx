import { Alert, Card, Descriptions, Result, Spin, Typography } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useT } from '../../session/useT';
import { failureOf } from '../../services/http/failureOf';
import { parseTime } from '../../utils/formatTime';
import { compassPoint, coordText, positionCoords, REFRESH_MS, type MapConfig, type SharedLocation } from './locationFormat';
import { mapConfig, sharedLocation } from '../../services/location';
import { loadLocationMap } from './mapLoader';
import { useNumberFormat } from '../../components/charts/useNumberFormat';

const LocationMap = lazy(loadLocationMap);

type State = { kind: 'loading' } | { kind: 'invalid' } | { kind: 'shown'; data: SharedLocation; at: Date; stale: boolean };

/**
 * The public location page's content (SPEC.md §2 `/location/{ticket}`): the shared vehicle's
 * licence and latest position, refreshed every 30 s. A map only when the server names a tile
 * source; otherwise coordinates only, and nothing is loaded from anywhere but this server.
 */
export default function LocationView({ ticket }: { ticket: string }) {
  const t = useT();
  const fmt = useNumberFormat();
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [tiles, setTiles] = useState<MapConfig | null>(null);

  useEffect(() => {
    mapConfig().then(setTiles, () => setTiles(null));
  }, []);

  useEffect(() => {
    let stopped = false;
    const load = async () => {
      try {
        const data = await sharedLocation(ticket);
        if (!stopped) setState({ kind: 'shown', data, at: new Date(), stale: false });
      } catch (e) {
        if (stopped) return;
        // Unknown, expired and revoked all answer 404: the link is over, stop asking.
        if (failureOf(e).status === 404) {
          clearInterval(timer);
          setState({ kind: 'invalid' });
        } else {
          setState((s) => (s.kind === 'shown' ? { ...s, stale: true } : s));
        }
      }
    };
    void load();
    // `load` reads the timer only after its first await, when the timer exists.
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [ticket]);

  let content;
  if (state.kind === 'loading') content = <Spin size="large" style={{ display: 'block', margin: '80px auto' }} />;
  else if (state.kind === 'invalid') {
    content = (
      <div data-testid="location-invalid">
        <Result status="warning" title={t('console.location.invalid')} subTitle={t('console.location.invalidHint')} />
      </div>
    );
  } else {
    const { data, at, stale } = state;
    const p = data.position;
    const coords = p ? positionCoords(p, tiles?.coordSystem) : null;
    content = (
      <Card title={<span data-testid="location-licence">{data.licence}</span>} data-testid="location-card">
        {stale && <Alert type="warning" showIcon message={t('console.location.unavailable')} style={{ marginBottom: 16 }} />}
        {p && coords ? (
          <>
            {tiles?.tileUrl && (
              <Suspense fallback={<Spin />}>
                <div style={{ marginBottom: 16 }}>
                  <LocationMap config={tiles} lat={coords.marker.lat} lng={coords.marker.lng} label={data.licence} />
                </div>
              </Suspense>
            )}
            <Descriptions
              bordered
              size="small"
              column={1}
              items={[
                { key: 'time', label: t('console.location.time'), children: parseTime(p.time) },
                {
                  key: 'speed',
                  label: t('console.location.speed'),
                  children: t('console.location.speedValue', { speed: fmt(p.speed, 1) }),
                },
                {
                  key: 'direction',
                  label: t('console.location.direction'),
                  children: t('console.location.directionValue', {
                    name: t(['console.location.compass', compassPoint(p.direction)].join('.')),
                    degrees: p.direction,
                  }),
                },
                {
                  key: 'wgs84',
                  label: t('console.location.wgs84'),
                  children: <Typography.Text copyable>{coordText(coords.wgs84)}</Typography.Text>,
                },
                {
                  key: 'gcj02',
                  label: t('console.location.gcj02'),
                  children: <Typography.Text copyable>{coordText(coords.gcj02)}</Typography.Text>,
                },
              ]}
            />
          </>
        ) : (
          <Result status="info" title={t('console.location.noPosition')} />
        )}
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }} data-testid="location-refresh">
          {t('console.location.refresh', { time: parseTime(at) ?? '' })}
        </Typography.Paragraph>
      </Card>
    );
  }

  return (
    <div style={{ minHeight: '100vh', background: '#f0f2f5', padding: '24px 16px' }}>
      <div style={{ maxWidth: 720, margin: '0 auto' }}>
        <Typography.Title level={4} style={{ display: 'flex', alignItems: 'center', gap: 10 }}>
          <img src="/favicon.svg" alt="" width={28} height={28} />
          {t('app.title')} · {t('console.location.title')}
        </Typography.Title>
        {content}
      </div>
    </div>
  );
}
