import type { ResourceItem } from '../../schemas/kit/resourceItem';
import { call } from './http/call';
import { authorizedResources } from './passport';

/** Listing, creating, enabling and revoking an API user's keys (people only, never a key). */
export const API_KEY_CODE = 'apiUser-key';

export type ApiKeyStatus = 'active' | 'disabled' | 'expired' | 'revoked';

/** A key as listed: its secret is never listed (only a hash of it is kept). */
export interface ApiKey {
  id: number;
  apiUserId: number;
  name: string;
  prefix: string;
  orgId: number;
  orgName: string;
  codes: string[];
  expiresAt: string;
  rateLimit: number | null;
  enabled: boolean;
  status: ApiKeyStatus;
  createdAt: string;
  createdBy: string;
  revokedAt: string | null;
  revokedBy: string | null;
  useCount: number;
  lastUsedAt: string | null;
  lastUsedIp: string | null;
}

/** The answer to a creation: the only time the key is seen. */
export type CreatedApiKey = ApiKey & { key: string };

export interface NewApiKey {
  name: string;
  orgId?: number;
  codes: string[];
  days: number;
  rateLimit?: number | null;
}

export const listApiKeys = (apiUserId: number) =>
  call<ApiKey[]>(`/vehicle/apiUser/${apiUserId}/keys`, { method: 'GET', authority: API_KEY_CODE });

// 201 here is a new key shown once, not an added record: the dialog says so itself.
export const createApiKey = (apiUserId: number, body: NewApiKey) =>
  call<CreatedApiKey>(`/vehicle/apiUser/${apiUserId}/keys`, { method: 'POST', data: body, authority: API_KEY_CODE, quiet: true });

export const setApiKeyEnabled = (id: number, enabled: boolean) =>
  call<ApiKey>(`/vehicle/apiKey/${id}`, { method: 'PUT', data: { enabled }, authority: API_KEY_CODE, quiet: true });

// 204 here is a revocation, not a deletion: the component says so itself.
export const revokeApiKey = (id: number) => call<void>(`/vehicle/apiKey/${id}`, { method: 'DELETE', authority: API_KEY_CODE, quiet: true });

/** Validity choices, days (the server takes 1 … 730). */
export const VALIDITY_DAYS = [30, 90, 180, 365, 730] as const;

/** The action codes the signed-in member holds (a key may be granted only those), with their names. */
export async function grantableCodes(): Promise<Array<{ code: string; name: string }>> {
  const walk = (nodes: ResourceItem[]): ResourceItem[] => nodes.flatMap((n) => [n, ...walk(n.children ?? [])]);
  const actions = walk(await authorizedResources()).filter((r) => r.kind === 'Action');
  return [...new Map(actions.map((a) => [a.code, { code: a.code, name: a.name }])).values()];
}
