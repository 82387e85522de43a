import { history, useIntl } from '@umijs/max';
import { Button, Card, List, Typography } from 'antd';
import { useEffect } from 'react';
import { entityNames } from '../../schemas/generated/registry';
import { clearSession, loadSession } from '../services/session';

/** Landing page until the shell (menus from the server) arrives: who is signed in, what exists. */
export default function Home() {
  const intl = useIntl();
  const session = loadSession();
  useEffect(() => {
    if (!session) history.replace('/login');
  }, [session]);
  if (!session) return null;
  return (
    <div style={{ maxWidth: 720, margin: '48px auto' }}>
      <Card
        title={intl.formatMessage({ id: 'console.home.welcome' }, { name: session.name })}
        extra={
          <Button
            onClick={() => {
              clearSession();
              history.replace('/login');
            }}
          >
            {intl.formatMessage({ id: 'console.home.logout' })}
          </Button>
        }
      >
        <Typography.Title level={5}>{intl.formatMessage({ id: 'console.home.entities' })}</Typography.Title>
        <List dataSource={[...entityNames]} renderItem={(n) => <List.Item>{intl.formatMessage({ id: `entity.${n}.title` })}</List.Item>} />
      </Card>
    </div>
  );
}
