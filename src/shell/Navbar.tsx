import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Breadcrumb, Button, Space } from 'antd';
import HeaderSearch from './HeaderSearch';
import type { MenuRoute } from '../session/navigation';
import { FullscreenToggle, LanguageMenu, SizeMenu } from './SettingsMenus';
import ThemePicker from './ThemePicker';
import UserMenu from './UserMenu';
import { useT } from '../session/useT';

export interface NavbarProps {
  routes: readonly MenuRoute[];
  current: MenuRoute | null;
  sidebarOpen: boolean;
  onToggleSidebar: () => void;
  mobile: boolean;
}

/** Top bar: sidebar toggle, breadcrumb, search, fullscreen, size, language, theme, user menu. */
export default function Navbar({ routes, current, sidebarOpen, onToggleSidebar, mobile }: NavbarProps) {
  const t = useT();
  return (
    <div className="fs-navbar">
      <Space size={4}>
        <Button
          type="text"
          aria-label={t('console.navbar.toggleSidebar')}
          icon={sidebarOpen ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
          onClick={onToggleSidebar}
          data-testid="sidebar-toggle"
        />
        {!mobile && current && <Breadcrumb items={current.breadcrumb.map((title) => ({ title }))} />}
      </Space>
      <Space size={4} wrap={false}>
        {!mobile && <HeaderSearch routes={routes} />}
        {!mobile && <FullscreenToggle />}
        <SizeMenu />
        <LanguageMenu />
        <ThemePicker />
        <UserMenu />
      </Space>
    </div>
  );
}
