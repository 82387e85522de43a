import { Card, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReactNode } from 'react';
import type { LedgerVehicleRow } from '../../services/reports';
import { useT } from '../../session/useT';
import type { LedgerSeries } from './useLedgerSeries';

export interface LedgerVehicleTableProps {
  title: string;
  series: LedgerSeries;
  /** The columns after the licence, which every such table starts with. */
  columns: ColumnsType<LedgerVehicleRow>;
  testId: string;
  /** Beside the title (the page's export). */
  extra?: ReactNode;
}

/** The ledger per vehicle beside a `LedgerTrendCard` (the fuel page): licence first, then the page's figures. */
export default function LedgerVehicleTable({ title, series, columns, testId, extra }: LedgerVehicleTableProps) {
  const t = useT();
  return (
    <Card size="small" title={title} extra={extra}>
      <Table<LedgerVehicleRow>
        size="small"
        rowKey="vehicleId"
        loading={series.loading}
        dataSource={series.vehicles ?? []}
        locale={{ emptyText: t('console.statistics.empty') }}
        pagination={{ defaultPageSize: 10 }}
        scroll={{ x: 'max-content' }}
        data-testid={testId}
        columns={[{ key: 'licence', title: t('reports.ledger.licence'), dataIndex: 'licence', fixed: 'left' }, ...columns]}
      />
    </Card>
  );
}
