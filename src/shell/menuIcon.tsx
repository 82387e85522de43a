import {
  AlertOutlined,
  ApiOutlined,
  AppstoreOutlined,
  AreaChartOutlined,
  BarChartOutlined,
  BellOutlined,
  CalendarOutlined,
  CarOutlined,
  ClusterOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  DollarOutlined,
  EnvironmentOutlined,
  FileTextOutlined,
  FireOutlined,
  FundOutlined,
  GatewayOutlined,
  HeartOutlined,
  HistoryOutlined,
  HomeOutlined,
  IdcardOutlined,
  LineChartOutlined,
  MenuOutlined,
  MessageOutlined,
  MobileOutlined,
  MonitorOutlined,
  NodeIndexOutlined,
  NotificationOutlined,
  PieChartOutlined,
  SafetyOutlined,
  ScheduleOutlined,
  SettingOutlined,
  ShopOutlined,
  TagsOutlined,
  TeamOutlined,
  ToolOutlined,
  UserOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { lazy, Suspense, type ComponentType } from 'react';

/**
 * Menu icons by antd icon name. The common ones are bundled with the shell; any other name loads
 * the full icon set (a separate chunk served by us, never a CDN) the first time it is needed.
 */
const BUNDLED: Record<string, ComponentType> = {
  AlertOutlined,
  ApiOutlined,
  AppstoreOutlined,
  AreaChartOutlined,
  BarChartOutlined,
  BellOutlined,
  CalendarOutlined,
  CarOutlined,
  ClusterOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  DollarOutlined,
  EnvironmentOutlined,
  FileTextOutlined,
  FireOutlined,
  FundOutlined,
  GatewayOutlined,
  HeartOutlined,
  HistoryOutlined,
  HomeOutlined,
  IdcardOutlined,
  LineChartOutlined,
  MenuOutlined,
  MessageOutlined,
  MobileOutlined,
  MonitorOutlined,
  NodeIndexOutlined,
  NotificationOutlined,
  PieChartOutlined,
  SafetyOutlined,
  ScheduleOutlined,
  SettingOutlined,
  ShopOutlined,
  TagsOutlined,
  TeamOutlined,
  ToolOutlined,
  UserOutlined,
  WarningOutlined,
};

const loaded = new Map<string, ComponentType>();

function lazyIcon(name: string): ComponentType {
  let C = loaded.get(name);
  if (!C) {
    C = lazy(async () => {
      const all = (await import('@ant-design/icons')) as unknown as Record<string, ComponentType | undefined>;
      return { default: /^[A-Z]\w+(Outlined|Filled|TwoTone)$/.test(name) && all[name] ? all[name]! : AppstoreOutlined };
    });
    loaded.set(name, C);
  }
  return C;
}

export default function MenuIcon({ name }: { name: string | null }) {
  if (!name) return null;
  const Bundled = BUNDLED[name];
  if (Bundled) return <Bundled />;
  const Lazy = lazyIcon(name);
  return (
    <Suspense fallback={<AppstoreOutlined />}>
      <Lazy />
    </Suspense>
  );
}
