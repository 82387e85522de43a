import type { LivePosition, MonitorItem } from '../../../../../src/services/monitor';
import { liveUrl, reconnectDelay } from '../../../../../src/services/live';
import {
  applyPositions,
  fleetOf,
  mergeChanges,
  orgCounts,
  statusCounts,
  statusOf,
  subtreeIds,
  visibleVehicles,
} from '../../../../../src/pages/fleet/monitor/monitorModel';

const item = (id: number, over: Partial<MonitorItem> = {}): MonitorItem => ({
  vehicleId: id,
  licence: `粤B${id}`,
  orgId: 1,
  orgName: 'HQ',
  online: true,
  moving: false,
  latitude: 22.5,
  longitude: 114,
  speed: 0,
  direction: 0,
  acc: false,
  alarm: 0,
  fuelL: 50,
  mileageKm: 1000,
  time: '2026-11-23T08:00:00.000Z',
  receivedAt: '2026-11-23T08:00:01.000Z',
  alarming: false,
  ...over,
});

const pos = (id: number, over: Partial<LivePosition> = {}): LivePosition => ({
  vehicleId: id,
  licence: null,
  terminalId: 9,
  time: '2026-11-23T08:01:00.000Z',
  latitude: 22.6,
  longitude: 114.1,
  speed: 42,
  direction: 90,
  acc: true,
  alarm: 0,
  mileageKm: null,
  fuelL: 48,
  blind: false,
  ...over,
});

describe('monitor model', () => {
  it('gives each vehicle one status: alarming (a current alarm, not the alarm word), then offline, then moving, idle or parked', () => {
    expect(statusOf(item(1, { alarming: true, online: false }))).toBe('alarming');
    expect(statusOf(item(1, { alarm: 4 }))).toBe('parked');
    expect(statusOf(item(1, { online: false, acc: true, speed: 60 }))).toBe('offline');
    expect(statusOf(item(1, { acc: true, speed: 5 }))).toBe('moving');
    expect(statusOf(item(1, { acc: true, speed: 4 }))).toBe('idle');
    expect(statusOf(item(1, { acc: false, speed: 30 }))).toBe('parked');
    expect(statusOf(item(1, { acc: null, speed: null }))).toBe('parked');
    expect(statusCounts([item(1), item(2, { online: false }), item(3, { acc: true, speed: 50 })])).toEqual({
      moving: 1,
      idle: 0,
      parked: 1,
      offline: 1,
      alarming: 0,
    });
  });

  it('moves a vehicle on a newer pushed position, keeping what the push does not carry', () => {
    const fleet = fleetOf([item(1, { online: false }), item(2)]);
    const next = applyPositions(fleet, [pos(1, { mileageKm: null })]);
    expect(next).not.toBe(fleet);
    expect(next.get(1)).toMatchObject({
      online: true,
      moving: true,
      latitude: 22.6,
      longitude: 114.1,
      speed: 42,
      direction: 90,
      fuelL: 48,
      mileageKm: 1000,
      time: '2026-11-23T08:01:00.000Z',
    });
    expect(next.get(2)).toBe(fleet.get(2));
    expect(fleet.get(1)?.latitude).toBe(22.5);
  });

  it('ignores older, blind-area and unknown-vehicle positions, answering the same fleet', () => {
    const fleet = fleetOf([item(1)]);
    expect(applyPositions(fleet, [pos(1, { time: '2026-11-23T07:00:00.000Z' })])).toBe(fleet);
    expect(applyPositions(fleet, [pos(1, { blind: true })])).toBe(fleet);
    expect(applyPositions(fleet, [pos(77)])).toBe(fleet);
    expect(applyPositions(fleet, [])).toBe(fleet);
    // A vehicle that never reported takes its first position.
    const fresh = fleetOf([item(3, { time: null, latitude: null, longitude: null })]);
    expect(applyPositions(fresh, [pos(3)]).get(3)?.latitude).toBe(22.6);
  });

  it('counts vehicles per organisation over the whole subtree, and filters by subtree, licence and status', () => {
    const tree = [
      {
        value: 1,
        label: 'HQ',
        children: [
          { value: 2, label: 'East', children: [{ value: 4, label: 'Depot' }] },
          { value: 3, label: 'West' },
        ],
      },
    ];
    const fleet = fleetOf([
      item(1),
      item(2, { orgId: 2, online: false }),
      item(3, { orgId: 4 }),
      item(4, { orgId: 3, licence: '京A0001' }),
    ]);
    const c = orgCounts(tree, fleet);
    expect(c.get(1)).toEqual({ total: 4, online: 3 });
    expect(c.get(2)).toEqual({ total: 2, online: 1 });
    expect(c.get(4)).toEqual({ total: 1, online: 1 });
    expect(c.get(3)).toEqual({ total: 1, online: 1 });
    expect(subtreeIds(tree[0].children[0])).toEqual([2, 4]);
    const ids = (f: Parameters<typeof visibleVehicles>[1]) => visibleVehicles(fleet, f).map((v) => v.vehicleId);
    expect(ids({ orgIds: new Set([2, 4]), keyword: '', statuses: null })).toEqual([2, 3]);
    expect(ids({ orgIds: null, keyword: ' 京a ', statuses: null })).toEqual([4]);
    expect(ids({ orgIds: null, keyword: '', statuses: new Set(['offline'] as const) })).toEqual([2]);
    expect(ids({ orgIds: null, keyword: 'nothing', statuses: null })).toEqual([]);
  });

  it('reconnects after 1 s, doubling up to 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map(reconnectDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    expect(reconnectDelay(-1)).toBe(1000);
  });

  it('opens the live stream on this origin, secure when the page is', () => {
    expect(liveUrl({ hostname: 'fleet.example.com', origin: 'https://fleet.example.com' })).toBe(
      'wss://fleet.example.com/api/vehicle/live',
    );
    expect(liveUrl({ hostname: '10.0.0.5', origin: 'http://10.0.0.5:8000' })).toBe('ws://10.0.0.5:8000/api/vehicle/live');
  });
});

describe('the changes since an earlier answer', () => {
  it('puts the changed vehicles in place, takes the removed out, and keeps the same map when nothing changed', () => {
    const fleet = fleetOf([item(1), item(2), item(3)]);
    const next = mergeChanges(fleet, [item(2, { latitude: 23 }), item(4)], [3]);
    expect([...next.keys()].sort()).toEqual([1, 2, 4]);
    expect(next.get(2)?.latitude).toBe(23);
    expect(next.get(1)).toBe(fleet.get(1));
    expect(fleet.get(2)?.latitude).toBe(22.5); // the old map is left as it was
    expect(mergeChanges(fleet, [], [])).toBe(fleet);
  });
});
