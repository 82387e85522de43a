import { Link } from '@umijs/max';
import { Badge, Card, Col, Empty, List, Row, Segmented, Skeleton, Space, Statistic, Tabs, Tag, Tooltip, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { UNHANDLED_CURRENT_HOURS } from '../../../schemas/kit/alarmCurrent';
import { useNumberFormat } from '../../components/charts/useNumberFormat';
import { parseTime } from '../../utils/formatTime';
import { useT } from '../../session/useT';
import type { Bucket } from '../../services/reports';
import {
  alarmPagePath,
  COUNT_KEYS,
  COUNT_LINKS,
  DISTRIBUTION_KEYS,
  distributionOption,
  LEDGER_DIGITS,
  LEDGER_KEYS,
  LEDGER_LINKS,
  top7Option,
  type DistributionKey,
} from './dashboardModel';
import HealthBandsCard from './HealthBandsCard';
import MaintenanceCard from './MaintenanceCard';
import { useDashboard } from './useDashboard';

const EChart = lazy(() => import('../../components/charts/EChart'));

const LEDGER_UNITS = { mileageKm: 'km', fuelL: 'l', cost: 'yuan' } as const;
const LEVEL_COLOURS: Record<string, string> = { low: 'blue', medium: 'gold', high: 'orange', critical: 'red' };

/** The landing page: the fleet's counts (live), ledger figures, distribution, Top7 and latest alarms; each figure opens its page. */
export default function DashboardPage() {
  const t = useT();
  const fmt = useNumberFormat();
  const d = useDashboard();
  const [dis, setDis] = useState<DistributionKey>('byOrg');

  const bucketLabel = (key: DistributionKey) => (b: Bucket) =>
    key === 'byStatus' ? t(`entity.vehicle.enums.status.${String(b.key)}`) : (b.name ?? t('console.dashboard.distribution.noBrand'));
  const chartFallback = <Skeleton active paragraph={{ rows: 6 }} />;
  const top7Key = d.top7By === 'fuel' ? 'fuelL' : 'mileageKm';

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="dashboard-page">
      <Row gutter={[16, 16]}>
        {COUNT_KEYS.map((k) => (
          <Col key={k} xs={12} md={8} xl={4}>
            <Link to={COUNT_LINKS[k]} data-testid={`dashboard-count-${k}`}>
              <Card hoverable size="small" loading={d.counts.loading}>
                <Statistic
                  title={
                    <Tooltip title={t(`console.dashboard.countsHelp.${k}`, { hours: UNHANDLED_CURRENT_HOURS })}>
                      <span>{t(`console.dashboard.counts.${k}`)}</span>
                    </Tooltip>
                  }
                  value={d.counts.data?.[k] ?? 0}
                  formatter={(v) => <span data-testid={`dashboard-count-${k}-value`}>{fmt(Number(v))}</span>}
                  valueStyle={k === 'alarming' && (d.counts.data?.alarming ?? 0) > 0 ? { color: '#cf1322' } : undefined}
                />
              </Card>
            </Link>
          </Col>
        ))}
      </Row>
      <Space>
        <Badge
          status={d.live ? 'processing' : 'default'}
          text={d.live ? t('console.dashboard.live') : t('console.dashboard.offline')}
          data-testid={d.live ? 'dashboard-live' : 'dashboard-live-off'}
        />
      </Space>
      <Row gutter={[16, 16]}>
        {(['today', 'month'] as const).map((period) => (
          <Col key={period} xs={24} lg={12}>
            <Card
              size="small"
              title={t(`console.dashboard.ledger.${period}`)}
              loading={d.home.loading}
              data-testid={`dashboard-ledger-${period}`}
            >
              <Row gutter={16}>
                {LEDGER_KEYS.map((k) => (
                  <Col key={k} span={8}>
                    <Link to={LEDGER_LINKS[k]} data-testid={`dashboard-ledger-${period}-${k}`}>
                      <Statistic
                        title={t(`console.dashboard.ledger.${k}`)}
                        value={d.home.data?.[period][k] ?? 0}
                        formatter={(v) => fmt(Number(v), LEDGER_DIGITS[k])}
                        suffix={t(`console.dashboard.units.${LEDGER_UNITS[k]}`)}
                      />
                    </Link>
                  </Col>
                ))}
              </Row>
            </Card>
          </Col>
        ))}
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <Card
            size="small"
            title={t('console.dashboard.distribution.title')}
            extra={<Link to="/fleet/vehicleList">{t('console.dashboard.counts.total')}</Link>}
          >
            <Tabs
              size="small"
              activeKey={dis}
              onChange={(k) => setDis(k as DistributionKey)}
              items={DISTRIBUTION_KEYS.map((k) => ({ key: k, label: t(`console.dashboard.distribution.${k}`) }))}
            />
            <Suspense fallback={chartFallback}>
              <EChart
                testId="dashboard-distribution"
                loading={d.distribution.loading}
                empty={!d.distribution.data?.[dis].length}
                emptyText={t('console.dashboard.empty')}
                option={distributionOption(d.distribution.data?.[dis] ?? [], bucketLabel(dis), fmt)}
              />
            </Suspense>
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card
            size="small"
            title={<Link to="/statistics/daily">{t('console.dashboard.top7.title')}</Link>}
            extra={
              <Segmented
                size="small"
                value={d.top7By}
                onChange={(v) => d.setTop7By(v as 'mileage' | 'fuel')}
                options={[
                  { value: 'mileage', label: t('console.dashboard.top7.mileage') },
                  { value: 'fuel', label: t('console.dashboard.top7.fuel') },
                ]}
              />
            }
          >
            <Suspense fallback={chartFallback}>
              <EChart
                testId="dashboard-top7"
                height={318}
                loading={d.top7.loading}
                empty={!d.top7.data?.length}
                emptyText={t('console.dashboard.empty')}
                option={top7Option(d.top7.data ?? [], top7Key, t(`console.dashboard.top7.${d.top7By}Series`), fmt)}
              />
            </Suspense>
          </Card>
        </Col>
      </Row>
      <Card
        size="small"
        title={t('console.dashboard.alarms.title')}
        extra={<Link to="/alarm/all">{t('console.dashboard.alarms.more')}</Link>}
        data-testid="dashboard-alarms"
      >
        {d.alarms.loading ? (
          <Skeleton active />
        ) : d.alarms.data?.length ? (
          <List
            size="small"
            dataSource={d.alarms.data}
            renderItem={(a) => (
              <List.Item key={a.id} data-testid="dashboard-alarm">
                <Link to={`${alarmPagePath(a.category)}?alarmId=${a.id}`}>
                  <Space wrap>
                    <Tag color={LEVEL_COLOURS[a.level] ?? 'default'}>{t(`alarm.levels.${a.level}`)}</Tag>
                    <Typography.Text strong>{a.licence}</Typography.Text>
                    <span>{t(`alarm.types.${a.type}`)}</span>
                    <Typography.Text type="secondary">{t(`alarm.categories.${a.category}`)}</Typography.Text>
                  </Space>
                </Link>
                <Space>
                  <Typography.Text type="secondary">{parseTime(a.begin)}</Typography.Text>
                  <Tag color={a.status === 'open' ? 'red' : 'default'}>{t(`console.dashboard.alarms.${a.status}`)}</Tag>
                  {a.handled && <Tag color="green">{t('console.dashboard.alarms.handled')}</Tag>}
                </Space>
              </List.Item>
            )}
          />
        ) : (
          <Empty description={t('console.dashboard.noAlarms')} />
        )}
      </Card>
      <HealthBandsCard />
      <MaintenanceCard />
    </Space>
  );
}
