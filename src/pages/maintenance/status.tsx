import { App, Card, Col, Popconfirm, Row, Select, Space, Statistic, Tag } from 'antd';
import { useCallback, useState } from 'react';
import OrgTreeSelect from '../../components/schema/OrgTreeSelect';
import ReportExportButton from '../../components/statistics/ReportExportButton';
import RefSelect from '../../components/schema/RefSelect';
import {
  DUE_STATES,
  MAINTENANCE_EXPORT,
  maintenanceStatus,
  WORK_ORDER_ADD_CODE,
  workOrderFromSchedule,
  type MaintenanceCriteria,
  type ScheduleUsage,
} from '../../services/maintenance';
import Permission from '../../session/Permission';
import { useT } from '../../session/useT';
import { useCriteriaData } from '../statistics/useCriteriaData';
import { STATE_COLOURS } from './maintenanceModel';
import UsageTable from './UsageTable';

/** Creates a work order for a due or overdue row's schedule, after confirmation. */
function CreateWorkOrderAction({ row, onCreated }: { row: ScheduleUsage; onCreated: () => void }) {
  const t = useT();
  const { message } = App.useApp();
  const create = async () => {
    try {
      const wo = await workOrderFromSchedule(row.scheduleId, row.vehicleId);
      void message.success(t('console.maintenance.workOrderCreated', { id: wo.id }));
      onCreated();
    } catch {
      // the request layer showed the refusal (e.g. an unfinished work order already exists)
    }
  };
  return (
    <Popconfirm
      title={t('console.maintenance.createWorkOrderConfirm', { schedule: row.scheduleName, licence: row.licence })}
      okText={t('console.maintenance.createWorkOrder')}
      onConfirm={create}
    >
      <a data-testid="row-create-work-order">{t('console.maintenance.createWorkOrder')}</a>
    </Popconfirm>
  );
}

/**
 * Maintenance status (page key `maintenance/status`): every schedule × vehicle in scope with its
 * usage since the last service and its state, overdue first; the counts per state above.
 */
export default function MaintenanceStatusPage() {
  const t = useT();
  const [criteria, setCriteria] = useState<MaintenanceCriteria>({ orgId: null, vehicleId: null, state: null });
  const reload = useCallback(() => setCriteria((c) => ({ ...c })), []);
  const status = useCriteriaData(criteria, maintenanceStatus, { counts: { ok: 0, due: 0, overdue: 0 }, data: [] });

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="maintenance-status">
      <Card size="small">
        <Row gutter={16}>
          {DUE_STATES.map((s) => (
            <Col key={s} span={8}>
              <a onClick={() => setCriteria((c) => ({ ...c, state: c.state === s ? null : s }))} data-testid={`maintenance-count-${s}`}>
                <Statistic
                  title={<Tag color={STATE_COLOURS[s]}>{t(`console.maintenance.states.${s}`)}</Tag>}
                  value={status?.counts[s] ?? 0}
                  loading={status === null}
                />
              </a>
            </Col>
          ))}
        </Row>
      </Card>
      <Card size="small">
        <Space wrap size={12} data-testid="maintenance-filter">
          <OrgTreeSelect
            style={{ width: 200 }}
            value={criteria.orgId}
            onChange={(orgId) => setCriteria((c) => ({ ...c, orgId }))}
            placeholder={t('console.statistics.org')}
          />
          <RefSelect
            style={{ width: 180 }}
            entity="vehicle"
            value={criteria.vehicleId}
            onChange={(vehicleId) => setCriteria((c) => ({ ...c, vehicleId }))}
            placeholder={t('console.statistics.vehicle')}
          />
          <Select
            style={{ width: 160 }}
            allowClear
            value={criteria.state ?? undefined}
            onChange={(state) => setCriteria((c) => ({ ...c, state: state ?? null }))}
            placeholder={t('console.maintenance.state')}
            options={DUE_STATES.map((s) => ({ value: s, label: t(`console.maintenance.states.${s}`) }))}
            data-testid="maintenance-state-filter"
          />
          <ReportExportButton
            url={MAINTENANCE_EXPORT}
            body={() => ({ criteria })}
            fileName={() => `${t('reports.sheets.maintenance')}.xlsx`}
            rows={status?.data.length ?? null}
            testId="maintenance-export"
          />
        </Space>
        <UsageTable
          rows={status?.data ?? null}
          testId="maintenance-usage"
          actions={(r) =>
            r.state === 'ok' ? null : (
              <Permission code={WORK_ORDER_ADD_CODE}>
                <CreateWorkOrderAction row={r} onCreated={reload} />
              </Permission>
            )
          }
        />
      </Card>
    </Space>
  );
}
