import { App, Button, Card, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { DRIVER_DAY_COLUMNS, DRIVER_STATS_COLUMNS, type DriverDayRow, type DriverStatsRow } from '../../../schemas/kit/reportColumns';
import RefSelect from '../../components/schema/RefSelect';
import ReportExportButton from '../../components/statistics/ReportExportButton';
import ReportTable from '../../components/statistics/ReportTable';
import StatsFilter from '../../components/statistics/StatsFilter';
import { initialCriteria, type StatsCriteria } from '../../components/statistics/statsCriteria';
import {
  ASSIGN_CARD_CODE,
  assignCard,
  driverDays,
  DRIVER_STATS_EXPORT,
  driverStats,
  unknownCards,
  type UnknownCard,
} from '../../services/drivers';
import Permission from '../../session/Permission';
import { useT } from '../../session/useT';
import { parseTime } from '../../utils/formatTime';
import { ledgerCriteriaOf } from './statisticsModel';
import { useCriteriaData } from './useCriteriaData';

const rowKey = (r: Pick<DriverStatsRow, 'kind' | 'driverId' | 'cardNo'>) => `${r.kind}:${r.driverId ?? r.cardNo ?? ''}`;

/** Assigns an unknown card to a driver of the caller's subtree, then reloads the page's figures. */
function AssignCard({ card, onDone }: { card: UnknownCard; onDone: () => void }) {
  const t = useT();
  const { message } = App.useApp();
  const [driverId, setDriverId] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <Space>
      <RefSelect
        entity="driver"
        value={driverId}
        onChange={setDriverId}
        placeholder={t('console.statistics.driver.pickDriver')}
        style={{ width: 180 }}
      />
      <Button
        size="small"
        type="primary"
        disabled={!driverId}
        loading={busy}
        data-testid="assign-card"
        onClick={() => {
          if (!driverId) return;
          setBusy(true);
          assignCard(card.cardNo, driverId).then(
            () => {
              void message.success(t('console.statistics.driver.assigned', { card: card.cardNo }));
              onDone();
            },
            () => setBusy(false),
          );
        }}
      >
        {t('console.statistics.driver.assign')}
      </Button>
    </Space>
  );
}

/** Per driver, by IC card session: mileage, driving time, trips, safety score and alarms; the cards no driver holds, to assign. */
export default function DriverStatisticsPage() {
  const t = useT();
  const [criteria, setCriteria] = useState<StatsCriteria>(() => initialCriteria(30));
  // A new object reloads both tables (after an assignment as after a filter change).
  const reload = () => setCriteria((c) => ({ ...c }));
  const rows = useCriteriaData(criteria, (c) => driverStats(ledgerCriteriaOf(c)), []);
  const days = useCriteriaData(criteria, (c) => driverDays(ledgerCriteriaOf(c)), []);
  const cards = useCriteriaData(criteria, (c) => unknownCards({ orgId: c.orgId, vehicleId: c.vehicleId }), []);

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="statistics-driver">
      <Card size="small">
        <StatsFilter value={criteria} onChange={setCriteria} />
      </Card>
      <Card
        size="small"
        title={t('console.statistics.driver.title')}
        extra={
          <ReportExportButton
            url={DRIVER_STATS_EXPORT}
            body={() => ({ criteria: ledgerCriteriaOf(criteria) })}
            fileName={() => `${t('driverStats.sheet')} ${criteria.begin}_${criteria.end}.xlsx`}
            rows={rows?.length ?? null}
            testId="driver-export"
          />
        }
      >
        <Typography.Paragraph type="secondary">{t('console.statistics.driver.help')}</Typography.Paragraph>
        <ReportTable<DriverStatsRow> columns={DRIVER_STATS_COLUMNS} rows={rows} rowKey={rowKey} testId="driver-stats" />
      </Card>
      <Card size="small" title={t('console.statistics.driver.byDay')}>
        <ReportTable<DriverDayRow> columns={DRIVER_DAY_COLUMNS} rows={days} rowKey={(r) => `${r.date}:${rowKey(r)}`} testId="driver-days" />
      </Card>
      <Card size="small" title={t('console.statistics.driver.unknownCards')}>
        <Table<UnknownCard>
          size="small"
          rowKey={(c) => `${c.cardNo}:${c.vehicleId}`}
          loading={cards === null}
          dataSource={cards ?? []}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('console.statistics.driver.noUnknownCards') }}
          data-testid="unknown-cards"
          columns={[
            { key: 'cardNo', title: t('driverStats.columns.cardNo'), dataIndex: 'cardNo' },
            { key: 'holderName', title: t('console.statistics.driver.holder'), dataIndex: 'holderName' },
            { key: 'licence', title: t('reports.ledger.licence'), dataIndex: 'licence' },
            {
              key: 'firstSeen',
              title: t('console.statistics.driver.firstSeen'),
              dataIndex: 'firstSeen',
              render: (v: string) => parseTime(v),
            },
            { key: 'lastSeen', title: t('console.statistics.driver.lastSeen'), dataIndex: 'lastSeen', render: (v: string) => parseTime(v) },
            {
              key: 'assign',
              title: '',
              render: (_: unknown, c: UnknownCard) => (
                <Permission code={ASSIGN_CARD_CODE}>
                  <AssignCard card={c} onDone={reload} />
                </Permission>
              ),
            },
          ]}
        />
      </Card>
    </Space>
  );
}
