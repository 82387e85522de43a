import { Alert, Space, Table, Tag, Typography } from 'antd';
import { useT } from '../../session/useT';
import { fieldLabel } from './labels';
import { linesPagination, updateLines, type SheetReport, type UpdateLine } from './report';

/**
 * The preview of a checked import before the user confirms it: how many rows create, update and
 * leave unchanged a record, and each row that updates one (the key that named it, what changes).
 * A renewal's report has no plan: only its message and the confirm hint.
 */
export default function ImportPlan({ report, entity }: { report: SheetReport; entity: string }) {
  const t = useT();
  const planned = report.plan !== undefined;
  const lines = updateLines(
    report,
    (f) => fieldLabel(t, entity, f),
    t('common.listSeparator'),
    (fields, value) => t('console.sheet.planKeyValue', { fields, value }),
  );
  const nothing = planned && !report.created && !report.updated;
  const description = (
    <Space direction="vertical" size={4}>
      {planned && (
        <Space size={4} wrap data-testid="sheet-plan">
          <Tag color="green" data-testid="sheet-plan-created" data-count={report.created}>
            {t('console.sheet.planCreated', { count: report.created ?? 0 })}
          </Tag>
          <Tag color="blue" data-testid="sheet-plan-updated" data-count={report.updated}>
            {t('console.sheet.planUpdated', { count: report.updated ?? 0 })}
          </Tag>
          <Tag data-testid="sheet-plan-unchanged" data-count={report.unchanged}>
            {t('console.sheet.planUnchanged', { count: report.unchanged ?? 0 })}
          </Tag>
        </Space>
      )}
      <span>{nothing ? t('console.sheet.allUnchanged') : t('console.sheet.confirmHint', { count: report.total })}</span>
    </Space>
  );
  return (
    <>
      <Alert type="success" showIcon message={report.message} description={description} data-testid="sheet-valid" />
      {lines.length > 0 && (
        <>
          <Typography.Text strong>{t('console.sheet.planUpdates')}</Typography.Text>
          <Table<UpdateLine>
            data-testid="sheet-plan-updates"
            size="small"
            rowKey="key"
            dataSource={lines}
            pagination={linesPagination(lines.length)}
            columns={[
              { title: t('console.sheet.row'), dataIndex: 'row', width: 90 },
              { title: t('console.sheet.planKey'), dataIndex: 'matched' },
              { title: t('console.sheet.planChanged'), dataIndex: 'changed' },
            ]}
          />
        </>
      )}
    </>
  );
}
