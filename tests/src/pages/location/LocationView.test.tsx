import { act, screen } from '@testing-library/react';
import * as locationService from '../../../../src/services/location';
import LocationView from '../../../../src/pages/location/LocationView';
import { mocked, polyfillMatchMedia, renderConsole, settle } from '../../components/consoleHarness';

// The public calls are covered by the server's integration tests; here, what the page does with the answers.
jest.mock('../../../../src/services/location', () => ({ sharedLocation: jest.fn(), mapConfig: jest.fn() }));
// jsdom tests cannot run import(): the lazily loaded map comes in with require.
jest.mock('../../../../src/pages/location/mapLoader', () => ({
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above: no import() under jsdom
  loadLocationMap: async () => require('../../../../src/pages/location/LocationMap'),
}));
const sharedLocation = mocked(locationService.sharedLocation);
const mapConfig = mocked(locationService.mapConfig);

const TICKET = 'A'.repeat(43);
const at = (latitude: number, speed: number, direction: number) => ({
  licence: '沪A12345',
  position: { latitude, longitude: 121.4737, speed, direction, time: '2026-11-20T08:00:00.000Z' },
});
const notFound = { response: { status: 404, data: { success: false, message: '数据不存在或已被删除' } } };

beforeAll(polyfillMatchMedia);
beforeEach(() => {
  jest.useFakeTimers();
  mapConfig.mockResolvedValue({ tileUrl: null, coordSystem: 'WGS84', attribution: null });
});
afterEach(() => {
  jest.useRealTimers();
  jest.clearAllMocks();
});

const tick = (ms: number) =>
  act(async () => {
    await jest.advanceTimersByTimeAsync(ms);
  });

describe('public location page', () => {
  it('shows the licence and latest position in both coordinate systems, with no map and nothing external', async () => {
    sharedLocation.mockResolvedValue(at(31.2304, 42.5, 270));
    const { container } = renderConsole(<LocationView ticket={TICKET} />);
    await tick(0);
    expect(sharedLocation).toHaveBeenCalledWith(TICKET);
    expect(screen.getByTestId('location-licence').textContent).toBe('沪A12345');
    expect(screen.getByText('42.5 km/h')).toBeTruthy();
    expect(screen.getByText('西（270°）')).toBeTruthy();
    expect(screen.getByText('31.230400, 121.473700')).toBeTruthy();
    expect(screen.getByText('WGS-84 坐标（GPS）')).toBeTruthy();
    expect(screen.getByText('GCJ-02 坐标（国内地图）')).toBeTruthy();
    expect(screen.queryByTestId('location-map')).toBeNull();
    // Only our own logo; no link anywhere.
    expect([...container.querySelectorAll('img')].map((i) => i.getAttribute('src'))).toEqual(['/favicon.svg']);
    expect(container.querySelectorAll('a[href]').length).toBe(0);
  });

  it('refreshes every 30 seconds and says so', async () => {
    sharedLocation.mockResolvedValueOnce(at(31.2304, 10, 0)).mockResolvedValueOnce(at(31.5, 20, 90));
    renderConsole(<LocationView ticket={TICKET} />);
    await tick(0);
    expect(screen.getByText('10 km/h')).toBeTruthy();
    expect(screen.getByTestId('location-refresh').textContent).toMatch(/^每 30 秒自动刷新，最后刷新：\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    await tick(29_000);
    expect(sharedLocation).toHaveBeenCalledTimes(1);
    await tick(1_000);
    expect(sharedLocation).toHaveBeenCalledTimes(2);
    expect(screen.getByText('20 km/h')).toBeTruthy();
    expect(screen.getByText('东（90°）')).toBeTruthy();
  });

  it('says clearly when the link is invalid or expired, and stops asking', async () => {
    sharedLocation.mockRejectedValue(notFound);
    renderConsole(<LocationView ticket={TICKET} />);
    await tick(0);
    expect(screen.getByTestId('location-invalid').textContent).toContain('链接无效或已过期');
    await tick(120_000);
    expect(sharedLocation).toHaveBeenCalledTimes(1);
  });

  it('keeps the last position when a refresh fails for another reason, and tells', async () => {
    sharedLocation
      .mockResolvedValueOnce(at(31.2304, 10, 0))
      .mockRejectedValueOnce({ response: { status: 429, data: {} } })
      .mockResolvedValueOnce(at(31.2304, 30, 0));
    renderConsole(<LocationView ticket={TICKET} />);
    await tick(0);
    await tick(30_000);
    expect(screen.getByText('10 km/h')).toBeTruthy();
    expect(screen.getByText('暂时无法获取位置，将自动重试')).toBeTruthy();
    await tick(30_000);
    expect(screen.getByText('30 km/h')).toBeTruthy();
    expect(screen.queryByText('暂时无法获取位置，将自动重试')).toBeNull();
  });

  it('shows a vehicle that has not reported yet', async () => {
    sharedLocation.mockResolvedValue({ licence: '粤B00001', position: null });
    renderConsole(<LocationView ticket={TICKET} />, 'en-US');
    await tick(0);
    expect(screen.getByTestId('location-licence').textContent).toBe('粤B00001');
    expect(screen.getByText('This vehicle has not reported a position yet')).toBeTruthy();
  });

  it('draws a map from the configured tiles only', async () => {
    jest.useRealTimers();
    // Leaflet draws the marker in SVG when the browser has it; jsdom lacks this one method.
    const svg = window.SVGSVGElement.prototype as { createSVGRect?: () => unknown };
    svg.createSVGRect ??= () => ({ x: 0, y: 0, width: 0, height: 0 });
    mapConfig.mockResolvedValue({ tileUrl: '/tiles/{z}/{x}/{y}.png', coordSystem: 'WGS84', attribution: null });
    sharedLocation.mockResolvedValue(at(31.2304, 10, 0));
    const { container } = renderConsole(<LocationView ticket={TICKET} />);
    await screen.findByTestId('location-map', undefined, { timeout: 5000 });
    await settle(50);
    const tiles = [...container.querySelectorAll('img.leaflet-tile')].map((i) => i.getAttribute('src') ?? '');
    expect(tiles.length).toBeGreaterThan(0);
    expect(tiles.every((src) => /^\/tiles\/15\/\d+\/\d+\.png$/.test(src))).toBe(true);
    expect(container.querySelector('.leaflet-control-attribution')).toBeNull();
  });
});
