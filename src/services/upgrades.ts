import { call } from './http/call';

/** Remote upgrade packages (server/telematics/commands/upgradeRoutes.ts), with the code they need. */
export const UPGRADE_CODE = 'terminal-upgrade';

/** 0 terminal, 12 road-transport IC card reader, 52 GNSS module (`console.command.upgradeTypes.<type>`). */
export const UPGRADE_TYPES = [0, 12, 52] as const;
export type UpgradeType = (typeof UPGRADE_TYPES)[number];

/** What a terminal reports of an upgrade (0x0108), `console.command.upgradeResults.<result>`. */
export const UPGRADE_RESULTS = ['upgraded', 'failed', 'cancelled'] as const;

export interface UpgradePackage {
  id: number;
  fileName: string;
  upgradeType: number;
  makerId: string;
  version: string;
  size: number;
  sha256: string;
  createdAt: string;
}

export const upgradePackages = () => call<UpgradePackage[]>('/vehicle/upgradePackage', { method: 'GET', authority: UPGRADE_CODE });

/** Uploads a package (one file, at most 8 MB); failures carry the server's reason. */
export function uploadPackage(file: Blob, name: string, meta: { upgradeType: UpgradeType; makerId: string; version: string }) {
  const form = new FormData();
  form.append('file', file, name);
  const q = new URLSearchParams({ upgradeType: String(meta.upgradeType), makerId: meta.makerId, version: meta.version });
  return call<UpgradePackage>(`/vehicle/upgradePackage?${q.toString()}`, {
    method: 'POST',
    data: form,
    authority: UPGRADE_CODE,
    skipErrorHandler: true,
  });
}

/** The result a terminal reported for an upgrade command, if it did. */
export function upgradeResultOf(response: unknown): (typeof UPGRADE_RESULTS)[number] | null {
  const r = (response as { upgrade?: { result?: unknown } } | undefined)?.upgrade?.result;
  return UPGRADE_RESULTS.find((x) => x === r) ?? null;
}

/** One terminal a package was sent to, and where its upgrade stands. */
export interface UpgradeResultRow {
  commandId: number;
  terminalId: number;
  terminalNo: string;
  status: 'pending' | 'acked' | 'failed' | 'timeout';
  result?: number;
  response?: unknown;
  createdAt: string;
  answeredAt?: string;
}

export const upgradeResults = (packageId: number) =>
  call<UpgradeResultRow[]>(`/vehicle/upgradePackage/${packageId}/results`, { method: 'GET', authority: UPGRADE_CODE });
