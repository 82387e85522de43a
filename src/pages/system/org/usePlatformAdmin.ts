import { useEffect, useState } from 'react';
import { queryOrgs } from '../../../services/passport';
import { loadSession } from '../../../session/session';

/**
 * Whether the signed-in member administers a system organisation (the platform operator): only
 * they may set an organisation's system flag. Their own organisation is the first of their
 * subtree in path order.
 */
export function usePlatformAdmin(): boolean {
  const [admin, setAdmin] = useState(false);
  useEffect(() => {
    if (loadSession()?.memberType !== 'administrator') return;
    let live = true;
    queryOrgs({ pageIndex: 1, pageSize: 1 })
      .then((page) => live && setAdmin(Boolean(page.data[0]?.isSystem)))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return admin;
}
