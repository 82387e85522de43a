/** The live map's state: vehicles by id, each with a status, merged with what the WebSocket pushes. Pure. */
import type { LivePosition, MonitorItem } from '../../../services/monitor';
import type { OrgNode } from '../../../services/entity';

export const STATUSES = ['moving', 'idle', 'parked', 'offline', 'alarming'] as const;
export type VehicleStatus = (typeof STATUSES)[number];

/** Moving at or above this speed with the ACC on (the server's MIN_MOVING_KMH). */
export const MOVING_KMH = 5;

export const STATUS_COLOURS: Record<VehicleStatus, string> = {
  moving: '#52c41a',
  idle: '#faad14',
  parked: '#1677ff',
  offline: '#8c8c8c',
  alarming: '#f5222d',
};

/**
 * Alarming (a current alarm, the server's one definition: the alarm centre's 当前 lists) wins; then
 * offline; an online vehicle moves, idles (ACC on, still) or is parked. The report's alarm word is
 * not a status: its bits are alarms once derived.
 */
export function statusOf(v: Pick<MonitorItem, 'online' | 'acc' | 'speed' | 'alarming'>): VehicleStatus {
  if (v.alarming) return 'alarming';
  if (!v.online) return 'offline';
  if (v.acc && (v.speed ?? 0) >= MOVING_KMH) return 'moving';
  if (v.acc) return 'idle';
  return 'parked';
}

export type Fleet = ReadonlyMap<number, MonitorItem>;

export const fleetOf = (items: readonly MonitorItem[]): Fleet => new Map(items.map((i) => [i.vehicleId, i]));

/** The vehicles that changed (monitor/query `since` an earlier answer) put in place, the removed ones taken out. */
export function mergeChanges(fleet: Fleet, changed: readonly MonitorItem[], removed: readonly number[]): Fleet {
  if (!changed.length && !removed.length) return fleet;
  const next = new Map(fleet);
  for (const i of changed) next.set(i.vehicleId, i);
  for (const id of removed) next.delete(id);
  return next;
}

/**
 * Pushed positions applied to the fleet: newer device times only (a blind-area upload of old
 * reports does not move a marker back), and a vehicle that reports is online. Vehicles outside the
 * fleet (not in the list the page asked for) are left out. Answers the same map when nothing changed.
 */
export function applyPositions(fleet: Fleet, positions: readonly LivePosition[]): Fleet {
  let next: Map<number, MonitorItem> | null = null;
  for (const p of positions) {
    const cur = (next ?? fleet).get(p.vehicleId);
    if (!cur) continue;
    if (p.blind || (cur.time && Date.parse(cur.time) > Date.parse(p.time))) continue;
    next ??= new Map(fleet);
    next.set(p.vehicleId, {
      ...cur,
      online: true,
      moving: p.acc && p.speed >= MOVING_KMH,
      latitude: p.latitude,
      longitude: p.longitude,
      speed: p.speed,
      direction: p.direction,
      acc: p.acc,
      alarm: p.alarm,
      fuelL: p.fuelL ?? cur.fuelL,
      mileageKm: p.mileageKm ?? cur.mileageKm,
      time: p.time,
    });
  }
  return next ?? fleet;
}

/** Every organisation id of a node's subtree, the node's own first. */
export function subtreeIds(node: OrgNode): number[] {
  return [node.value, ...(node.children ?? []).flatMap(subtreeIds)];
}

export function findOrg(tree: readonly OrgNode[], id: number): OrgNode | undefined {
  for (const n of tree) {
    if (n.value === id) return n;
    const hit = findOrg(n.children ?? [], id);
    if (hit) return hit;
  }
  return undefined;
}

export interface OrgCount {
  total: number;
  online: number;
}

/** Vehicles per organisation, each counting its whole subtree. */
export function orgCounts(tree: readonly OrgNode[], fleet: Fleet): Map<number, OrgCount> {
  const own = new Map<number, OrgCount>();
  for (const v of fleet.values()) {
    const c = own.get(v.orgId) ?? { total: 0, online: 0 };
    c.total += 1;
    if (v.online) c.online += 1;
    own.set(v.orgId, c);
  }
  const out = new Map<number, OrgCount>();
  const walk = (n: OrgNode): OrgCount => {
    const sum = { ...(own.get(n.value) ?? { total: 0, online: 0 }) };
    for (const ch of n.children ?? []) {
      const c = walk(ch);
      sum.total += c.total;
      sum.online += c.online;
    }
    out.set(n.value, sum);
    return sum;
  };
  tree.forEach(walk);
  return out;
}

export interface MonitorFilter {
  /** Organisation ids to show (a subtree); null: all. */
  orgIds: ReadonlySet<number> | null;
  /** Part of the licence, any case. */
  keyword: string;
  statuses: ReadonlySet<VehicleStatus> | null;
}

export function visibleVehicles(fleet: Fleet, f: MonitorFilter): MonitorItem[] {
  const k = f.keyword.trim().toLowerCase();
  const out: MonitorItem[] = [];
  for (const v of fleet.values()) {
    if (f.orgIds && !f.orgIds.has(v.orgId)) continue;
    if (k && !v.licence.toLowerCase().includes(k)) continue;
    if (f.statuses && !f.statuses.has(statusOf(v))) continue;
    out.push(v);
  }
  return out;
}

export function statusCounts(items: Iterable<MonitorItem>): Record<VehicleStatus, number> {
  const c = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<VehicleStatus, number>;
  for (const v of items) c[statusOf(v)] += 1;
  return c;
}

export const hasPosition = (v: MonitorItem): v is MonitorItem & { latitude: number; longitude: number } =>
  typeof v.latitude === 'number' && typeof v.longitude === 'number';
