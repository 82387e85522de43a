/** Form values as a request body: blank text is "no value" (null), everything else as given. */
export function blankToNull<T extends Record<string, unknown>>(values: T): T {
  return Object.fromEntries(
    Object.entries(values).map(([k, v]) => [k, typeof v === 'string' && v.trim() === '' ? null : typeof v === 'string' ? v.trim() : v]),
  ) as T;
}

/** Two field values are the same: arrays as sets, null and absent alike. */
export const sameValue = (a: unknown, b: unknown): boolean => {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && [...a].sort().every((v, i) => v === [...b].sort()[i]);
  return (a ?? null) === (b ?? null);
};

/**
 * Only what an edit changed (blank text as null, arrays compared as sets): an update never sends a
 * field the operator did not touch, so the server checks — and audits — just the change.
 */
export function changedFields<T extends Record<string, unknown>>(before: Partial<Record<keyof T, unknown>>, values: T): Partial<T> {
  const next = blankToNull(values);
  return Object.fromEntries(Object.entries(next).filter(([k, v]) => v !== undefined && !sameValue(before[k as keyof T], v))) as Partial<T>;
}
