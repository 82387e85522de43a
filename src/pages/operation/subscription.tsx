import { App, Button, Card, Checkbox, DatePicker, Drawer, Form, Input, Modal, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useCallback, useEffect, useState } from 'react';
import OrgTreeSelect from '../../components/schema/OrgTreeSelect';
import RefSelect from '../../components/schema/RefSelect';
import Permission from '../../session/Permission';
import { useT } from '../../session/useT';
import SecretShownOnce from '../../components/secret/SecretShownOnce';
import { parseTime } from '../../utils/formatTime';
import {
  createSubscription,
  deleteSubscription,
  EVENT_TYPES,
  listSubscriptions,
  queryDeliveries,
  replaySubscription,
  setSubscriptionState,
  SUBSCRIPTION_CODES,
  type CreatedSubscription,
  type Delivery,
  type DeliveryStatus,
  type EventType,
  type NewSubscription,
  type Subscription,
} from '../../services/subscriptions';

const STATUS_COLOR: Record<DeliveryStatus, string> = { pending: 'orange', delivered: 'green', failed: 'red' };
const STATUS_KEY: Record<DeliveryStatus, string> = {
  pending: 'subscription.console.statuses.pending',
  delivered: 'subscription.console.statuses.delivered',
  failed: 'subscription.console.statuses.failed',
};
const EVENT_KEY: Record<EventType, string> = {
  position: 'subscription.console.events.position',
  alarm: 'subscription.console.events.alarm',
  geofence: 'subscription.console.events.geofence',
  maintenance: 'subscription.console.events.maintenance',
  trip: 'subscription.console.events.trip',
  'command-result': 'subscription.console.events.commandResult',
  media: 'subscription.console.events.media',
};
const PAGE_SIZE = 20;

/** Event subscriptions: list, create (the secret shown once), pause and resume, delete, the delivery log and replay. */
export default function SubscriptionPage() {
  const t = useT();
  const [rows, setRows] = useState<Subscription[]>([]);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedSubscription | null>(null);
  const [logOf, setLogOf] = useState<Subscription | null>(null);

  const reload = useCallback(() => {
    listSubscriptions().then(setRows, () => undefined); // failures are shown by the request layer
  }, []);
  useEffect(reload, [reload]);

  const act = async (run: () => Promise<unknown>) => {
    try {
      await run();
      reload();
    } catch {
      // shown by the request layer
    }
  };

  return (
    <Card
      title={t('subscription.console.title')}
      data-testid="subscription-page"
      extra={
        <Permission code={SUBSCRIPTION_CODES.add}>
          <Button type="primary" onClick={() => setCreating(true)} data-testid="subscription-new">
            {t('subscription.console.create')}
          </Button>
        </Permission>
      }
    >
      {created && (
        <SecretShownOnce
          secret={created.secret}
          notice={t('subscription.console.shownOnce')}
          testId="subscription-created"
          secretTestId="subscription-secret"
          onDone={() => setCreated(null)}
        />
      )}
      <Table<Subscription>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={rows}
        scroll={{ x: 'max-content' }}
        columns={[
          { key: 'name', title: t('subscription.fields.name'), dataIndex: 'name' },
          { key: 'url', title: t('subscription.fields.url'), render: (_, r) => <Typography.Text code>{r.url}</Typography.Text> },
          { key: 'org', title: t('subscription.fields.orgId'), dataIndex: 'orgName' },
          {
            key: 'types',
            title: t('subscription.fields.eventTypes'),
            render: (_, r) => r.eventTypes.map((e) => <Tag key={e}>{t(EVENT_KEY[e])}</Tag>),
          },
          {
            key: 'vehicles',
            title: t('subscription.fields.vehicleIds'),
            render: (_, r) => (r.vehicleIds ? r.vehicleIds.length : t('subscription.console.allVehicles')),
          },
          {
            key: 'state',
            title: t('subscription.fields.state'),
            render: (_, r) =>
              r.state === 'active' ? (
                <Tag color="green">{t('subscription.console.active')}</Tag>
              ) : (
                <Tag color="red">
                  {t(r.pausedReason === 'failing' ? 'subscription.console.pausedFailing' : 'subscription.console.paused')}
                </Tag>
              ),
          },
          { key: 'pending', title: t('subscription.console.pending'), dataIndex: 'pending' },
          {
            key: 'actions',
            render: (_, r) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setLogOf(r)} data-testid="subscription-log">
                  {t('subscription.console.log')}
                </Button>
                <Permission code={SUBSCRIPTION_CODES.edit}>
                  <Button
                    type="link"
                    size="small"
                    onClick={() => void act(() => setSubscriptionState(r.id, r.state === 'active' ? 'paused' : 'active'))}
                  >
                    {r.state === 'active' ? t('subscription.console.pause') : t('subscription.console.resume')}
                  </Button>
                </Permission>
                <Permission code={SUBSCRIPTION_CODES.remove}>
                  <Popconfirm title={t('subscription.console.deleteConfirm')} onConfirm={() => act(() => deleteSubscription(r.id))}>
                    <Button type="link" danger size="small">
                      {t('subscription.console.delete')}
                    </Button>
                  </Popconfirm>
                </Permission>
              </Space>
            ),
          },
        ]}
      />
      {creating && (
        <CreateDialog
          onClose={() => setCreating(false)}
          onCreated={(c) => {
            setCreating(false);
            setCreated(c);
            reload();
          }}
        />
      )}
      {logOf && <DeliveryLog subscription={logOf} onClose={() => setLogOf(null)} onReplayed={reload} />}
    </Card>
  );
}

function CreateDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (c: CreatedSubscription) => void }) {
  const t = useT();
  const [form] = Form.useForm<NewSubscription>();
  const [busy, setBusy] = useState(false);
  const create = async (values: NewSubscription) => {
    setBusy(true);
    try {
      onCreated(await createSubscription({ ...values, vehicleIds: values.vehicleIds?.length ? values.vehicleIds : null }));
    } catch {
      // shown by the request layer
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={t('subscription.console.create')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={busy}
      destroyOnHidden
    >
      <Form<NewSubscription>
        form={form}
        layout="vertical"
        name="subscription-form"
        onFinish={(v) => void create(v)}
        initialValues={{ eventTypes: ['alarm'] }}
      >
        <Form.Item name="name" label={t('subscription.fields.name')} rules={[{ required: true, max: 64 }]}>
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item
          name="url"
          label={t('subscription.fields.url')}
          rules={[{ required: true, max: 2000 }]}
          extra={t('subscription.console.urlHint')}
        >
          <Input placeholder="https://" />
        </Form.Item>
        <Form.Item name="orgId" label={t('subscription.fields.orgId')}>
          <OrgTreeSelect />
        </Form.Item>
        <Form.Item name="eventTypes" label={t('subscription.fields.eventTypes')} rules={[{ required: true }]}>
          <Checkbox.Group options={EVENT_TYPES.map((e) => ({ value: e, label: t(EVENT_KEY[e]) }))} />
        </Form.Item>
        <Form.Item name="vehicleIds" label={t('subscription.fields.vehicleIds')} extra={t('subscription.console.vehiclesHint')}>
          <RefSelect entity="vehicle" multiple />
        </Form.Item>
        <Form.Item
          name="contactEmail"
          label={t('subscription.fields.contactEmail')}
          extra={t('subscription.console.contactHint')}
          rules={[{ type: 'email', max: 254, message: t('subscription.console.contactInvalid') }]}
        >
          <Input type="email" placeholder="ops@example.com" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function DeliveryLog({ subscription, onClose, onReplayed }: { subscription: Subscription; onClose: () => void; onReplayed: () => void }) {
  const t = useT();
  const { message } = App.useApp();
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ data: Delivery[]; total: number }>({ data: [], total: 0 });
  const [from, setFrom] = useState<Dayjs | null>(null);
  const reload = useCallback(() => {
    queryDeliveries(subscription.id, page, PAGE_SIZE).then(setData, () => undefined);
  }, [subscription.id, page]);
  useEffect(reload, [reload]);

  const replay = async () => {
    if (!from) return;
    try {
      const r = await replaySubscription(subscription.id, from.toISOString());
      void message.success(t('subscription.console.replayed', { n: r.queued }));
      reload();
      onReplayed();
    } catch {
      // shown by the request layer
    }
  };

  return (
    <Drawer open width={1000} title={t('subscription.console.logTitle', { name: subscription.name })} onClose={onClose} destroyOnHidden>
      <Permission code={SUBSCRIPTION_CODES.replay}>
        <Space style={{ marginBottom: 16 }}>
          <DatePicker showTime value={from} onChange={setFrom} placeholder={t('subscription.fields.from')} />
          <Button disabled={!from} onClick={() => void replay()} data-testid="subscription-replay">
            {t('subscription.console.replay')}
          </Button>
        </Space>
      </Permission>
      <Table<Delivery>
        size="small"
        rowKey="id"
        dataSource={data.data}
        scroll={{ x: 'max-content' }}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: data.total, onChange: setPage, showSizeChanger: false }}
        columns={[
          { key: 'eventTime', title: t('subscription.console.eventTime'), render: (_, r) => parseTime(r.eventTime) },
          { key: 'type', title: t('subscription.console.eventType'), render: (_, r) => t(EVENT_KEY[r.eventType]) },
          {
            key: 'key',
            title: t('subscription.console.deliveryKey'),
            render: (_, r) => <Typography.Text code>{r.deliveryKey}</Typography.Text>,
          },
          {
            key: 'status',
            title: t('subscription.console.status'),
            render: (_, r) => <Tag color={STATUS_COLOR[r.status]}>{t(STATUS_KEY[r.status])}</Tag>,
          },
          { key: 'attempts', title: t('subscription.console.attempts'), dataIndex: 'attempts' },
          { key: 'http', title: t('subscription.console.httpStatus'), render: (_, r) => r.httpStatus ?? '' },
          { key: 'latency', title: t('subscription.console.latency'), render: (_, r) => (r.latencyMs === null ? '' : `${r.latencyMs} ms`) },
          { key: 'error', title: t('subscription.console.error'), render: (_, r) => r.error ?? '' },
          { key: 'next', title: t('subscription.console.nextAt'), render: (_, r) => (r.status === 'pending' ? parseTime(r.nextAt) : '') },
        ]}
      />
    </Drawer>
  );
}
