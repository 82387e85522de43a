import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { APPLICATION_KEYS, labelOf, valueEnumOf } from '../../../components/system/labels';
import { tableRequest } from '../../../components/system/paging';
import { queryAudit, type AuditRecord } from '../../../services/passport';
import { useT } from '../../../session/useT';
import { parseTime } from '../../../utils/formatTime';
import { ACTION_KEYS, actionLabel } from './actions';
import { detailLines, targetText, type DetailLine } from './auditText';

const request = tableRequest(queryAudit);

/** A time range from the search form as the ISO instants the server takes. */
const isoRange = (range: unknown) =>
  Array.isArray(range) ? range.map((v: unknown) => (v ? dayjs(v as string).toISOString() : null)) : undefined;

/** Labelled detail lines, each on its own line and cut to the column with the whole line on hover. */
function Detail({ lines }: { lines: DetailLine[] }) {
  const t = useT();
  if (!lines.length) return <>-</>;
  const colon = t('console.system.log.labelSeparator');
  return (
    <div data-testid="log-detail">
      {lines.map((l, i) => {
        const text = l.label ? `${l.label}${colon}${l.value}` : l.value;
        return (
          <Typography.Text key={i} ellipsis={{ tooltip: text }} style={{ display: 'block', maxWidth: 260 }}>
            {l.label && (
              <Typography.Text type="secondary">
                {l.label}
                {colon}
              </Typography.Text>
            )}
            {l.value}
          </Typography.Text>
        );
      })}
    </div>
  );
}

/** The audit log of the caller's subtree (read-only): time range, actor, action, target and result. */
export default function LogPage() {
  const t = useT();
  const columns: Array<ProColumns<AuditRecord>> = [
    {
      title: t('console.system.log.at'),
      dataIndex: 'at',
      valueType: 'dateTimeRange',
      sorter: true,
      width: 170,
      search: { transform: (v: unknown) => ({ at: isoRange(v) }) },
      render: (_, r) => parseTime(r.at),
    },
    { title: t('console.system.log.actor'), dataIndex: 'memberName', render: (_, r) => r.memberName ?? '-' },
    { title: t('console.system.log.realActor'), dataIndex: 'actorName', search: false, render: (_, r) => r.actorName ?? '-' },
    { title: t('passport.fields.orgId'), dataIndex: 'orgName', search: false },
    {
      title: t('passport.fields.action'),
      dataIndex: 'action',
      valueType: 'select',
      valueEnum: valueEnumOf(ACTION_KEYS, t),
      render: (_, r) => actionLabel(r.action, t),
    },
    { title: t('passport.fields.target'), dataIndex: 'target', render: (_, r) => <span data-testid="log-target">{targetText(r, t)}</span> },
    {
      title: t('passport.fields.applications'),
      dataIndex: 'application',
      search: false,
      render: (_, r) => labelOf(APPLICATION_KEYS, t, r.application) || '-',
    },
    {
      title: t('console.system.log.result'),
      dataIndex: 'success',
      valueType: 'select',
      valueEnum: { true: { text: t('console.system.log.success') }, false: { text: t('console.system.log.failure') } },
      search: { transform: (v: unknown) => ({ success: v === 'true' || v === true }) },
      render: (_, r) => (
        <Tag color={r.success ? 'success' : 'error'} data-testid="log-result">
          {r.success ? t('console.system.log.success') : t('console.system.log.failure')}
        </Tag>
      ),
    },
    { title: t('console.system.log.ip'), dataIndex: 'ip', search: false },
    {
      title: t('passport.fields.detail'),
      dataIndex: 'detail',
      search: false,
      width: 280,
      render: (_, r) => <Detail lines={detailLines(r.detail, t, r.targetKind)} />,
    },
  ];
  return (
    <div data-testid="log-page">
      <ProTable<AuditRecord>
        rowKey="id"
        columns={columns}
        request={request}
        pagination={{ defaultPageSize: 20, showSizeChanger: true }}
        search={{ labelWidth: 'auto' }}
        options={{ density: false, setting: false }}
        scroll={{ x: 'max-content' }}
        headerTitle={t('menu.system-log')}
      />
    </div>
  );
}
