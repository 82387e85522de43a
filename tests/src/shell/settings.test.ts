import { antdSize, readSettings, writeSettings } from '../../../src/shell/settings';

beforeEach(() => localStorage.clear());

describe('remembered settings', () => {
  it('default to an open sidebar, medium size and the picker default', () => {
    expect(readSettings()).toEqual({ sidebarOpened: true, size: 'medium', themeColor: null });
  });

  it('store the sidebar as 1/0 and read back what was written', () => {
    writeSettings({ sidebarOpened: false, size: 'small', themeColor: '#13c2c2' });
    expect(localStorage.getItem('sidebarStatus')).toBe('0');
    expect(readSettings()).toEqual({ sidebarOpened: false, size: 'small', themeColor: '#13c2c2' });
  });

  it('ignore values that are not theirs', () => {
    localStorage.setItem('size', 'huge');
    localStorage.setItem('fleet-star.theme', 'url(evil)');
    expect(readSettings()).toMatchObject({ size: 'medium', themeColor: null });
  });

  it("map medium to antd's middle", () => {
    expect(antdSize('medium')).toBe('middle');
    expect(antdSize('large')).toBe('large');
  });
});
