import { Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReactNode } from 'react';
import { useNumberFormat } from '../../components/charts/useNumberFormat';
import type { ScheduleUsage } from '../../services/maintenance';
import { useT } from '../../session/useT';
import { STATE_COLOURS, usageKey } from './maintenanceModel';

export interface UsageTableProps {
  rows: ScheduleUsage[] | null;
  /** Without the licence column (one vehicle's detail). */
  noVehicle?: boolean;
  /** A row's actions (the status page's "create work order"). */
  actions?: (row: ScheduleUsage) => ReactNode;
  testId: string;
}

/** Schedules × vehicles: used since the last service against the interval, what is left, the state. */
export default function UsageTable({ rows, noVehicle, actions, testId }: UsageTableProps) {
  const t = useT();
  const fmt = useNumberFormat();
  // "used / interval" of one trigger, blank when the schedule does not count it.
  const usage = (used: number | null, interval: number | null, digits: number) =>
    interval === null ? '' : `${fmt(used, digits)} / ${fmt(interval, digits)}`;
  const left = (v: number | null, digits: number) =>
    v === null ? '' : <Typography.Text type={v <= 0 ? 'danger' : undefined}>{fmt(v, digits)}</Typography.Text>;
  const columns: ColumnsType<ScheduleUsage> = [
    ...(noVehicle ? [] : [{ key: 'licence', title: t('console.maintenance.licence'), dataIndex: 'licence', fixed: 'left' as const }]),
    { key: 'scheduleName', title: t('console.maintenance.schedule'), dataIndex: 'scheduleName' },
    {
      key: 'state',
      title: t('console.maintenance.state'),
      dataIndex: 'state',
      render: (v: ScheduleUsage['state']) => (
        <Tag color={STATE_COLOURS[v]} data-testid={`maintenance-state-${v}`}>
          {t(`console.maintenance.states.${v}`)}
        </Tag>
      ),
    },
    { key: 'baseDay', title: t('console.maintenance.baseDay'), dataIndex: 'baseDay' },
    { key: 'km', title: t('console.maintenance.usedKm'), align: 'right', render: (_, r) => usage(r.usedKm, r.intervalKm, 1) },
    { key: 'remainingKm', title: t('console.maintenance.remainingKm'), align: 'right', render: (_, r) => left(r.remainingKm, 1) },
    { key: 'hours', title: t('console.maintenance.usedHours'), align: 'right', render: (_, r) => usage(r.usedHours, r.intervalHours, 1) },
    {
      key: 'remainingHours',
      title: t('console.maintenance.remainingHours'),
      align: 'right',
      render: (_, r) => left(r.remainingHours, 1),
    },
    { key: 'days', title: t('console.maintenance.usedDays'), align: 'right', render: (_, r) => usage(r.usedDays, r.intervalDays, 0) },
    { key: 'remainingDays', title: t('console.maintenance.remainingDays'), align: 'right', render: (_, r) => left(r.remainingDays, 0) },
    { key: 'dueDay', title: t('console.maintenance.dueDay'), dataIndex: 'dueDay', render: (v: string | null) => v ?? '' },
    ...(actions ? [{ key: 'actions', title: t('console.maintenance.actions'), render: (_: unknown, r: ScheduleUsage) => actions(r) }] : []),
  ];
  return (
    <Table<ScheduleUsage>
      size="small"
      rowKey={usageKey}
      loading={rows === null}
      dataSource={rows ?? []}
      locale={{ emptyText: t('console.maintenance.empty') }}
      pagination={{ defaultPageSize: 20 }}
      scroll={{ x: 'max-content' }}
      data-testid={testId}
      columns={columns}
    />
  );
}
