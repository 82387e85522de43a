import { DEFAULT_LANGUAGE } from '../../schemas/kit/i18n';
import { authorizedResources, type ResourceItem } from '../services/passport';
import { ensureCatalogue } from './bundledCatalogue';
import { buildNavigation, type Navigation } from './navigation';
import { isGranted, type PermissionRequirement } from './permissionRule';
import { createStore, useStore } from './store';

export type NavigationState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; tree: ResourceItem[]; nav: Navigation }
  | { status: 'failed'; error: unknown };

export const navigationStore = createStore<NavigationState>({ status: 'idle' });

let inFlight: Promise<Navigation> | null = null;

/** Fetches the authorised menu once (concurrent callers share the call). */
export function loadNavigation(): Promise<Navigation> {
  const s = navigationStore.get();
  if (s.status === 'ready') return Promise.resolve(s.nav);
  if (!inFlight) {
    navigationStore.set({ status: 'loading' });
    // Menu titles compare the server's names with the zh-CN catalogue (menuTitles.ts), which a
    // console shown in another language has not loaded yet; without it the server's names show.
    inFlight = Promise.all([authorizedResources(), ensureCatalogue(DEFAULT_LANGUAGE).catch(() => undefined)])
      .then(([tree]) => {
        const items = Array.isArray(tree) ? tree : [];
        const nav = buildNavigation(items);
        navigationStore.set({ status: 'ready', tree: items, nav });
        return nav;
      })
      .catch((error: unknown) => {
        navigationStore.set({ status: 'failed', error });
        throw error;
      })
      .finally(() => {
        inFlight = null;
      });
  }
  return inFlight;
}

/** Logged out or switched member: menus and action permissions go. */
export function resetNavigation(): void {
  inFlight = null;
  navigationStore.set({ status: 'idle' });
}

const NO_CODES: ReadonlySet<string> = new Set();

export const useNavigationState = (): NavigationState => useStore(navigationStore);

export function usePermissions(): ReadonlySet<string> {
  const s = useNavigationState();
  return s.status === 'ready' ? s.nav.permissions : NO_CODES;
}

/** Whether the signed-in member holds the requirement (SPEC.md §5 permission rule). */
export const usePermission = (required: PermissionRequirement): boolean => isGranted(usePermissions(), required);
