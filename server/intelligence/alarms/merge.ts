/**
 * One alarm per condition: intervals of the same type and subject that overlap or touch (from the
 * alarm word, a policy, a fence…) become one, so at most one alarm of a key is open at a time.
 */

import { sourcesOf, type AlarmInterval } from './types';

const endOf = (i: AlarmInterval) => (i.end === null ? Infinity : i.end);

/** For Low the worst value is the lowest; for everything else the highest. */
export const worse = (type: string, a: number | null, b: number | null): number | null => {
  if (a === null) return b;
  if (b === null) return a;
  return type === 'Low' ? Math.min(a, b) : Math.max(a, b);
};

function combine(a: AlarmInterval, b: AlarmInterval): AlarmInterval {
  const end = Math.max(endOf(a), endOf(b));
  const sources = new Set<unknown>([...sourcesOf(a), ...sourcesOf(b)]);
  return {
    ...a,
    ...(b.level && (!a.level || rank(b.level) > rank(a.level)) ? { level: b.level } : {}),
    end: end === Infinity ? null : end,
    firedAt: Math.min(a.firedAt, b.firedAt),
    value: worse(a.type, a.value, b.value),
    detail: { ...(b.detail ?? {}), ...(a.detail ?? {}), ...(sources.size ? { sources: [...sources].sort() } : {}) },
  };
}

const rank = (l: string) => ['low', 'medium', 'high', 'critical'].indexOf(l);

/** Merged intervals, sorted by begin, type and subject (a stable order for storing and tests). */
export function mergeIntervals(intervals: readonly AlarmInterval[]): AlarmInterval[] {
  const byKey = new Map<string, AlarmInterval[]>();
  for (const i of intervals) {
    const k = `${i.type}\u0000${i.subject}`;
    const list = byKey.get(k);
    if (list) list.push(i);
    else byKey.set(k, [i]);
  }
  const out: AlarmInterval[] = [];
  for (const list of byKey.values()) {
    list.sort((a, b) => a.begin - b.begin || endOf(a) - endOf(b));
    let cur = list[0];
    for (const next of list.slice(1)) {
      if (next.begin <= endOf(cur)) cur = combine(cur, next);
      else {
        out.push(cur);
        cur = next;
      }
    }
    out.push(cur);
  }
  return out.sort((a, b) => a.begin - b.begin || a.type.localeCompare(b.type) || a.subject.localeCompare(b.subject));
}
