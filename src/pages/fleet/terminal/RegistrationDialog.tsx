import { Button, Descriptions, Modal, Popconfirm, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useCallback, useEffect, useState } from 'react';
import type { Row } from '../../../components/schema/pageContract';
import { reportFailure } from '../../../services/http/config';
import { feedback } from '../../../services/http/feedback';
import Permission from '../../../session/Permission';
import { useT } from '../../../session/useT';
import {
  loadRegistration,
  RESET_REGISTRATION_CODE,
  resetRegistration,
  type Refusal,
  type Registration,
} from '../../../services/terminalRegistration';

const when = (v: string | null) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm:ss') : '—');

/**
 * One terminal's registration: whether it is registered and since when, the hardware its auth code
 * is bound to, its live link, and the last refused registrations and authentications (an
 * impersonation attempt shows here). The reset (its own code) makes the terminal register again.
 */
export default function RegistrationDialog({ row, onClose, onReset }: { row: Row; onClose: () => void; onReset: () => void }) {
  const t = useT();
  const terminalNo = String(row.terminalNo ?? '');
  const [view, setView] = useState<Registration | null>(null);
  const [resetting, setResetting] = useState(false);

  const load = useCallback(async () => {
    try {
      setView(await loadRegistration(row.id));
    } catch (e) {
      reportFailure(e);
    }
  }, [row.id]);
  useEffect(() => {
    void load();
  }, [load]);

  const reset = async () => {
    setResetting(true);
    try {
      setView(await resetRegistration(row.id));
      void feedback().message.success(t('terminalRegistration.resetDone', { terminalNo }));
      onReset();
    } catch {
      // the request config showed the refusal
    } finally {
      setResetting(false);
    }
  };

  const hw = view?.hardware;
  const text = (v: string | number | null | undefined) =>
    v === null || v === undefined || v === '' ? t('terminalRegistration.notBound') : String(v);
  const columns = [
    { title: t('terminalRegistration.at'), dataIndex: 'at', key: 'at', render: (v: string) => when(v) },
    {
      title: t('terminalRegistration.message'),
      dataIndex: 'message',
      key: 'message',
      render: (v: string) => t(`terminalRegistration.messages.${v}`),
    },
    {
      title: t('terminalRegistration.reason'),
      dataIndex: 'reason',
      key: 'reason',
      render: (v: string, r: Refusal) => (
        <>
          {t(`terminalRegistration.reasons.${v}`)}
          {r.suppressed > 0 && (
            <Typography.Text type="secondary"> ({t('terminalRegistration.suppressed', { count: r.suppressed })})</Typography.Text>
          )}
        </>
      ),
    },
    {
      title: t('terminalRegistration.remoteAddress'),
      dataIndex: 'remoteAddress',
      key: 'remoteAddress',
      render: (v: string | null) => v ?? '—',
    },
  ];

  return (
    <Modal
      open
      width={760}
      title={t('terminalRegistration.title', { terminalNo })}
      onCancel={onClose}
      data-testid="registration-dialog"
      footer={[
        view?.registered ? (
          <Permission key="reset" code={RESET_REGISTRATION_CODE}>
            <Popconfirm
              title={t('terminalRegistration.resetConfirm', { terminalNo })}
              okText={t('terminalRegistration.reset')}
              cancelText={t('terminalRegistration.close')}
              onConfirm={reset}
            >
              <Button danger loading={resetting} data-testid="registration-reset">
                {t('terminalRegistration.reset')}
              </Button>
            </Popconfirm>
          </Permission>
        ) : null,
        <Button key="close" onClick={onClose}>
          {t('terminalRegistration.close')}
        </Button>,
      ]}
    >
      {view && (
        <>
          <Descriptions size="small" column={2} bordered>
            <Descriptions.Item label={t('terminalRegistration.state')}>
              <Tag color={view.registered ? 'green' : 'default'} data-testid="registration-state">
                {t(view.registered ? 'terminalRegistration.registered' : 'terminalRegistration.unregistered')}
              </Tag>
              <Tag color={view.online ? 'blue' : 'default'}>
                {t(view.online ? 'terminalRegistration.online' : 'terminalRegistration.offline')}
              </Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('terminalRegistration.remoteAddress')}>{view.remoteAddress ?? '—'}</Descriptions.Item>
            <Descriptions.Item label={t('terminalRegistration.registeredAt')}>{when(view.registeredAt)}</Descriptions.Item>
            <Descriptions.Item label={t('terminalRegistration.resetAt')}>{when(view.resetAt)}</Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('terminalRegistration.hardware')}
          </Typography.Title>
          <Descriptions size="small" column={2} bordered data-testid="registration-hardware">
            <Descriptions.Item label={t('terminalRegistration.makerId')}>{text(hw?.makerId)}</Descriptions.Item>
            <Descriptions.Item label={t('terminalRegistration.model')}>{text(hw?.model)}</Descriptions.Item>
            <Descriptions.Item label={t('terminalRegistration.deviceId')}>{text(hw?.deviceId)}</Descriptions.Item>
            <Descriptions.Item label={t('terminalRegistration.layout')}>{text(hw?.layout)}</Descriptions.Item>
            <Descriptions.Item label={t('terminalRegistration.imei')}>{text(hw?.imei)}</Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('terminalRegistration.refusals')}
          </Typography.Title>
          <Table<Refusal>
            size="small"
            rowKey="id"
            columns={columns}
            dataSource={view.refusals}
            pagination={false}
            locale={{ emptyText: t('terminalRegistration.noRefusals') }}
            data-testid="registration-refusals"
          />
        </>
      )}
    </Modal>
  );
}
