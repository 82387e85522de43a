import { DatePicker, Form, Modal, Progress, Radio, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { rederivePolicy } from '../../../services/policies';
import { newProgressId, readProgress, type RowProgress } from '../../../services/progress';
import { useT } from '../../../session/useT';

const POLL_MS = 1000;
/** Each choice's catalogue key (and its `…Help`). */
export const CHOICE_KEYS = { now: 'fromNow', day: 'fromDay' } as const;

/**
 * Asked after a policy is saved: from now on (the default: nothing found before changes), or
 * re-derive from a day the admin picks, every vehicle the policy covers, in the background; the
 * dialog then follows its progress until it ends (closing it leaves the work running).
 */
export default function RederiveDialog({ policyId, onClose }: { policyId: number; onClose: () => void }) {
  const t = useT();
  const [mode, setMode] = useState<'now' | 'day'>('now');
  const [day, setDay] = useState<Dayjs | null>(null);
  const [dayError, setDayError] = useState(false);
  const [run, setRun] = useState<{ id: string; progress: RowProgress | null } | null>(null);

  useEffect(() => {
    if (!run || run.progress?.state === 'done' || run.progress?.state === 'failed' || run.progress?.state === 'cancelled') return;
    const timer = setTimeout(() => {
      readProgress(run.id).then(
        (progress) => setRun((r) => (r && r.id === run.id ? { ...r, progress } : r)),
        () => setRun((r) => (r ? { ...r } : r)),
      );
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [run]);

  const apply = async () => {
    if (mode === 'now') return onClose();
    if (!day) return setDayError(true);
    const id = newProgressId();
    await rederivePolicy(policyId, day.format('YYYY-MM-DD'), id);
    setRun({ id, progress: null });
  };

  const p = run?.progress;
  const status =
    p?.state === 'done'
      ? t('console.alarm.rederive.done', { total: p.total ?? 0 })
      : p?.state === 'failed'
        ? t('console.alarm.rederive.failed')
        : t('console.alarm.rederive.running', { done: p?.done ?? 0, total: p?.total ?? '…' });
  return (
    <Modal
      open
      title={t('console.alarm.rederive.title')}
      onCancel={onClose}
      onOk={run ? onClose : apply}
      okText={run ? undefined : t('console.alarm.rederive.apply')}
      cancelButtonProps={run ? { style: { display: 'none' } } : undefined}
      destroyOnClose
    >
      {run ? (
        <Space direction="vertical" style={{ width: '100%' }} data-testid="policy-rederive-progress">
          <Progress
            percent={p?.total ? Math.round((100 * p.done) / p.total) : 0}
            status={p?.state === 'failed' ? 'exception' : p?.state === 'done' ? 'success' : 'active'}
          />
          <Typography.Text>{status}</Typography.Text>
        </Space>
      ) : (
        <Radio.Group value={mode} onChange={(e) => setMode(e.target.value as 'now' | 'day')} data-testid="policy-rederive">
          <Space direction="vertical">
            {(['now', 'day'] as const).map((m) => (
              <Radio key={m} value={m} data-testid={`policy-rederive-${m}`}>
                {t(`console.alarm.rederive.${CHOICE_KEYS[m]}`)}
                <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
                  {t(`console.alarm.rederive.${CHOICE_KEYS[m]}Help`)}
                </Typography.Paragraph>
              </Radio>
            ))}
            {mode === 'day' && (
              <Form.Item
                validateStatus={dayError ? 'error' : undefined}
                help={dayError ? t('console.alarm.rederive.dayRequired') : undefined}
                style={{ marginBottom: 0 }}
              >
                <DatePicker
                  value={day}
                  disabledDate={(d) => d.isAfter(dayjs(), 'day')}
                  onChange={(d) => {
                    setDay(d);
                    setDayError(false);
                  }}
                  data-testid="policy-rederive-date"
                />
              </Form.Item>
            )}
          </Space>
        </Radio.Group>
      )}
    </Modal>
  );
}
