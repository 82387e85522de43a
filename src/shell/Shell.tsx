import { Navigate, useLocation, useNavigate } from '@umijs/max';
import { Drawer, Layout, Result } from 'antd';
import { useEffect, useState } from 'react';
import ChangePasswordDialog from '../components/password/ChangePasswordDialog';
import { loadSession } from '../session/session';
import { useIsMobile } from './device';
import { detailRoute, resolvePath, type MenuRoute, type Navigation } from '../session/navigation';
import { useVehicleLicences } from '../session/vehicleLabels';
import { useMenuNavigation } from './useMenuNavigation';
import ImpersonationBanner from './ImpersonationBanner';
import Navbar from './Navbar';
import { openPasswordDialog } from '../session/passwordDialogStore';
import { updateSettings, useSettings } from './settings';
import './shell.css';
import Sidebar from './Sidebar';
import TagsView from './TagsView';
import { LOGIN_THEME_COLOR } from '../session/theme';
import { useT } from '../session/useT';
import ViewHost from './ViewHost';
import { addView, initViews, useViews, viewsStore } from './visitedViews';

export const SIDEBAR_WIDTH = 210;
const COLLAPSED_WIDTH = 54;
const REDIRECT_PREFIX = '/redirect';

/** Where the path leads inside the shell: the special /403 and /redirect pages or a menu route. */
function useShellTarget(pathname: string, detailTitle: (id: number) => string) {
  const nav = useMenuNavigation();
  if (!nav) return { nav: null, kind: 'none' as const };
  if (pathname === '/403') return { nav, kind: 'forbidden' as const };
  if (pathname.startsWith(REDIRECT_PREFIX + '/')) return { nav, kind: 'redirect' as const, to: pathname.slice(REDIRECT_PREFIX.length) };
  return { nav, kind: 'resolved' as const, resolution: resolvePath(nav, pathname, detailTitle) };
}

/** The menu's routes and the open detail tabs (not in the menu, kept alive like the others). */
function withDetailViews(nav: Navigation, views: readonly { path: string }[], detailTitle: (id: number) => string): MenuRoute[] {
  const details = views.flatMap((v) => detailRoute(nav, v.path, detailTitle) ?? []);
  return details.length ? [...nav.routes, ...details] : nav.routes;
}

/** The signed-in console: sidebar, navbar, tag tabs and the kept-alive pages of menu routes. */
export default function Shell() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const t = useT();
  const mobile = useIsMobile();
  const { sidebarOpened } = useSettings();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const session = loadSession();
  const licences = useVehicleLicences();
  const detailTitle = (id: number) => licences[id] ?? t('console.vehicleDetail.tabTitle', { id });
  const target = useShellTarget(pathname, detailTitle);
  const { views } = useViews();
  const current: MenuRoute | null = target.kind === 'resolved' && target.resolution.kind === 'route' ? target.resolution.route : null;

  // Affix tabs first, once per menu.
  const routes = target.nav?.routes;
  useEffect(() => {
    if (routes) viewsStore.set((s) => (s.views.length ? s : initViews(routes)));
  }, [routes]);
  useEffect(() => {
    if (current) viewsStore.set((s) => addView(s, current));
  }, [current]);
  // The browser tab names the page: "车辆管理 - 车管星".
  const appTitle = session?.title || t('app.title');
  const pageTitle = current?.title;
  useEffect(() => {
    document.title = pageTitle ? `${pageTitle} - ${appTitle}` : appTitle;
  }, [pageTitle, appTitle]);
  // SPEC.md §4: the first-sign flag forces the change-password dialog.
  useEffect(() => {
    if (session?.firstSign) openPasswordDialog(true);
  }, [session?.firstSign]);
  const redirectTo = target.kind === 'redirect' ? target.to : undefined;
  useEffect(() => {
    if (redirectTo !== undefined) navigate(redirectTo + search, { replace: true });
  }, [redirectTo, search, navigate]);

  if (!session) return <Navigate to="/404" replace />;
  if (!target.nav) return null;
  if (target.kind === 'resolved') {
    const r = target.resolution;
    if (r.kind === 'redirect') return <Navigate to={r.to} replace />;
    // A member without any page still gets the shell at / (e.g. for the forced first-sign change).
    if (r.kind === 'notFound' && pathname !== '/') return <Navigate to="/404" replace />;
  }

  const nav = target.nav;
  // A detail tab's title follows its vehicle's licence once the page has loaded it.
  const viewRoutes = withDetailViews(nav, views, detailTitle);
  const frame = session.themeColor || LOGIN_THEME_COLOR;
  const sidebar = (collapsed: boolean) => (
    <Sidebar
      menus={nav.menus}
      selected={current?.activeMenu ?? current?.path ?? ''}
      collapsed={collapsed}
      frameColor={frame}
      title={session.title || t('app.title')}
      logo={session.logo || '/favicon.svg'}
      onNavigate={mobile ? () => setDrawerOpen(false) : undefined}
    />
  );

  return (
    <Layout className="fs-shell" style={{ minHeight: '100vh' }}>
      {mobile ? (
        <Drawer
          placement="left"
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          width={SIDEBAR_WIDTH}
          closable={false}
          styles={{ body: { padding: 0, background: frame } }}
        >
          {sidebar(false)}
        </Drawer>
      ) : (
        <Layout.Sider width={SIDEBAR_WIDTH} collapsedWidth={COLLAPSED_WIDTH} collapsed={!sidebarOpened} trigger={null} className="fs-sider">
          {sidebar(!sidebarOpened)}
        </Layout.Sider>
      )}
      <Layout>
        <ImpersonationBanner />
        <Layout.Header className="fs-header">
          <Navbar
            routes={nav.routes}
            current={current}
            mobile={mobile}
            sidebarOpen={mobile ? drawerOpen : sidebarOpened}
            onToggleSidebar={() => (mobile ? setDrawerOpen(!drawerOpen) : updateSettings({ sidebarOpened: !sidebarOpened }))}
          />
        </Layout.Header>
        <TagsView
          activePath={current?.path ?? null}
          defaultPath={nav.defaultPath ?? '/'}
          titleOf={(path) => viewRoutes.find((r) => r.path === path)?.title}
        />
        <Layout.Content className="fs-content">
          {target.kind === 'forbidden' && <Result status="403" title="403" subTitle={t('console.forbidden')} />}
          <ViewHost active={current} routes={viewRoutes} />
        </Layout.Content>
      </Layout>
      <ChangePasswordDialog />
    </Layout>
  );
}
