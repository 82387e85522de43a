import { useNavigate } from '@umijs/max';
import { Menu, type MenuProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import MenuIcon from './menuIcon';
import type { MenuNode } from '../session/navigation';
import { isDark } from '../session/theme';

type Item = Required<MenuProps>['items'][number];

const toItems = (nodes: readonly MenuNode[]): Item[] =>
  nodes.map((n) => ({
    key: n.path,
    icon: <MenuIcon name={n.icon} />,
    label: n.title,
    ...(n.children ? { children: toItems(n.children) } : {}),
  }));

/** Keys of the menus enclosing `path` (to open them). */
function ancestors(nodes: readonly MenuNode[], path: string, trail: string[] = []): string[] | null {
  for (const n of nodes) {
    if (n.path === path) return trail;
    const found = n.children ? ancestors(n.children, path, [...trail, n.path]) : null;
    if (found) return found;
  }
  return null;
}

export interface SidebarProps {
  menus: readonly MenuNode[];
  /** The highlighted entry (the route's activeMenu, else its path). */
  selected: string;
  collapsed: boolean;
  frameColor: string;
  title: string;
  logo: string;
  onNavigate?: () => void;
}

/** Logo, title and the menu tree from the server. */
export default function Sidebar({ menus, selected, collapsed, frameColor, title, logo, onNavigate }: SidebarProps) {
  const navigate = useNavigate();
  const items = useMemo(() => toItems(menus), [menus]);
  const [openKeys, setOpenKeys] = useState<string[]>([]);
  // Opening the way to the selected entry, keeping what the user opened.
  useEffect(() => setOpenKeys((keys) => [...new Set([...keys, ...(ancestors(menus, selected) ?? [])])]), [menus, selected]);
  const dark = isDark(frameColor);
  return (
    <div className="fs-sidebar">
      <div className="fs-sidebar-logo" style={{ color: dark ? '#fff' : 'rgba(0,0,0,0.88)' }}>
        <img src={logo} alt="" width={28} height={28} />
        {!collapsed && <span>{title}</span>}
      </div>
      <Menu
        mode="inline"
        theme={dark ? 'dark' : 'light'}
        items={items}
        selectedKeys={[selected]}
        {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
        onClick={({ key }) => {
          navigate(key);
          onNavigate?.();
        }}
        data-testid="sidebar-menu"
      />
    </div>
  );
}
