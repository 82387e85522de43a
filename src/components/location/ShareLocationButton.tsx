import { ShareAltOutlined } from '@ant-design/icons';
import { App, Button, Modal, Popconfirm, Select, Space, Table, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import Permission from '../../session/Permission';
import { useT } from '../../session/useT';
import { parseTime } from '../../utils/formatTime';
import {
  createShare,
  listShares,
  revokeShare,
  SHARE_CODE,
  shareUrl,
  VALIDITY_HOURS,
  type CreatedTicket,
  type ShareTicket,
  type TicketStatus,
} from '../../services/share';
import CopyField from '../secret/CopyField';

const STATUS_COLOR: Record<TicketStatus, string> = { active: 'green', expired: 'default', revoked: 'red' };

/**
 * Share a vehicle's live location: pick a validity, get a link to `/location/{ticket}` (shown
 * once, with copy), and see and revoke the vehicle's links. Shown only to holders of vehicle-edit;
 * `link` renders it as a table row action.
 */
export default function ShareLocationButton({ vehicleId, link = false }: { vehicleId: number; link?: boolean }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <Permission code={SHARE_CODE}>
      {link ? (
        // A table row action: a plain link like its neighbours, so the actions column stays one line.
        <a onClick={() => setOpen(true)} data-testid="share-location">
          {t('console.location.share.button')}
        </a>
      ) : (
        <Button icon={<ShareAltOutlined />} onClick={() => setOpen(true)} data-testid="share-location">
          {t('console.location.share.button')}
        </Button>
      )}
      {open && <ShareDialog vehicleId={vehicleId} onClose={() => setOpen(false)} />}
    </Permission>
  );
}

function ShareDialog({ vehicleId, onClose }: { vehicleId: number; onClose: () => void }) {
  const t = useT();
  const { message } = App.useApp();
  const [hours, setHours] = useState<number>(24);
  const [created, setCreated] = useState<CreatedTicket | null>(null);
  const [tickets, setTickets] = useState<ShareTicket[]>([]);
  const [busy, setBusy] = useState(false);

  const reload = useCallback(() => {
    listShares(vehicleId).then(setTickets, () => undefined); // failures are shown by the request layer
  }, [vehicleId]);
  useEffect(reload, [reload]);

  const create = async () => {
    setBusy(true);
    try {
      setCreated(await createShare(vehicleId, hours));
      void message.success(t('console.location.share.createDone'));
      reload();
    } catch {
      // shown by the request layer (SPEC.md §8)
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (id: number) => {
    try {
      await revokeShare(id);
      void message.success(t('console.location.share.revokeDone'));
      if (created?.id === id) setCreated(null);
      reload();
    } catch {
      // shown by the request layer
    }
  };

  const link = created ? shareUrl(created.path) : '';
  const label = (h: number) =>
    h % 24 === 0 ? t('console.location.share.days', { n: h / 24 }) : t('console.location.share.hours', { n: h });
  return (
    <Modal
      open
      title={t('console.location.share.title')}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('console.location.share.close')}</Button>}
      width={720}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('console.location.share.intro')}</Typography.Paragraph>
      <Space wrap style={{ marginBottom: 16 }}>
        <span>{t('console.location.share.validity')}</span>
        <Select
          value={hours}
          onChange={setHours}
          style={{ width: 120 }}
          options={VALIDITY_HOURS.map((h) => ({ value: h, label: label(h) }))}
          data-testid="share-validity"
        />
        <Button type="primary" loading={busy} onClick={() => void create()} data-testid="share-create">
          {t('console.location.share.create')}
        </Button>
      </Space>
      {created && (
        <div style={{ marginBottom: 16 }} data-testid="share-link">
          <Typography.Text strong>{t('console.location.share.link')}</Typography.Text>
          <CopyField
            value={link}
            style={{ marginTop: 4 }}
            extra={
              <Popconfirm title={t('console.location.share.revokeConfirm')} onConfirm={() => revoke(created.id)}>
                <Button danger>{t('console.location.share.revoke')}</Button>
              </Popconfirm>
            }
          />
          <Typography.Text type="warning">{t('console.location.share.once')}</Typography.Text>
        </div>
      )}
      <Typography.Title level={5}>{t('console.location.share.list')}</Typography.Title>
      <Table<ShareTicket>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={tickets}
        locale={{ emptyText: t('console.location.share.empty') }}
        columns={[
          {
            key: 'status',
            title: t('console.location.share.status'),
            render: (_, r) => <Tag color={STATUS_COLOR[r.status]}>{t(['console.location.share', r.status].join('.'))}</Tag>,
          },
          { key: 'createdAt', title: t('console.location.share.createdAt'), render: (_, r) => parseTime(r.createdAt) },
          { key: 'expiresAt', title: t('console.location.share.expiresAt'), render: (_, r) => parseTime(r.expiresAt) },
          { key: 'createdBy', title: t('console.location.share.createdBy'), dataIndex: 'createdBy' },
          {
            key: 'actions',
            render: (_, r) =>
              r.status === 'active' && (
                <Popconfirm title={t('console.location.share.revokeConfirm')} onConfirm={() => revoke(r.id)}>
                  <Button type="link" danger size="small">
                    {t('console.location.share.revoke')}
                  </Button>
                </Popconfirm>
              ),
          },
        ]}
      />
    </Modal>
  );
}
