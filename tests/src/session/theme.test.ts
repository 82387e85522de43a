import { contrast, darken, isDark, luminance, selectionOn, themeFor } from '../../../src/session/theme';

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

  it('keep the selected menu item visible whatever the colours, the navy preset on the navy sidebar too', () => {
    // The picked colour stands out as it is.
    expect(selectionOn('#409EFF', '#0c3467')).toBe('#409eff');
    expect(themeFor('#409EFF', '#0c3467').components?.Menu).toMatchObject({ darkItemSelectedBg: '#409eff' });
    // Navy on navy: lightened until it shows.
    const navy = selectionOn('#0c3467', '#0c3467');
    expect(navy).not.toBe('#0c3467');
    expect(contrast(navy, '#0c3467')).toBeGreaterThanOrEqual(1.8);
    expect(themeFor('#0c3467', '#0c3467').components?.Menu).toMatchObject({ darkItemSelectedBg: navy });
    // On a light frame a too-light colour is darkened instead.
    const pale = selectionOn('#f5f5f5', '#ffffff');
    expect(contrast(pale, '#ffffff')).toBeGreaterThanOrEqual(1.8);
    expect(luminance(pale)).toBeLessThan(luminance('#f5f5f5'));
    for (const preset of ['#409EFF', '#0c3467', '#1890ff', '#13c2c2', '#52c41a', '#fa541c', '#eb2f96', '#722ed1']) {
      for (const frame of ['#0c3467', '#ffffff', '#001529', '#409EFF'])
        expect(contrast(selectionOn(preset, frame), frame)).toBeGreaterThanOrEqual(1.8);
    }
  });
});
