import { createContext, useContext } from 'react';
import type { MenuRoute } from '../session/navigation';

/**
 * The route a kept-alive view belongs to: a hidden tab must read its own path (a detail page's
 * id), not the address bar's, which belongs to the tab shown.
 */
export const ViewRouteContext = createContext<MenuRoute | null>(null);

export const useViewRoute = (): MenuRoute | null => useContext(ViewRouteContext);
