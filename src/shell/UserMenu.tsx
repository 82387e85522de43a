import { DownOutlined } from '@ant-design/icons';
import { useNavigate } from '@umijs/max';
import { Dropdown, Space, Tag } from 'antd';
import { isImpersonating, loadSession } from '../session/session';
import { endImpersonation, signOut } from '../session/logout';
import { openPasswordDialog } from '../session/passwordDialogStore';
import { useT } from '../session/useT';

/** The user-name tag and its menu: dashboard, change password, log out (or end a simulated login, which the shell's banner also offers). */
export default function UserMenu() {
  const t = useT();
  const navigate = useNavigate();
  const session = loadSession();
  const simulating = isImpersonating();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          { key: 'dashboard', label: t('console.navbar.dashboard') },
          { key: 'password', label: t('console.navbar.changePassword') },
          { type: 'divider' },
          { key: 'logout', label: t(simulating ? 'console.navbar.simulateLogout' : 'console.navbar.logout') },
        ],
        onClick: ({ key }) => {
          if (key === 'dashboard') navigate('/');
          else if (key === 'password') openPasswordDialog();
          else if (simulating) void endImpersonation(t('console.impersonation.exitSuccess'));
          else void signOut();
        },
      }}
    >
      <Space style={{ cursor: 'pointer' }} data-testid="user-menu">
        <Tag color="processing" style={{ marginInlineEnd: 0 }}>
          {session?.name}
        </Tag>
        <DownOutlined style={{ fontSize: 10 }} />
      </Space>
    </Dropdown>
  );
}
