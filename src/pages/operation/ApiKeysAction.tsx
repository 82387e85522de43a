import { App, Button, Drawer, Form, Input, InputNumber, Popconfirm, Select, Space, Table, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import OrgTreeSelect from '../../components/schema/OrgTreeSelect';
import type { Row } from '../../components/schema/pageContract';
import Permission from '../../session/Permission';
import { useT } from '../../session/useT';
import { parseTime } from '../../utils/formatTime';
import SecretShownOnce from '../../components/secret/SecretShownOnce';
import {
  API_KEY_CODE,
  createApiKey,
  grantableCodes,
  listApiKeys,
  revokeApiKey,
  setApiKeyEnabled,
  VALIDITY_DAYS,
  type ApiKey,
  type ApiKeyStatus,
  type CreatedApiKey,
  type NewApiKey,
} from '../../services/apiKeys';

const STATUS_COLOR: Record<ApiKeyStatus, string> = { active: 'green', disabled: 'orange', expired: 'default', revoked: 'red' };
const STATUS_KEY: Record<ApiKeyStatus, string> = {
  active: 'apiKey.console.statuses.active',
  disabled: 'apiKey.console.statuses.disabled',
  expired: 'apiKey.console.statuses.expired',
  revoked: 'apiKey.console.statuses.revoked',
};

/** The "keys" row action of an API user: a drawer listing its keys, creating one (shown once) and revoking. */
export default function ApiKeysAction({ row }: { row: Row }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <Permission code={API_KEY_CODE}>
      <a onClick={() => setOpen(true)} data-testid="api-keys">
        {t('apiKey.console.keys')}
      </a>
      {open && <KeysDrawer apiUserId={row.id} name={String(row.name ?? '')} onClose={() => setOpen(false)} />}
    </Permission>
  );
}

function KeysDrawer({ apiUserId, name, onClose }: { apiUserId: number; name: string; onClose: () => void }) {
  const t = useT();
  const { message } = App.useApp();
  const [form] = Form.useForm<NewApiKey>();
  const [keys, setKeys] = useState<ApiKey[]>([]);
  const [codes, setCodes] = useState<Array<{ code: string; name: string }>>([]);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [busy, setBusy] = useState(false);

  const reload = useCallback(() => {
    listApiKeys(apiUserId).then(setKeys, () => undefined); // failures are shown by the request layer
  }, [apiUserId]);
  useEffect(reload, [reload]);
  useEffect(() => {
    grantableCodes().then(setCodes, () => undefined);
  }, []);

  const create = async (values: NewApiKey) => {
    setBusy(true);
    try {
      setCreated(await createApiKey(apiUserId, values));
      void message.success(t('apiKey.console.created'));
      form.resetFields();
      reload();
    } catch {
      // shown by the request layer (SPEC.md §8)
    } finally {
      setBusy(false);
    }
  };
  const act = async (run: () => Promise<unknown>) => {
    try {
      await run();
      reload();
    } catch {
      // shown by the request layer
    }
  };

  return (
    <Drawer open title={t('apiKey.console.title', { name })} onClose={onClose} width={960} destroyOnHidden>
      {created && (
        <SecretShownOnce
          secret={created.key}
          notice={t('apiKey.console.shownOnce')}
          testId="api-key-created"
          secretTestId="api-key-secret"
          onDone={() => setCreated(null)}
        />
      )}
      <Form<NewApiKey>
        form={form}
        name="api-key-form"
        layout="inline"
        onFinish={(v) => void create(v)}
        initialValues={{ days: 365 }}
        style={{ rowGap: 8 }}
      >
        <Form.Item name="name" label={t('apiKey.fields.name')} rules={[{ required: true, max: 64 }]}>
          <Input style={{ width: 160 }} maxLength={64} />
        </Form.Item>
        <Form.Item name="orgId" label={t('apiKey.fields.orgId')}>
          <OrgTreeSelect style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="days" label={t('apiKey.fields.days')} rules={[{ required: true }]}>
          <Select style={{ width: 100 }} options={VALIDITY_DAYS.map((d) => ({ value: d, label: String(d) }))} />
        </Form.Item>
        <Form.Item name="rateLimit" label={t('apiKey.fields.rateLimit')}>
          <InputNumber min={1} max={100000} precision={0} placeholder={t('apiKey.console.defaultRate')} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item
          name="codes"
          label={t('apiKey.fields.codes')}
          extra={t('apiKey.console.codesHint')}
          rules={[{ required: true }]}
          style={{ width: '100%' }}
        >
          <Select
            mode="multiple"
            allowClear
            optionFilterProp="label"
            options={codes.map((c) => ({ value: c.code, label: `${c.name} (${c.code})` }))}
            data-testid="api-key-codes"
          />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="api-key-create">
            {t('apiKey.console.create')}
          </Button>
        </Form.Item>
      </Form>
      <Table<ApiKey>
        style={{ marginTop: 16 }}
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={keys}
        scroll={{ x: 'max-content' }}
        columns={[
          { key: 'name', title: t('apiKey.fields.name'), dataIndex: 'name' },
          { key: 'prefix', title: t('apiKey.console.prefix'), render: (_, r) => <Typography.Text code>{r.prefix}</Typography.Text> },
          {
            key: 'status',
            title: t('apiKey.console.status'),
            render: (_, r) => <Tag color={STATUS_COLOR[r.status]}>{t(STATUS_KEY[r.status])}</Tag>,
          },
          { key: 'org', title: t('apiKey.fields.orgId'), dataIndex: 'orgName' },
          { key: 'codes', title: t('apiKey.fields.codes'), render: (_, r) => r.codes.length },
          { key: 'rate', title: t('apiKey.fields.rateLimit'), render: (_, r) => r.rateLimit ?? t('apiKey.console.defaultRate') },
          { key: 'expiresAt', title: t('apiKey.console.expiresAt'), render: (_, r) => parseTime(r.expiresAt) },
          { key: 'useCount', title: t('apiKey.console.useCount'), dataIndex: 'useCount' },
          {
            key: 'lastUse',
            title: t('apiKey.console.lastUse'),
            render: (_, r) => (r.lastUsedAt ? `${parseTime(r.lastUsedAt)} ${r.lastUsedIp ?? ''}` : t('apiKey.console.never')),
          },
          { key: 'createdBy', title: t('apiKey.console.createdBy'), dataIndex: 'createdBy' },
          {
            key: 'actions',
            render: (_, r) =>
              r.status !== 'revoked' && (
                <Space size={0}>
                  <Button type="link" size="small" onClick={() => void act(() => setApiKeyEnabled(r.id, !r.enabled))}>
                    {r.enabled ? t('apiKey.console.disable') : t('apiKey.console.enable')}
                  </Button>
                  <Popconfirm title={t('apiKey.console.revokeConfirm')} onConfirm={() => act(() => revokeApiKey(r.id))}>
                    <Button type="link" danger size="small">
                      {t('apiKey.console.revoke')}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
          },
        ]}
      />
    </Drawer>
  );
}
