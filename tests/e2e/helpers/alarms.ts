/** The suite's `api` call (tests/e2e/helpers/console.ts). */
type Api = (method: string, path: string, body?: unknown) => Promise<{ data?: Array<{ id: number }> } & Record<string, unknown>>;

/**
 * Makes every moving demo vehicle break an OverSpeed policy at once: a policy at the root, and the
 * demo organisations' own OverSpeed policies (the nearest organisation's wins) tightened to match.
 */
export async function overspeedEverywhere(api: Api): Promise<void> {
  await api('PUT', '/vehicle/policy', { name: 'e2e overspeed', alarmType: 'OverSpeed', threshold: 3, durationMinutes: 0, enabled: true });
  const own = await api('POST', '/vehicle/policy/query', { criteria: { alarmType: 'OverSpeed' }, pageIndex: 1, pageSize: 100 });
  for (const p of own.data ?? []) await api('PUT', `/vehicle/policy/${p.id}`, { threshold: 3, durationMinutes: 0, enabled: true });
}
