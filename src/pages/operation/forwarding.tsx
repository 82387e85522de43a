import { Button, Card, Table, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useT } from '../../session/useT';
import { listForwardingLinks, SENT_KINDS, type ForwardingLink, type LinkState, type SubLinkState } from '../../services/forwarding';

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

/** Forwarding links: each link's state, sub link, backlog and counters, as the server runs them. */
export default function ForwardingPage() {
  const t = useT();
  const [rows, setRows] = useState<ForwardingLink[]>([]);
  const reload = useCallback(() => {
    listForwardingLinks().then(setRows, () => undefined); // failures are shown by the request layer
  }, []);
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
        <Button onClick={reload} data-testid="forwarding-refresh">
          {t('forwarding.console.refresh')}
        </Button>
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
        ]}
      />
    </Card>
  );
}
