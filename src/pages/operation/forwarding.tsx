import { Button, Card, Form, Popconfirm, Space, Table, Tag, Typography, type FormInstance } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { schemaEntities } from '../../../schemas/generated/registry';
import EntityForm from '../../components/schema/EntityForm';
import type { FormExtensions, Row } from '../../components/schema/pageContract';
import Permission from '../../session/Permission';
import { useT } from '../../session/useT';
import {
  deleteForwardLink,
  FORWARD_LINK_CODES,
  getForwardLink,
  listForwardingLinks,
  SENT_KINDS,
  setForwardLinkEnabled,
  type ForwardingLink,
  type LinkState,
  type SubLinkState,
} from '../../services/forwarding';

const STATE_COLOR: Record<LinkState, string> = {
  up: 'green',
  connecting: 'orange',
  loggingIn: 'orange',
  down: 'red',
  off: 'default',
  stopped: 'default',
};
const SUB_COLOR: Record<SubLinkState, string> = { up: 'green', waiting: 'orange', none: 'default' };
/** The page reads the links again this often while it is open. */
const REFRESH_MS = 10_000;

/** The JT/T 809 settings: hidden from a raw JT/T 808 link's form. */
const JT809_FIELDS = [
  'edition',
  'accessCode',
  'userId',
  'password',
  'version',
  'm1',
  'ia1',
  'ic1',
  'encryptKey',
  'downLinkIp',
  'downLinkPort',
];

const useHidden = (_mode: 'create' | 'update', row: Row | undefined, form: FormInstance): readonly string[] => {
  const protocol: unknown = Form.useWatch('protocol', form) ?? row?.protocol;
  return protocol === 'jt808' ? JT809_FIELDS : [];
};
const formExtensions: FormExtensions = { useHidden, help: { password: 'forwarding.console.passwordKept' } };

/**
 * Forwarding links: each link's state, sub link, backlog and counters, as the server runs them; and
 * behind their codes, adding, editing (the schema's form), enabling, disabling and deleting a link,
 * which the server runs or stops at once.
 */
export default function ForwardingPage() {
  const t = useT();
  const [rows, setRows] = useState<ForwardingLink[]>([]);
  const [editing, setEditing] = useState<{ row?: Row } | null>(null);
  const reload = useCallback(() => {
    listForwardingLinks().then(setRows, () => undefined); // failures are shown by the request layer
  }, []);
  const act = async (run: () => Promise<unknown>) => {
    try {
      await run();
      reload();
    } catch {
      // shown by the request layer
    }
  };
  const edit = (id: number) => act(async () => setEditing({ row: await getForwardLink(id) }));
  useEffect(() => {
    reload();
    const timer = setInterval(reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);

  return (
    <Card
      title={t('forwarding.console.title')}
      data-testid="forwarding-page"
      extra={
        <Space>
          <Permission code={FORWARD_LINK_CODES.add}>
            <Button type="primary" onClick={() => setEditing({})} data-testid="forwarding-new">
              {t('forwarding.console.create')}
            </Button>
          </Permission>
          <Button onClick={reload} data-testid="forwarding-refresh">
            {t('forwarding.console.refresh')}
          </Button>
        </Space>
      }
    >
      <Table<ForwardingLink>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={rows}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('forwarding.console.empty') }}
        columns={[
          { key: 'name', title: t('forwarding.console.name'), dataIndex: 'name' },
          { key: 'org', title: t('forwarding.console.org'), dataIndex: 'orgName' },
          { key: 'protocol', title: t('forwarding.console.protocol'), render: (_, r) => t(`forwarding.console.protocols.${r.protocol}`) },
          {
            key: 'target',
            title: t('forwarding.console.target'),
            render: (_, r) => <Typography.Text code>{`${r.host}:${r.port}`}</Typography.Text>,
          },
          {
            key: 'state',
            title: t('forwarding.console.state'),
            render: (_, r) => (
              <Tag color={STATE_COLOR[r.state]} data-testid="forwarding-state">
                {t(`forwarding.console.states.${r.state}`)}
              </Tag>
            ),
          },
          {
            key: 'subLink',
            title: t('forwarding.console.subLink'),
            render: (_, r) =>
              r.protocol === 'jt809' ? <Tag color={SUB_COLOR[r.subLink]}>{t(`forwarding.console.subLinks.${r.subLink}`)}</Tag> : '—',
          },
          { key: 'backlog', title: t('forwarding.console.backlog'), render: (_, r) => `${r.backlog} / ${r.backlogLimit}` },
          {
            key: 'sent',
            title: t('forwarding.console.sent'),
            render: (_, r) =>
              SENT_KINDS.filter((k) => r.sent[k]).map((k) => (
                <Tag key={k}>
                  {t(`forwarding.console.kinds.${k}`)} {r.sent[k]}
                </Tag>
              )),
          },
          { key: 'dropped', title: t('forwarding.console.dropped'), dataIndex: 'dropped' },
          { key: 'connects', title: t('forwarding.console.connects'), dataIndex: 'connects' },
          { key: 'loginFailures', title: t('forwarding.console.loginFailures'), dataIndex: 'loginFailures' },
          {
            key: 'lastError',
            title: t('forwarding.console.lastError'),
            render: (_, r) => (r.lastError ? <Typography.Text type="danger">{r.lastError}</Typography.Text> : '—'),
          },
          {
            key: 'actions',
            title: t('forwarding.console.actions'),
            fixed: 'right',
            render: (_, r) => (
              <Space size={0}>
                <Permission code={FORWARD_LINK_CODES.edit}>
                  <Button type="link" size="small" onClick={() => void edit(r.id)} data-testid="forwarding-edit">
                    {t('forwarding.console.edit')}
                  </Button>
                  <Button type="link" size="small" onClick={() => void act(() => setForwardLinkEnabled(r.id, !r.enabled))}>
                    {r.enabled ? t('forwarding.console.disable') : t('forwarding.console.enable')}
                  </Button>
                </Permission>
                <Permission code={FORWARD_LINK_CODES.remove}>
                  <Popconfirm
                    title={t('forwarding.console.deleteConfirm', { name: r.name })}
                    onConfirm={() => act(() => deleteForwardLink(r.id))}
                  >
                    <Button type="link" danger size="small">
                      {t('forwarding.console.remove')}
                    </Button>
                  </Popconfirm>
                </Permission>
              </Space>
            ),
          },
        ]}
      />
      {editing && (
        <EntityForm
          entity="forwardLink"
          schema={schemaEntities.forwardLink}
          row={editing.row}
          extensions={formExtensions}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            reload();
          }}
        />
      )}
    </Card>
  );
}
