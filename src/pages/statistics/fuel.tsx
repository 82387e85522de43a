import { Card, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useNumberFormat } from '../../components/charts/useNumberFormat';
import ReportExportButton from '../../components/statistics/ReportExportButton';
import StatsFilter from '../../components/statistics/StatsFilter';
import { initialCriteria, type StatsCriteria } from '../../components/statistics/statsCriteria';
import { FUEL_EXPORT, fuelEvents, type FuelEvent } from '../../services/reports';
import { useT } from '../../session/useT';
import { parseTime } from '../../utils/formatTime';
import LedgerTrendCard from './LedgerTrendCard';
import LedgerVehicleTable from './LedgerVehicleTable';
import { ledgerCriteriaOf, per100Km } from './statisticsModel';
import { useCriteriaData } from './useCriteriaData';
import { useLedgerSeries, type Grain } from './useLedgerSeries';

/** Fuel: consumption by day or month, L/100 km per vehicle, refuels and suspected drains. */
export default function FuelPage() {
  const t = useT();
  const fmt = useNumberFormat();
  const [criteria, setCriteria] = useState<StatsCriteria>(() => initialCriteria(30));
  const [grain, setGrain] = useState<Grain>('day');
  const s = useLedgerSeries(criteria, grain);
  const events = useCriteriaData(criteria, (c) => fuelEvents(ledgerCriteriaOf(c)), []);
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="statistics-fuel">
      <Card size="small">
        <StatsFilter value={criteria} onChange={setCriteria} />
      </Card>
      <LedgerTrendCard
        title={t('console.statistics.fuel.title')}
        series={s}
        grain={grain}
        onGrain={setGrain}
        figure="fuelL"
        barName={t('console.statistics.fuel.fuelL')}
        lineName={t('console.statistics.fuel.per100')}
        testId="fuel-chart"
      />
      <LedgerVehicleTable
        title={t('console.statistics.fuel.perVehicle')}
        series={s}
        testId="fuel-vehicles"
        extra={
          <ReportExportButton
            url={FUEL_EXPORT}
            body={() => ({ criteria: ledgerCriteriaOf(criteria) })}
            fileName={() => `${t('reports.sheets.fuel')} ${criteria.begin}_${criteria.end}.xlsx`}
            rows={s.vehicles?.length ?? null}
            testId="fuel-export"
          />
        }
        columns={[
          {
            key: 'mileageKm',
            title: t('reports.ledger.mileageKm'),
            align: 'right',
            render: (_, r) => fmt(r.mileageKm, 1),
            sorter: (a, b) => a.mileageKm - b.mileageKm,
          },
          {
            key: 'fuelL',
            title: t('reports.ledger.fuelL'),
            align: 'right',
            render: (_, r) => fmt(r.fuelL, 2),
            sorter: (a, b) => a.fuelL - b.fuelL,
          },
          {
            key: 'per100',
            title: t('console.statistics.fuel.per100'),
            align: 'right',
            render: (_, r) => fmt(per100Km(r.fuelL, r.mileageKm), 2),
            sorter: (a, b) => (per100Km(a.fuelL, a.mileageKm) ?? -1) - (per100Km(b.fuelL, b.mileageKm) ?? -1),
          },
          { key: 'refuelL', title: t('reports.ledger.refuelL'), align: 'right', render: (_, r) => fmt(r.refuelL, 2) },
          { key: 'drainL', title: t('reports.ledger.drainL'), align: 'right', render: (_, r) => fmt(r.drainL, 2) },
        ]}
      />
      <Card size="small" title={t('console.statistics.fuel.events')}>
        <Table<FuelEvent>
          size="small"
          rowKey="id"
          loading={events === null}
          dataSource={events ?? []}
          locale={{ emptyText: t('console.statistics.empty') }}
          pagination={{ defaultPageSize: 10 }}
          data-testid="fuel-events"
          columns={[
            { key: 'time', title: t('console.statistics.fuel.time'), render: (_, e) => parseTime(e.time) },
            { key: 'licence', title: t('reports.ledger.licence'), dataIndex: 'licence' },
            {
              key: 'kind',
              title: t('console.statistics.fuel.kind'),
              render: (_, e) => <Tag color={e.kind === 'drain' ? 'red' : 'green'}>{t(`console.statistics.fuel.${e.kind}`)}</Tag>,
            },
            { key: 'amountL', title: t('console.statistics.fuel.amountL'), align: 'right', render: (_, e) => fmt(e.amountL, 2) },
            { key: 'place', title: t('console.statistics.fuel.place'), render: (_, e) => `${fmt(e.latitude, 5)}, ${fmt(e.longitude, 5)}` },
          ]}
        />
      </Card>
    </Space>
  );
}
