import { Navigate, Outlet, useLocation, useNavigate } from '@umijs/max';
import { App, ConfigProvider, Spin } from 'antd';
import { useEffect } from 'react';
import { serverMessage } from '../services/http/failure';
import { feedback } from '../services/http/feedback';
import { loadSession } from '../services/session';
import FeedbackBridge from './FeedbackBridge';
import { decide } from './guard';
import { forgetSession } from './logout';
import { loadNavigation, useNavigationState } from './navigationStore';
import { hasPendingLogin } from './pendingLogin';
import { antdSize, PICKER_DEFAULT_COLOR, useSettings } from './settings';
import { LOGIN_THEME_COLOR, themeFor } from './theme';
import { useT } from './useT';

/**
 * The root of every route: theme, size and feedback providers, and the route guard of SPEC.md §2
 * (public paths, token, menus fetched before any menu route renders).
 */
export default function Root() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const t = useT();
  const settings = useSettings();
  const navState = useNavigationState();
  const session = loadSession();
  const decision = decide({ path: pathname, hasToken: Boolean(session?.token), menusReady: navState.status === 'ready', autoLoginPending: hasPendingLogin() });

  useEffect(() => {
    if (decision.kind !== 'loadMenus' || navState.status === 'loading') return;
    loadNavigation().catch((e: unknown) => {
      // SPEC.md §2: a menu that cannot be loaded logs the user out with a message.
      const data = (e as { response?: { data?: unknown } }).response?.data;
      void feedback().message.error(serverMessage(data) ?? t('console.menu.loadFailed'), 5);
      forgetSession();
      navigate('/login', { replace: true });
    });
  }, [decision.kind, navState.status, navigate, t]);

  useEffect(() => {
    document.title = session?.title || t('app.title');
  }, [session?.title, t]);

  let content;
  if (decision.kind === 'toLogin') content = <Navigate to={decision.redirect ? `/login?redirect=${encodeURIComponent(decision.redirect + search)}` : '/login'} replace />;
  else if (decision.kind === 'toHome') content = <Navigate to="/" replace />;
  else if (decision.kind === 'loadMenus') content = <Spin fullscreen />;
  else content = <Outlet />;

  return (
    <ConfigProvider theme={themeFor(settings.themeColor ?? PICKER_DEFAULT_COLOR, session?.themeColor || LOGIN_THEME_COLOR)} componentSize={antdSize(settings.size)}>
      <App>
        <FeedbackBridge />
        {content}
      </App>
    </ConfigProvider>
  );
}
