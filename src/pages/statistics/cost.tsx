import { Card, Col, Row, Segmented, Skeleton, Space, Statistic, Table } from 'antd';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useNumberFormat } from '../../components/charts/useNumberFormat';
import ReportExportButton from '../../components/statistics/ReportExportButton';
import StatsFilter from '../../components/statistics/StatsFilter';
import { initialCriteria, type StatsCriteria } from '../../components/statistics/statsCriteria';
import { COST_EXPORT, costSummary, type CostRow, type CostSummary } from '../../services/costs';
import { useT } from '../../session/useT';
import { COST_PARTS, COST_TOTALS, costDigits, type CostLabel, type CostTableGroup } from './costModel';
import { ledgerCriteriaOf, seriesOption } from './statisticsModel';
import { useCriteriaData } from './useCriteriaData';
import type { Grain } from './useLedgerSeries';

const EChart = lazy(() => import('../../components/charts/EChart'));

/**
 * Cost: the true cost of the vehicles in the filter's range from the cost summary (fuel from the
 * ledger, maintenance from done work orders, the other costs entered or imported): the totals, the
 * three costs stacked by day or month, and a table by vehicle, model or organisation with cost per
 * km and per day.
 */
export default function CostPage() {
  const t = useT();
  const fmt = useNumberFormat();
  const [criteria, setCriteria] = useState<StatsCriteria>(() => initialCriteria(30));
  const [grain, setGrain] = useState<Grain>('day');
  const [group, setGroup] = useState<CostTableGroup>('vehicle');
  // A failed call (the API layer shows why) leaves no figures rather than zeros.
  const failed: CostSummary | undefined = undefined;
  const periods = useCriteriaData(
    useMemo(() => ({ ...ledgerCriteriaOf(criteria), by: grain }), [criteria, grain]),
    costSummary,
    failed,
  );
  const table = useCriteriaData(
    useMemo(() => ({ ...ledgerCriteriaOf(criteria), by: group }), [criteria, group]),
    costSummary,
    failed,
  );
  const totals = table?.totals;
  const label = (k: CostLabel) => t(`console.statistics.cost.${k}`);
  const rows = periods?.rows ?? [];
  const option = seriesOption(
    rows.map((r) => r.label),
    COST_PARTS.map((p) => ({ name: label(p), kind: 'bar' as const, stack: 'cost', values: rows.map((r) => r[p]), digits: 2 })),
    fmt,
  );
  const figure = (key: Exclude<CostLabel, CostTableGroup>) => ({
    key,
    title: label(key),
    align: 'right' as const,
    render: (_: unknown, r: CostRow) => fmt(r[key], costDigits(key)),
    sorter: (a: CostRow, b: CostRow) => (a[key] ?? -1) - (b[key] ?? -1),
  });

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="statistics-cost">
      <Card size="small">
        <StatsFilter value={criteria} onChange={setCriteria} />
      </Card>
      <Row gutter={[16, 16]} data-testid="cost-totals">
        {COST_TOTALS.map((k) => (
          <Col key={k} xs={12} md={8} xl={4}>
            <Card size="small" loading={table === null} data-testid={`cost-total-${k}`}>
              <Statistic title={label(k)} value={totals ? fmt(totals[k], costDigits(k)) : '–'} />
            </Card>
          </Col>
        ))}
      </Row>
      <Card
        size="small"
        title={t('console.statistics.cost.breakdown')}
        extra={
          <Segmented
            size="small"
            value={grain}
            onChange={(g) => setGrain(g as Grain)}
            options={[
              { value: 'day', label: t('console.statistics.byDay') },
              { value: 'month', label: t('console.statistics.byMonth') },
            ]}
          />
        }
      >
        <Suspense fallback={<Skeleton active />}>
          <EChart
            testId="cost-chart"
            loading={periods === null}
            empty={!rows.length}
            emptyText={t('console.statistics.empty')}
            option={option}
          />
        </Suspense>
      </Card>
      <Card
        size="small"
        title={t('console.statistics.cost.table')}
        extra={
          <Space size={12}>
            <Segmented
              size="small"
              value={group}
              onChange={(g) => setGroup(g as CostTableGroup)}
              data-testid="cost-group"
              options={[
                { value: 'vehicle', label: t('console.statistics.cost.byVehicle') },
                { value: 'model', label: t('console.statistics.cost.byModel') },
                { value: 'org', label: t('console.statistics.cost.byOrg') },
              ]}
            />
            {/* The file is the table by vehicle (what a scheduled cost report attaches). */}
            {group === 'vehicle' && (
              <ReportExportButton
                url={COST_EXPORT}
                body={() => ({ criteria: ledgerCriteriaOf(criteria) })}
                fileName={() => `${t('reports.sheets.cost')} ${criteria.begin}_${criteria.end}.xlsx`}
                rows={table?.rows.length ?? null}
                testId="cost-export"
              />
            )}
          </Space>
        }
      >
        <Table<CostRow>
          size="small"
          rowKey="key"
          loading={table === null}
          dataSource={table?.rows ?? []}
          locale={{ emptyText: t('console.statistics.empty') }}
          pagination={{ defaultPageSize: 10 }}
          scroll={{ x: 'max-content' }}
          data-testid="cost-rows"
          columns={[
            {
              key: 'label',
              title: label(group),
              fixed: 'left',
              // A vehicle without a model is summed under an empty one.
              render: (_, r) => r.label || t('console.statistics.cost.noModel'),
            },
            ...(group === 'vehicle'
              ? []
              : [
                  {
                    key: 'vehicles',
                    title: t('console.statistics.cost.vehicles'),
                    align: 'right' as const,
                    render: (_: unknown, r: CostRow) => fmt(r.vehicles),
                  },
                ]),
            ...COST_PARTS.map(figure),
            { ...figure('total'), defaultSortOrder: 'descend' as const },
            figure('mileageKm'),
            figure('perKm'),
            figure('perDay'),
          ]}
        />
      </Card>
    </Space>
  );
}
