import { Navigate, Outlet, useIntl, useLocation, useNavigate } from '@umijs/max';
import { App, ConfigProvider, Spin } from 'antd';
import { useEffect } from 'react';
import { serverMessage } from '../services/http/failure';
import { feedback } from '../services/http/feedback';
import { loadSession } from '../session/session';
import { ANTD_LOCALES } from './antdLocales';
import FeedbackBridge from './FeedbackBridge';
import { decide } from '../session/guard';
import { forgetSession } from '../session/logout';
import { loadNavigation, useNavigationState } from '../session/navigationStore';
import { hasPendingLogin } from '../session/pendingLogin';
import { antdSize, PICKER_DEFAULT_COLOR, useSettings } from './settings';
import { LOGIN_THEME_COLOR, themeFor } from '../session/theme';
import { useT } from '../session/useT';
import { loadCatalogue } from '../session/catalogue';
import { DEFAULT_LANGUAGE, matchLanguage } from '../../schemas/kit/i18n';

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
  const lang = matchLanguage(useIntl().locale) ?? DEFAULT_LANGUAGE;

  // The words in use: the server's catalogue with the published overrides, per language shown.
  useEffect(() => {
    void loadCatalogue(lang);
  }, [lang]);
  const decision = decide({
    path: pathname,
    hasToken: Boolean(session?.token),
    menusReady: navState.status === 'ready',
    autoLoginPending: hasPendingLogin(),
  });

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

  // Signed in, the shell names the page in the title; before that, the product's name.
  const signedIn = Boolean(session?.token);
  useEffect(() => {
    if (!signedIn) document.title = session?.title || t('app.title');
  }, [signedIn, session?.title, t]);

  let content;
  if (decision.kind === 'toLogin')
    content = <Navigate to={decision.redirect ? `/login?redirect=${encodeURIComponent(decision.redirect + search)}` : '/login'} replace />;
  else if (decision.kind === 'toHome') content = <Navigate to="/" replace />;
  else if (decision.kind === 'loadMenus') content = <Spin fullscreen />;
  else content = <Outlet />;

  return (
    <ConfigProvider
      locale={ANTD_LOCALES[lang]}
      theme={themeFor(settings.themeColor ?? PICKER_DEFAULT_COLOR, session?.themeColor || LOGIN_THEME_COLOR)}
      componentSize={antdSize(settings.size)}
    >
      <App>
        <FeedbackBridge />
        {content}
      </App>
    </ConfigProvider>
  );
}
