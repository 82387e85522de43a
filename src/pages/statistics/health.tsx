import { Card, Col, List, Row, Segmented, Skeleton, Space, Statistic, Tag, Typography } from 'antd';
import { lazy, Suspense, useMemo, useState } from 'react';
import { HEALTH_VEHICLE_COLUMNS, type HealthVehicleRow } from '../../../schemas/kit/reportColumns';
import { useNumberFormat } from '../../components/charts/useNumberFormat';
import ReportExportButton from '../../components/statistics/ReportExportButton';
import ReportTable from '../../components/statistics/ReportTable';
import StatsFilter from '../../components/statistics/StatsFilter';
import { initialCriteria, type StatsCriteria } from '../../components/statistics/statsCriteria';
import { HEALTH_BANDS, HEALTH_EXPORT, healthFleet, healthTotal, healthTrend, type HealthBand } from '../../services/behaviour';
import { useT } from '../../session/useT';
import { BAND_COLOURS, healthTrendOption } from './healthModel';
import { ledgerCriteriaOf } from './statisticsModel';
import { useCriteriaData } from './useCriteriaData';

const EChart = lazy(() => import('../../components/charts/EChart'));

/** Health: the fleet's index trend and bands, and each vehicle's state with its open faults, their cause and remedy. */
export default function HealthPage() {
  const t = useT();
  const fmt = useNumberFormat();
  const [criteria, setCriteria] = useState<StatsCriteria>(() => initialCriteria(30));
  const [band, setBand] = useState<HealthBand | 'all'>('all');
  const trend = useCriteriaData(criteria, (c) => healthTrend(ledgerCriteriaOf(c)), []);
  const fleet = useCriteriaData(criteria, (c) => healthFleet(ledgerCriteriaOf(c)), { healthy: [], attention: [], fault: [] });
  const total = useCriteriaData(criteria, (c) => healthTotal(ledgerCriteriaOf(c)), null);
  // Worst first: the bands are ranges of the index, the server sorts inside each.
  const rows = useMemo(
    () =>
      fleet ? (['fault', 'attention', 'healthy'] as const).filter((b) => band === 'all' || b === band).flatMap((b) => fleet[b]) : null,
    [fleet, band],
  );

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="statistics-health">
      <Card size="small">
        <StatsFilter value={criteria} onChange={setCriteria} />
      </Card>
      <Row gutter={[16, 16]} data-testid="health-total">
        <Col xs={12} md={8} xl={4}>
          <Card size="small" loading={total === null}>
            <Statistic title={t('reports.columns.healthIndex')} value={fmt(total?.index ?? null, 1)} />
          </Card>
        </Col>
        {HEALTH_BANDS.map((b) => (
          <Col key={b} xs={12} md={8} xl={5}>
            <Card size="small" loading={total === null} hoverable onClick={() => setBand(b)} data-testid={`health-total-${b}`}>
              <Statistic title={<Tag color={BAND_COLOURS[b]}>{t(`reports.bands.${b}`)}</Tag>} value={fmt(total?.[b] ?? 0)} />
            </Card>
          </Col>
        ))}
        <Col xs={12} md={8} xl={5}>
          <Card size="small" loading={total === null}>
            <Statistic title={t('console.statistics.health.openFaults')} value={fmt(total?.openFaults ?? 0)} />
          </Card>
        </Col>
      </Row>
      <Card size="small" title={t('console.statistics.health.trend')}>
        <Suspense fallback={<Skeleton active />}>
          <EChart
            testId="health-chart"
            loading={trend === null}
            empty={!trend?.length}
            emptyText={t('console.statistics.empty')}
            option={healthTrendOption(trend ?? [], t, fmt)}
          />
        </Suspense>
      </Card>
      <Card
        size="small"
        title={t('console.statistics.health.vehicles')}
        extra={
          <Space wrap>
            <Segmented
              size="small"
              value={band}
              onChange={(b) => setBand(b as HealthBand | 'all')}
              options={[
                { value: 'all', label: t('console.statistics.health.allBands') },
                ...HEALTH_BANDS.map((b) => ({ value: b, label: t(`reports.bands.${b}`) })),
              ]}
              data-testid="health-band"
            />
            <ReportExportButton
              url={HEALTH_EXPORT}
              body={() => ({ criteria: { ...ledgerCriteriaOf(criteria), band: band === 'all' ? null : band } })}
              fileName={() => `${t('reports.sheets.health')} ${criteria.begin}_${criteria.end}.xlsx`}
              rows={rows?.length ?? null}
              testId="health-export"
            />
          </Space>
        }
      >
        <ReportTable<HealthVehicleRow>
          columns={HEALTH_VEHICLE_COLUMNS}
          rows={rows}
          rowKey="vehicleId"
          testId="health-vehicles"
          expandable={{
            rowExpandable: (r) => r.faults.length > 0,
            expandedRowRender: (r) => (
              <List
                size="small"
                dataSource={r.faults}
                renderItem={(f) => (
                  <List.Item key={f.code}>
                    <Space direction="vertical" size={0}>
                      <Space>
                        <Tag color="red">{f.code}</Tag>
                        <Typography.Text strong>{f.name ?? ''}</Typography.Text>
                        <Typography.Text type="secondary">{t(`alarm.levels.${f.level}`)}</Typography.Text>
                      </Space>
                      {f.cause && <Typography.Text>{t('console.statistics.health.cause', { text: f.cause })}</Typography.Text>}
                      {f.resolvent && <Typography.Text>{t('console.statistics.health.remedy', { text: f.resolvent })}</Typography.Text>}
                    </Space>
                  </List.Item>
                )}
              />
            ),
          }}
        />
      </Card>
    </Space>
  );
}
