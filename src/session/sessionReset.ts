import { resetNavigation } from './navigationStore';

/**
 * What a sign-in, sign-out or member switch throws away: the menus and action permissions here,
 * and whatever the layers above registered (the shell's tabs), so this layer never imports them.
 */
const listeners = new Set<() => void>();

/** Registers state to drop whenever the signed-in member changes; answers the unregistration. */
export function onSessionReset(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function resetSessionState(): void {
  resetNavigation();
  for (const listener of listeners) listener();
}
