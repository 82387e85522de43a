import type { ReplayPoint } from '../../../../src/services/vehicleDetail';
import {
  colouredRuns,
  firstMovement,
  indexAt,
  pointsBetween,
  positionAt,
  seek,
  speedColour,
  tick,
  trackRange,
  windowInView,
  FAST_COLOUR,
} from '../../../../src/pages/vehicleDetail/playback';
import { orgLine, policiesFor, tabOf } from '../../../../src/pages/vehicleDetail/detailModel';

const P = (min: number, lat: number, lng: number, speed: number): ReplayPoint => [
  new Date(Date.UTC(2026, 10, 23, 8, min)).toISOString(),
  lat,
  lng,
  speed,
  90,
  true,
];
const points = [P(0, 22, 114, 0), P(1, 22.01, 114, 30), P(2, 22.02, 114, 35), P(3, 22.03, 114, 90), P(4, 22.04, 114, 120)];
const t0 = Date.parse(points[0][0]);

describe('track playback', () => {
  it('colours the line by speed, splitting where the band changes and joining the runs', () => {
    expect(speedColour(0)).toBe('#8c8c8c');
    expect(speedColour(150)).toBe(FAST_COLOUR);
    const runs = colouredRuns(points);
    expect(runs.map((r) => r.latlngs.length)).toEqual([1, 3, 2, 2]);
    expect(runs[1].latlngs[0]).toEqual([22, 114]);
    expect(colouredRuns([])).toEqual([]);
  });

  it("starts at the first movement, not at the range's parked beginning", () => {
    expect(firstMovement(points)).toBe(t0 + 60_000);
    expect(firstMovement([P(0, 22, 114, 0), P(5, 22, 114, 0)])).toBe(t0);
    expect(firstMovement([])).toBeNull();
  });

  it('starts as the vehicle sets off when it moves only at the last report, so there is a track to play', () => {
    expect(firstMovement([P(0, 22, 114, 0), P(1, 22, 114, 0), P(2, 22.01, 114, 30)])).toBe(t0 + 60_000);
    expect(firstMovement([P(0, 22, 114, 30)])).toBe(t0);
  });

  it('picks the points of a trip or a stop, for zooming to it', () => {
    expect(pointsBetween(points, t0 + 60_000, t0 + 180_000)).toEqual([
      [22.01, 114],
      [22.02, 114],
      [22.03, 114],
    ]);
    expect(pointsBetween(points, t0 + 90_000, t0 + 90_000)).toEqual([]);
    expect(pointsBetween(points, t0 - 600_000, t0)).toEqual([[22, 114]]);
  });

  it('finds the marker between reports, clamped to the ends', () => {
    expect(indexAt(points, t0 - 1000)).toBe(0);
    expect(indexAt(points, t0 + 90_000)).toBe(1);
    expect(indexAt(points, t0 + 10 * 60_000)).toBe(4);
    const mid = positionAt(points, t0 + 30_000)!;
    expect(mid.latitude).toBeCloseTo(22.005, 6);
    expect(positionAt(points, t0 + 60 * 60_000)).toMatchObject({ latitude: 22.04, index: 4 });
    expect(positionAt([], t0)).toBeNull();
  });

  it('plays at 60 track seconds per second times the speed, stops at the end, and seeks inside the range', () => {
    const end = t0 + 4 * 60_000;
    const c = { at: t0, playing: true, speed: 2 as const };
    expect(tick(c, 1000, end).at).toBe(t0 + 120_000);
    expect(tick({ ...c, speed: 64 }, 1000, end)).toEqual({ at: end, playing: false, speed: 64 });
    expect(tick({ ...c, playing: false }, 1000, end).at).toBe(t0);
    expect(seek(c, t0 - 5, t0, end).at).toBe(t0);
    expect(seek(c, end + 5, t0, end).at).toBe(end);
  });

  it('asks the window of the points in view in full, and nothing when fewer than two are in it', () => {
    expect(windowInView(points, (lat) => lat >= 22.01 && lat <= 22.03)).toEqual({ begin: points[1][0], end: points[3][0] });
    expect(windowInView(points, (lat) => lat === 22)).toBeNull();
    expect(windowInView(points, () => false)).toBeNull();
  });

  it('has quick ranges ending now, and yesterday from midnight to midnight', () => {
    const now = new Date(2026, 10, 23, 15, 30);
    expect(trackRange('today', now)).toEqual([new Date(2026, 10, 23), now]);
    expect(trackRange('yesterday', now)).toEqual([new Date(2026, 10, 22), new Date(2026, 10, 23)]);
    expect(trackRange('last7d', now)[0]).toEqual(new Date(now.getTime() - 7 * 86400_000));
  });
});

describe('vehicle detail rules', () => {
  const tree = [
    { value: 1, label: 'HQ', children: [{ value: 2, label: 'East', children: [{ value: 5, label: 'Depot' }] }] },
    { value: 9, label: 'Other' },
  ];

  it('finds the organisation line from the root down', () => {
    expect(orgLine(tree, 5)).toEqual([1, 2, 5]);
    expect(orgLine(tree, 9)).toEqual([9]);
    expect(orgLine(tree, 77)).toEqual([]);
  });

  it('keeps the enabled policies of the line, the nearest organisation winning per type', () => {
    const policies = [
      { id: 1, orgId: 1, alarmType: 'OverSpeed', enabled: true, name: 'hq speed' },
      { id: 2, orgId: 2, alarmType: 'OverSpeed', enabled: true, name: 'east speed' },
      { id: 3, orgId: 1, alarmType: 'Idle', enabled: true, name: 'hq idle' },
      { id: 4, orgId: 5, alarmType: 'Idle', enabled: false, name: 'depot idle off' },
      { id: 5, orgId: 9, alarmType: 'Low', enabled: true, name: 'other low' },
    ];
    expect(policiesFor(policies, [1, 2, 5]).map((p) => p.id)).toEqual([3, 2]);
    expect(policiesFor(policies, [])).toEqual([]);
  });

  it('opens the tab the address asks for, history otherwise', () => {
    expect(tabOf('?tab=track')).toBe('track');
    expect(tabOf('?tab=nope')).toBe('history');
    expect(tabOf('')).toBe('history');
  });
});
