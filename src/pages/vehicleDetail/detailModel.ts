/** The vehicle detail's pure rules. */
import type { Row } from '../../services/entity';
import type { OrgNode } from '../../services/entity';

/** Organisation ids from the root down to `id`; empty when `id` is not in the tree. */
export function orgLine(tree: readonly OrgNode[], id: number): number[] {
  for (const n of tree) {
    if (n.value === id) return [n.value];
    const below = orgLine(n.children ?? [], id);
    if (below.length) return [n.value, ...below];
  }
  return [];
}

/**
 * The enabled policies that apply to a vehicle whose organisation line is `line` (root first):
 * per alarm type, the nearest organisation's policy wins, as the alarm engine reads them.
 */
export function policiesFor(policies: readonly Row[], line: readonly number[]): Row[] {
  const depth = new Map(line.map((id, i) => [id, i]));
  const best = new Map<string, Row>();
  for (const p of policies) {
    if (p.enabled === false) continue;
    const d = depth.get(Number(p.orgId));
    if (d === undefined) continue;
    const type = String(p.alarmType);
    const cur = best.get(type);
    if (!cur || depth.get(Number(cur.orgId))! < d) best.set(type, p);
  }
  return [...best.values()].sort((a, b) => String(a.alarmType).localeCompare(String(b.alarmType)));
}

export const DETAIL_TABS = ['history', 'messages', 'media', 'track', 'statistics', 'condition', 'maintenance'] as const;
export type DetailTab = (typeof DETAIL_TABS)[number];

/** The tab a `?tab=` asks for; history otherwise. */
export const tabOf = (search: string): DetailTab => {
  const v = new URLSearchParams(search).get('tab');
  return (DETAIL_TABS as readonly string[]).includes(v ?? '') ? (v as DetailTab) : 'history';
};

/** The run-and-stop timeline as a manager reads it: the newest segment first (the API answers in time order). */
export const newestFirst = <T extends { begin: string }>(segments: readonly T[]): T[] =>
  [...segments].sort((a, b) => Date.parse(b.begin) - Date.parse(a.begin));
