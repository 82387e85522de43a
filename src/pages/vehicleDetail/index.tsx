import { useLocation } from '@umijs/max';
import { Card, Result, Space, Spin, Tabs, Tag } from 'antd';
import { useEffect, useState } from 'react';
import ShareLocationButton from '../../components/location/ShareLocationButton';
import VideoButton from '../../components/video/VideoButton';
import { failureOf } from '../../services/http/failureOf';
import { loadOrgTree } from '../../services/entity';
import { vehicleReport, type Range, type VehicleReport } from '../../services/vehicleDetail';
import { vehicleDetailId } from '../../session/navigation';
import { rememberLicence } from '../../session/vehicleLabels';
import { useT } from '../../session/useT';
import { useViewRoute } from '../../shell/viewRoute';
import { statusOf, STATUS_COLOURS } from '../fleet/monitor/monitorModel';
import { orgLine, tabOf, type DetailTab } from './detailModel';
import { trackRange } from './playback';
import { MaintenanceTab } from './MaintenanceTab';
import { MediaTab } from './MediaTab';
import { MessagesTab } from './MessagesTab';
import { ConditionTab, HistoryTab, StatisticsTab } from './tabs';
import TrackPlayback from './TrackPlayback';
import VehicleFinder from './VehicleFinder';

type Loaded = { kind: 'loading' } | { kind: 'missing' } | { kind: 'failed' } | { kind: 'shown'; report: VehicleReport };

const lastWeek = (): Range => {
  const [a, b] = trackRange('last7d');
  return { begin: a.toISOString(), end: b.toISOString() };
};

/** The vehicle detail (SPEC single-equip-info) at `/vehicleDetail/vehicleDetail/{id}`: one tab per vehicle. */
export default function VehicleDetailPage() {
  const t = useT();
  const route = useViewRoute();
  const { search } = useLocation();
  const id = route ? vehicleDetailId(route.path) : null;
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const [tab, setTab] = useState<DetailTab>(() => tabOf(search));
  const [replayRange, setReplayRange] = useState<Range | undefined>(undefined);
  const [line, setLine] = useState<number[]>([]);
  const [historyRange] = useState<Range>(lastWeek);

  useEffect(() => {
    if (id === null) return undefined;
    let live = true;
    vehicleReport(id).then(
      (report) => {
        if (!live) return;
        rememberLicence(id, report.vehicle.licence);
        setLoaded({ kind: 'shown', report });
        loadOrgTree().then(
          (tree) => live && setLine(orgLine(tree, report.vehicle.orgId)),
          () => undefined,
        );
      },
      (e: unknown) => live && setLoaded({ kind: failureOf(e).status === 404 ? 'missing' : 'failed' }),
    );
    return () => {
      live = false;
    };
  }, [id]);

  if (id === null || loaded.kind === 'missing')
    return <Result status="404" title={t('console.vehicleDetail.missing')} data-testid="detail-missing" />;
  if (loaded.kind === 'failed') return <Result status="error" title={t('console.vehicleDetail.failed')} />;
  if (loaded.kind === 'loading') return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  const { report } = loaded;
  const status = report.state ? statusOf(report.state) : 'offline';
  const replay = (r: Range) => {
    setReplayRange(r);
    setTab('track');
  };

  return (
    <Card
      data-testid="vehicle-detail"
      title={
        <Space>
          <span data-testid="detail-licence">{report.vehicle.licence}</span>
          <Tag color={STATUS_COLOURS[status]}>{t(`console.monitor.status.${status}`)}</Tag>
          <span style={{ fontWeight: 'normal' }}>{report.vehicle.orgName}</span>
        </Space>
      }
      extra={
        <Space>
          <VehicleFinder current={id} />
          <ShareLocationButton vehicleId={id} />
          <VideoButton vehicleId={id} />
        </Space>
      }
    >
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as DetailTab)}
        destroyInactiveTabPane
        items={[
          {
            key: 'history',
            label: t('console.vehicleDetail.tab.history'),
            children: <HistoryTab vehicleId={id} range={historyRange} onReplay={replay} />,
          },
          {
            key: 'messages',
            label: t('console.vehicleDetail.tab.messages'),
            children: <MessagesTab vehicleId={id} range={historyRange} />,
          },
          {
            key: 'media',
            label: t('console.vehicleDetail.tab.media'),
            children: <MediaTab vehicleId={id} initial={historyRange} />,
          },
          {
            key: 'track',
            label: t('console.vehicleDetail.tab.track'),
            children: (
              <TrackPlayback
                key={replayRange ? `${replayRange.begin}/${replayRange.end}` : 'default'}
                vehicleId={id}
                initial={replayRange}
              />
            ),
          },
          {
            key: 'statistics',
            label: t('console.vehicleDetail.tab.statistics'),
            children: <StatisticsTab vehicleId={id} orgId={report.vehicle.orgId} orgPath={line} />,
          },
          { key: 'condition', label: t('console.vehicleDetail.tab.condition'), children: <ConditionTab vehicleId={id} report={report} /> },
          { key: 'maintenance', label: t('console.vehicleDetail.tab.maintenance'), children: <MaintenanceTab vehicleId={id} /> },
        ]}
      />
    </Card>
  );
}
