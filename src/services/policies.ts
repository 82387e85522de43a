import { call } from './http/call';

/** Re-derives every vehicle the policy covers from a local day on, in the background (server/alarmCentre/rederiveRoute.ts); its rows under `progressId`. */
export const rederivePolicy = (id: number, from: string, progressId: string) =>
  call<{ vehicles: number }>(`/vehicle/policy/${id}/rederive`, {
    method: 'POST',
    data: { from },
    authority: 'policy-edit',
    progressId,
    quiet: true,
  });
