import type { ThemeConfig } from 'antd';

/**
 * Colours (SPEC.md §3, §9) as antd theme tokens — nothing is downloaded. Two colours:
 * the picked primary colour (picker default #409EFF), and the organisation's frame colour from the
 * session (#0c3467 after login when the server sends none; #ffffff when impersonating without one).
 */
export const LOGIN_THEME_COLOR = '#0c3467';
export const IMPERSONATION_THEME_COLOR = '#ffffff';

function rgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.replace('#', '').padEnd(6, '0').slice(0, 6), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** Relative luminance (WCAG), 0 black … 1 white. */
export function luminance(hex: string): number {
  const [r, g, b] = rgb(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export const isDark = (hex: string): boolean => luminance(hex) < 0.4;

/** A colour moved towards black by `amount` (0–1), for sub-menus on the frame colour. */
export function darken(hex: string, amount: number): string {
  return (
    '#' +
    rgb(hex)
      .map((c) =>
        Math.round(c * (1 - amount))
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')
  );
}

/** WCAG contrast ratio of two colours, 1 (same) … 21 (black on white). */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** A colour moved towards `to` by `amount` (0–1). */
function mix(hex: string, to: string, amount: number): string {
  const target = rgb(to);
  return (
    '#' +
    rgb(hex)
      .map((c, i) =>
        Math.round(c + (target[i] - c) * amount)
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')
  );
}

/** Below this the selected menu item melts into the sidebar (navy on navy). */
const SELECTION_CONTRAST = 1.8;

/**
 * The selected menu item's colour on the frame: the primary colour, unless it is too close to the
 * frame (the navy preset on the navy sidebar), then lightened on a dark frame or darkened on a light
 * one until it stands out.
 */
export function selectionOn(primary: string, frame: string): string {
  const towards = isDark(frame) ? '#ffffff' : '#000000';
  for (let step = 0; step <= 10; step++) {
    const c = step ? mix(primary, towards, step / 10) : primary.toLowerCase();
    if (contrast(c, frame) >= SELECTION_CONTRAST) return c;
  }
  return towards;
}

export function themeFor(primary: string, frame: string): ThemeConfig {
  const dark = isDark(frame);
  const selected = selectionOn(primary, frame);
  return {
    token: { colorPrimary: primary, colorLink: primary, colorInfo: primary },
    components: {
      Layout: { siderBg: frame, triggerBg: darken(frame, 0.15), headerBg: '#ffffff', headerPadding: '0 16px', headerHeight: 50 },
      Menu: dark
        ? { darkItemBg: frame, darkSubMenuItemBg: darken(frame, 0.25), darkItemSelectedBg: selected }
        : { itemBg: frame, subMenuItemBg: darken(frame, 0.03), itemSelectedColor: selected },
    },
  };
}
