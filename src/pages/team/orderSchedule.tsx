import { Alert, Card, Space, Table, Tabs, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo } from 'react';
import { SCHEDULE_COLUMNS, type ScheduleRow } from '../../../schemas/kit/reportColumns';
import { useNumberFormat } from '../../components/charts/useNumberFormat';
import { dayOf } from '../../components/statistics/statsCriteria';
import ReportExportButton from '../../components/statistics/ReportExportButton';
import ReportTable from '../../components/statistics/ReportTable';
import { ORDER_SCHEDULE_EXPORT, orderSchedule } from '../../services/team';
import { useT } from '../../session/useT';
import { parseTime } from '../../utils/formatTime';
import { calendarOf, daysOf, shiftState, type CalendarRow } from './scheduleModel';
import TeamFilter from './TeamFilter';
import { teamCriteriaOf, useTeamReport } from './useTeamReport';

const STATE_COLOURS = { driven: 'green', pending: 'blue', idle: 'default' } as const;

/** The order schedule: drivers by day as a calendar, each shift beside what its vehicle drove that day; and the same as a list. */
export default function OrderSchedulePage() {
  const t = useT();
  const fmt = useNumberFormat();
  const { criteria, setCriteria, answer } = useTeamReport(orderSchedule);
  const today = dayOf(new Date());
  const calendar = useMemo(() => (answer ? calendarOf(answer.rows) : null), [answer]);

  const cell = (r: ScheduleRow) => {
    const state = shiftState(r, today);
    const figures = r.tripCount
      ? t('console.team.drove', { km: fmt(r.mileageKm, 1), trips: fmt(r.tripCount) })
      : t(`console.team.state.${state}`);
    const times = r.firstDeparture ? `${parseTime(r.firstDeparture, '{h}:{i}')}–${parseTime(r.lastArrival, '{h}:{i}')}` : null;
    return (
      <Tooltip key={r.id} title={[r.route, times].filter(Boolean).join(' · ') || undefined}>
        <Space direction="vertical" size={0} data-testid="schedule-shift" data-state={state}>
          <Space size={4}>
            <Tag color={STATE_COLOURS[state]}>{t(`entity.schedule.enums.shift.${r.shift}`)}</Tag>
            <Typography.Text strong>{r.licence ?? t('console.team.noVehicle')}</Typography.Text>
          </Space>
          <Typography.Text type="secondary">{figures}</Typography.Text>
        </Space>
      </Tooltip>
    );
  };

  const days = daysOf(criteria.begin, criteria.end);
  const columns: ColumnsType<CalendarRow> = [
    { key: 'driver', title: t('reports.columns.driver'), dataIndex: 'driverName', fixed: 'left', width: 110 },
    ...days.map((d) => ({
      key: d,
      title: d.slice(5),
      width: 150,
      render: (_: unknown, row: CalendarRow) => (
        <Space direction="vertical" size={4}>
          {(row.days[d] ?? []).map(cell)}
        </Space>
      ),
    })),
  ];

  return (
    <Card data-testid="team-orderSchedule">
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
          <TeamFilter value={criteria} onChange={setCriteria} />
          <ReportExportButton
            url={ORDER_SCHEDULE_EXPORT}
            body={() => ({ criteria: teamCriteriaOf(criteria) })}
            fileName={() => `${t('reports.sheets.orderSchedule')} ${criteria.begin}_${criteria.end}.xlsx`}
            rows={answer?.rows.length ?? null}
            testId="orderSchedule-export"
          />
        </Space>
        {answer?.truncated && <Alert type="warning" showIcon message={t('console.team.truncated', { n: answer.rows.length })} />}
        <Tabs
          items={[
            {
              key: 'calendar',
              label: t('console.team.calendar'),
              children: (
                <Table<CalendarRow>
                  size="small"
                  bordered
                  rowKey="driverId"
                  columns={columns}
                  dataSource={calendar ?? []}
                  loading={calendar === null}
                  scroll={{ x: 'max-content' }}
                  pagination={{ defaultPageSize: 20 }}
                  locale={{ emptyText: t('console.team.noSchedule') }}
                  data-testid="schedule-calendar"
                />
              ),
            },
            {
              key: 'list',
              label: t('console.team.list'),
              children: (
                <ReportTable<ScheduleRow> columns={SCHEDULE_COLUMNS} rows={answer?.rows ?? null} rowKey="id" testId="schedule-list" />
              ),
            },
          ]}
        />
      </Space>
    </Card>
  );
}
