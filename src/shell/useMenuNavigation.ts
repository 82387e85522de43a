import { useIntl } from '@umijs/max';
import { useMemo } from 'react';
import type { Catalogue } from '../../schemas/kit/i18n';
import { menuTitles } from '../session/menuTitles';
import { buildNavigation, type Navigation } from '../session/navigation';
import { useNavigationState } from '../session/navigationStore';

/** The loaded navigation with titles in the chosen language (rebuilt when it changes). */
export function useMenuNavigation(): Navigation | null {
  const state = useNavigationState();
  const { messages } = useIntl();
  return useMemo(
    () => (state.status === 'ready' ? buildNavigation(state.tree, menuTitles(messages as Catalogue)) : null),
    [state, messages],
  );
}
