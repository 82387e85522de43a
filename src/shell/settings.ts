import { createStore, useStore } from '../session/store';

/** Settings remembered in this browser (SPEC.md §4): sidebar open (1/0), size, theme colour. */
export type UiSize = 'large' | 'medium' | 'small';
export const UI_SIZES: readonly UiSize[] = ['large', 'medium', 'small'];

export interface Settings {
  sidebarOpened: boolean;
  size: UiSize;
  /** Picked primary colour; null = the picker's default. */
  themeColor: string | null;
}

export const DEFAULT_SIZE: UiSize = 'medium';
export const PICKER_DEFAULT_COLOR = '#409EFF';

const KEYS = { sidebar: 'sidebarStatus', size: 'size', theme: 'fleet-star.theme' } as const;

const isHexColor = (v: string | null): v is string => v !== null && /^#[0-9a-f]{6}$/i.test(v);

export function readSettings(storage: Storage = localStorage): Settings {
  const size = storage.getItem(KEYS.size) as UiSize | null;
  const theme = storage.getItem(KEYS.theme);
  return {
    // Open unless explicitly closed.
    sidebarOpened: storage.getItem(KEYS.sidebar) !== '0',
    size: size && UI_SIZES.includes(size) ? size : DEFAULT_SIZE,
    themeColor: isHexColor(theme) ? theme : null,
  };
}

export function writeSettings(s: Settings, storage: Storage = localStorage): void {
  storage.setItem(KEYS.sidebar, s.sidebarOpened ? '1' : '0');
  storage.setItem(KEYS.size, s.size);
  if (s.themeColor) storage.setItem(KEYS.theme, s.themeColor);
  else storage.removeItem(KEYS.theme);
}

export const settingsStore = createStore<Settings>(readSettings());

export function updateSettings(patch: Partial<Settings>): void {
  settingsStore.set((prev) => {
    const next = { ...prev, ...patch };
    writeSettings(next);
    return next;
  });
}

export const useSettings = (): Settings => useStore(settingsStore);

/** antd's name of a size. */
export const antdSize = (s: UiSize): 'large' | 'middle' | 'small' => (s === 'medium' ? 'middle' : s);
