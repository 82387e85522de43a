import { App, Modal, Popconfirm, Table, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { entityPage } from '../../components/schema/EntityPage';
import type { Row } from '../../components/schema/pageContract';
import { REPORT_SEND_CODE, reportSends, sendReportNow, type ReportSend } from '../../services/reportSchedules';
import Permission from '../../session/Permission';
import { useT } from '../../session/useT';
import { parseTime } from '../../utils/formatTime';

export const STATUS_COLOURS: Record<ReportSend['status'], string> = { sending: 'processing', sent: 'success', failed: 'error' };
/** A send's triggers, each with its label. */
export const TRIGGERS: ReadonlyArray<ReportSend['trigger']> = ['schedule', 'manual'];

/** Sends the schedule's last complete period now, after confirmation, and says how it went. */
function SendNowAction({ row }: { row: Row }) {
  const t = useT();
  const { message } = App.useApp();
  const send = async () => {
    try {
      const r = await sendReportNow(row.id);
      const period = { begin: r.periodBegin, end: r.periodEnd };
      if (r.status === 'sent')
        void message.success(t(r.periodBegin === r.periodEnd ? 'console.reportSchedule.sentDay' : 'console.reportSchedule.sent', period));
      else void message.error(t('console.reportSchedule.failed', { error: r.error ?? '' }));
    } catch {
      // the request layer showed the failure
    }
  };
  return (
    <Popconfirm title={t('console.reportSchedule.sendNowConfirm')} okText={t('console.reportSchedule.sendNow')} onConfirm={send}>
      <a data-testid="row-send-now">{t('console.reportSchedule.sendNow')}</a>
    </Popconfirm>
  );
}

/** The schedule's latest sends: when, the period, to whom, how it ended. */
function HistoryDialog({ row, onClose }: { row: Row; onClose: () => void }) {
  const t = useT();
  const [sends, setSends] = useState<ReportSend[] | null>(null);
  useEffect(() => {
    reportSends(row.id).then(setSends, () => setSends([]));
  }, [row.id]);
  return (
    <Modal
      open
      width={980}
      title={t('console.reportSchedule.historyTitle', { name: String(row.name ?? '') })}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      <Table<ReportSend>
        data-testid="report-send-history"
        rowKey="id"
        size="small"
        loading={sends === null}
        dataSource={sends ?? []}
        pagination={false}
        scroll={{ x: 900 }}
        columns={[
          { title: t('console.reportSchedule.time'), dataIndex: 'startedAt', width: 170, render: (v: string) => parseTime(v) },
          {
            title: t('console.reportSchedule.period'),
            key: 'period',
            width: 190,
            render: (_, s) => (s.periodBegin === s.periodEnd ? s.periodBegin : `${s.periodBegin} – ${s.periodEnd}`),
          },
          {
            title: t('console.reportSchedule.trigger'),
            dataIndex: 'trigger',
            width: 100,
            render: (v: ReportSend['trigger']) => t(`console.reportSchedule.triggers.${v}`),
          },
          { title: t('console.reportSchedule.attempt'), dataIndex: 'attempt', width: 70 },
          { title: t('console.reportSchedule.recipients'), dataIndex: 'recipients', ellipsis: true },
          {
            title: t('console.reportSchedule.status'),
            dataIndex: 'status',
            width: 90,
            render: (v: ReportSend['status']) => <Tag color={STATUS_COLOURS[v]}>{t(`console.reportSchedule.statuses.${v}`)}</Tag>,
          },
          {
            title: t('console.reportSchedule.size'),
            dataIndex: 'sizeBytes',
            width: 90,
            render: (v: number | null) => (v === null ? '' : `${(v / 1024).toFixed(1)} KB`),
          },
          {
            title: t('console.reportSchedule.error'),
            dataIndex: 'error',
            ellipsis: true,
            render: (v: string | null) => <Typography.Text type="danger">{v ?? ''}</Typography.Text>,
          },
        ]}
      />
    </Modal>
  );
}

function HistoryAction({ row }: { row: Row }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <a data-testid="row-send-history" onClick={() => setOpen(true)}>
        {t('console.reportSchedule.history')}
      </a>
      {open && <HistoryDialog row={row} onClose={() => setOpen(false)} />}
    </>
  );
}

/**
 * Report schedules (page key `statistics/reportSchedule`): the schema page, with each schedule's
 * history of sends and, for holders of reportSchedule-send, "send now".
 */
export default entityPage('reportSchedule', {
  rowActions: (row) => [
    <Permission key="send" code={REPORT_SEND_CODE}>
      <SendNowAction row={row} />
    </Permission>,
    <HistoryAction key="history" row={row} />,
  ],
});
