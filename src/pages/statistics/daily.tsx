import { Card, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { LEDGER_COLUMNS, type LedgerDayVehicleRow } from '../../../schemas/kit/ledgerColumns';
import { useNumberFormat } from '../../components/charts/useNumberFormat';
import StatsFilter from '../../components/statistics/StatsFilter';
import type { StatsCriteria } from '../../components/statistics/statsCriteria';
import ReportExportButton from '../../components/statistics/ReportExportButton';
import { LEDGER_DAILY_EXPORT, ledgerDaily } from '../../services/reports';
import { useT } from '../../session/useT';
import { useReport } from './useReport';

const criteriaOf = (c: StatsCriteria) => ({ begin: c.begin, end: c.end, orgId: c.orgId, vehicleId: c.vehicleId });

/** The daily driving report: the ledger by day and vehicle, a totals row, and its xlsx export (the same columns and rows). */
export default function DailyPage() {
  const t = useT();
  const fmt = useNumberFormat();
  const r = useReport((c) => ledgerDaily(criteriaOf(c)));

  const columns: ColumnsType<LedgerDayVehicleRow> = LEDGER_COLUMNS.map((col) => ({
    key: col.key,
    title: t(col.labelKey),
    align: col.digits === null ? 'left' : 'right',
    render: (_: unknown, row: LedgerDayVehicleRow) => {
      const v = col.value(row);
      return typeof v === 'number' ? fmt(v, col.digits ?? 0) : v;
    },
  }));

  return (
    <Card data-testid="statistics-daily">
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
          <StatsFilter value={r.criteria} onChange={r.setCriteria} />
          <ReportExportButton
            url={LEDGER_DAILY_EXPORT}
            body={() => ({ criteria: criteriaOf(r.criteria) })}
            fileName={() => `${t('reports.ledger.sheetTitle')} ${r.criteria.begin}_${r.criteria.end}.xlsx`}
            rows={r.data?.rows.length ?? null}
            testId="daily-export"
          />
        </Space>
        <Table<LedgerDayVehicleRow>
          size="small"
          rowKey={(row) => `${row.date}-${row.vehicleId}`}
          columns={columns}
          dataSource={r.data?.rows ?? []}
          loading={r.loading}
          scroll={{ x: 'max-content' }}
          pagination={{ defaultPageSize: 50, showSizeChanger: true, showTotal: (n) => t('console.statistics.rows', { n: fmt(n) }) }}
          locale={{ emptyText: t('console.statistics.empty') }}
          summary={() =>
            r.data && r.data.rows.length ? (
              <Table.Summary fixed>
                <Table.Summary.Row data-testid="daily-totals">
                  {LEDGER_COLUMNS.map((col, i) => {
                    const v = i === 0 ? null : col.value(r.data!.total);
                    return (
                      <Table.Summary.Cell key={col.key} index={i} align={col.digits === null ? 'left' : 'right'}>
                        <Typography.Text strong>
                          {i === 0 ? t('reports.ledger.total') : typeof v === 'number' ? fmt(v, col.digits ?? 0) : ''}
                        </Typography.Text>
                      </Table.Summary.Cell>
                    );
                  })}
                </Table.Summary.Row>
              </Table.Summary>
            ) : null
          }
        />
      </Space>
    </Card>
  );
}
