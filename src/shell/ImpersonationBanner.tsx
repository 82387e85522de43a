import { Alert, Button } from 'antd';
import { useState } from 'react';
import { isImpersonating, loadOrigin, loadSession } from '../session/session';
import { endImpersonation } from '../session/logout';
import { useT } from '../session/useT';

/**
 * While an administrator acts as another account, a banner across the top says whose menus and data
 * these are and who is really signed in, with the way back to one's own account (and page).
 */
export default function ImpersonationBanner() {
  const t = useT();
  const [leaving, setLeaving] = useState(false);
  const session = loadSession();
  const origin = loadOrigin();
  if (!isImpersonating() || !session || !origin) return null;
  return (
    <Alert
      banner
      type="warning"
      data-testid="impersonation-banner"
      message={t('console.impersonation.banner', { name: session.name, loginName: session.loginName, origin: origin.name })}
      action={
        <Button
          size="small"
          type="primary"
          loading={leaving}
          data-testid="impersonation-return"
          onClick={() => {
            setLeaving(true);
            endImpersonation(t('console.impersonation.exitSuccess')).catch(() => setLeaving(false)); // the request layer showed why
          }}
        >
          {t('console.impersonation.return')}
        </Button>
      }
    />
  );
}
