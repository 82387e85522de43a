import { darken, isDark, luminance, themeFor } from '../../../src/shell/theme';

describe('theme tokens', () => {
  it('tell dark frames from light ones', () => {
    expect(isDark('#0c3467')).toBe(true);
    expect(isDark('#ffffff')).toBe(false);
    expect(luminance('#000000')).toBe(0);
    expect(luminance('#ffffff')).toBeCloseTo(1);
  });

  it('put the picked colour on antd primary and the frame on sider and menu', () => {
    const dark = themeFor('#409EFF', '#0c3467');
    expect(dark.token).toMatchObject({ colorPrimary: '#409EFF' });
    expect(dark.components?.Layout).toMatchObject({ siderBg: '#0c3467' });
    expect(dark.components?.Menu).toMatchObject({ darkItemBg: '#0c3467' });
    const light = themeFor('#409EFF', '#ffffff');
    expect(light.components?.Menu).toMatchObject({ itemBg: '#ffffff' });
  });

  it('darken towards black', () => {
    expect(darken('#ffffff', 0.5)).toBe('#808080');
    expect(darken('#0c3467', 0)).toBe('#0c3467');
  });
});
