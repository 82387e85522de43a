import { createStore, useStore } from './store';

/** The change-password dialog: open, and whether it may be dismissed (not on a first sign-in). */
export interface PasswordDialogState {
  open: boolean;
  forced: boolean;
}

export const passwordDialogStore = createStore<PasswordDialogState>({ open: false, forced: false });
export const openPasswordDialog = (forced = false): void => passwordDialogStore.set({ open: true, forced });
export const closePasswordDialog = (): void => passwordDialogStore.set({ open: false, forced: false });
export const usePasswordDialog = (): PasswordDialogState => useStore(passwordDialogStore);
