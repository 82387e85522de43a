import { useEffect, useMemo, useState } from 'react';
import { feedback } from '../../services/http/feedback';
import { allRoles, type Application, type Role } from '../../services/passport';
import { useT } from '../../session/useT';
import { APPLICATION_KEYS } from './labels';

export interface RoleOptionGroup {
  label: string;
  options: Array<{ value: number; label: string }>;
}

/** Grouped select options: one group per application, each role named with its organisation. */
export function roleOptionGroups(byApp: ReadonlyArray<[string, readonly Role[]]>, nameOf: (r: Role) => string): RoleOptionGroup[] {
  return byApp
    .filter(([, roles]) => roles.length)
    .map(([label, roles]) => ({ label, options: roles.map((r) => ({ value: r.id, label: nameOf(r) })) }));
}

/**
 * The roles the caller can see in each application, for the accounts' role selects; with
 * `orgLineage` only roles of those organisations (an account's own and those above it: the server
 * refuses any other).
 */
export function useRoleOptions(applications: readonly Application[], orgLineage?: readonly number[]): RoleOptionGroup[] {
  const t = useT();
  const [byApp, setByApp] = useState<Array<[string, Role[]]>>([]);
  const key = applications.join(',');
  useEffect(() => {
    let live = true;
    const apps = key.split(',') as Application[];
    Promise.all(apps.map(async (a) => [t(APPLICATION_KEYS[a]), await allRoles(a)] as [string, Role[]]))
      .then((loaded) => live && setByApp(loaded))
      .catch(() => live && void feedback().message.error(t('console.system.messages.roleListFailed'), 5));
    return () => {
      live = false;
    };
  }, [key, t]);
  const lineage = orgLineage?.join(',');
  return useMemo(() => {
    const allowed = lineage === undefined ? null : new Set(lineage.split(',').map(Number));
    const shown = byApp.map(([label, roles]) => [label, allowed ? roles.filter((r) => allowed.has(r.orgId)) : roles] as [string, Role[]]);
    return roleOptionGroups(shown, (r) => t('console.system.role.withOrg', { name: r.name, org: r.orgName }));
  }, [byApp, lineage, t]);
}
