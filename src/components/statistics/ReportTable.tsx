import { Table, type TableProps } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { cellText, type ReportColumn } from '../../../schemas/kit/reportColumns';
import { useNumberFormat } from '../charts/useNumberFormat';
import { useT } from '../../session/useT';
import { parseTime } from '../../utils/formatTime';

export interface ReportTableProps<R> extends Omit<TableProps<R>, 'columns' | 'dataSource'> {
  columns: ReadonlyArray<ReportColumn<R>>;
  rows: readonly R[] | null;
  testId: string;
}

/**
 * A report's table in the columns its xlsx export writes (schemas/kit/reportColumns): numbers for
 * the locale, codes translated, instants in local time; the first column stays in view when the
 * table scrolls sideways on a narrow screen.
 */
export default function ReportTable<R extends object>({ columns, rows, testId, ...rest }: ReportTableProps<R>) {
  const t = useT();
  const fmt = useNumberFormat();
  const cols: ColumnsType<R> = columns.map((c, i) => ({
    key: c.key,
    title: t(c.labelKey),
    align: c.kind === 'number' ? 'right' : 'left',
    fixed: i === 0 ? 'left' : undefined,
    render: (_: unknown, row: R) => {
      const v = cellText(c, row, t, (iso) => parseTime(iso) ?? '');
      return typeof v === 'number' ? fmt(v, c.digits ?? 0) : (v ?? '');
    },
    ...(c.kind === 'number' ? { sorter: (a: R, b: R) => Number(c.value(a) ?? -Infinity) - Number(c.value(b) ?? -Infinity) } : {}),
  }));
  return (
    <Table<R>
      size="small"
      columns={cols}
      dataSource={rows ? [...rows] : []}
      loading={rows === null}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: t('console.statistics.empty') }}
      pagination={{ defaultPageSize: 20, showSizeChanger: true, showTotal: (n) => t('console.statistics.rows', { n: fmt(n) }) }}
      data-testid={testId}
      {...rest}
    />
  );
}
