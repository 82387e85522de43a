import { useEffect, useState } from 'react';
import { feedback } from '../../services/http/feedback';
import { memberApplications, type Application } from '../../services/passport';
import { useT } from '../../session/useT';

/** The applications the caller may open for accounts, named by the server in the caller's language. */
export function useApplications(): Array<{ value: Application; label: string }> {
  const t = useT();
  const [apps, setApps] = useState<Array<{ value: Application; label: string }>>([]);
  useEffect(() => {
    let live = true;
    memberApplications()
      .then((list) => live && setApps(list.map((a) => ({ value: a.code, label: a.name }))))
      .catch(() => live && void feedback().message.error(t('console.system.messages.applicationsFailed'), 5));
    return () => {
      live = false;
    };
  }, [t]);
  return apps;
}
