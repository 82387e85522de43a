import { Card, Space, Table } from 'antd';
import { useState } from 'react';
import { useNumberFormat } from '../../components/charts/useNumberFormat';
import StatsFilter from '../../components/statistics/StatsFilter';
import { initialCriteria, type StatsCriteria } from '../../components/statistics/statsCriteria';
import { ledgerByOrg, type LedgerOrgRow } from '../../services/reports';
import { useT } from '../../session/useT';
import LedgerTrendCard from './LedgerTrendCard';
import LedgerVehicleTable from './LedgerVehicleTable';
import { ledgerCriteriaOf, per100Km } from './statisticsModel';
import { useCriteriaData } from './useCriteriaData';
import { useLedgerSeries, type Grain } from './useLedgerSeries';

/** Cost: fuel cost by day or month, by vehicle and by organisation (cost per 100 km beside each). */
export default function CostPage() {
  const t = useT();
  const fmt = useNumberFormat();
  const [criteria, setCriteria] = useState<StatsCriteria>(() => initialCriteria(30));
  const [grain, setGrain] = useState<Grain>('day');
  const s = useLedgerSeries(criteria, grain);
  const orgs = useCriteriaData(criteria, (c) => ledgerByOrg(ledgerCriteriaOf(c)), []);

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="statistics-cost">
      <Card size="small">
        <StatsFilter value={criteria} onChange={setCriteria} />
      </Card>
      <LedgerTrendCard
        title={t('console.statistics.cost.title')}
        series={s}
        grain={grain}
        onGrain={setGrain}
        figure="cost"
        barName={t('reports.ledger.cost')}
        lineName={t('console.statistics.cost.per100')}
        testId="cost-chart"
      />
      <LedgerVehicleTable
        title={t('console.statistics.cost.perVehicle')}
        series={s}
        testId="cost-vehicles"
        columns={[
          {
            key: 'cost',
            title: t('reports.ledger.cost'),
            align: 'right',
            render: (_, r) => fmt(r.cost, 2),
            sorter: (a, b) => a.cost - b.cost,
            defaultSortOrder: 'descend',
          },
          { key: 'fuelL', title: t('reports.ledger.fuelL'), align: 'right', render: (_, r) => fmt(r.fuelL, 2) },
          { key: 'mileageKm', title: t('reports.ledger.mileageKm'), align: 'right', render: (_, r) => fmt(r.mileageKm, 1) },
          {
            key: 'per100',
            title: t('console.statistics.cost.per100'),
            align: 'right',
            render: (_, r) => fmt(per100Km(r.cost, r.mileageKm), 2),
          },
        ]}
      />
      <Card size="small" title={t('console.statistics.cost.perOrg')}>
        <Table<LedgerOrgRow>
          size="small"
          rowKey="orgId"
          loading={orgs === null}
          dataSource={orgs ?? []}
          locale={{ emptyText: t('console.statistics.empty') }}
          pagination={{ defaultPageSize: 10 }}
          scroll={{ x: 'max-content' }}
          data-testid="cost-orgs"
          columns={[
            { key: 'orgName', title: t('console.statistics.org'), dataIndex: 'orgName', fixed: 'left' },
            { key: 'vehicles', title: t('console.statistics.cost.vehicles'), align: 'right', render: (_, r) => fmt(r.vehicles) },
            {
              key: 'cost',
              title: t('reports.ledger.cost'),
              align: 'right',
              render: (_, r) => fmt(r.cost, 2),
              sorter: (a, b) => a.cost - b.cost,
              defaultSortOrder: 'descend',
            },
            { key: 'fuelL', title: t('reports.ledger.fuelL'), align: 'right', render: (_, r) => fmt(r.fuelL, 2) },
            { key: 'mileageKm', title: t('reports.ledger.mileageKm'), align: 'right', render: (_, r) => fmt(r.mileageKm, 1) },
            {
              key: 'per100',
              title: t('console.statistics.cost.per100'),
              align: 'right',
              render: (_, r) => fmt(per100Km(r.cost, r.mileageKm), 2),
            },
          ]}
        />
      </Card>
    </Space>
  );
}
