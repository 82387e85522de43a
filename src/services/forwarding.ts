import { call } from './http/call';

/** The forwarding links of the caller's subtree with their live state (GET /api/vehicle/forwarding). */
export type LinkState = 'off' | 'down' | 'connecting' | 'loggingIn' | 'up' | 'stopped';
export type SubLinkState = 'none' | 'waiting' | 'up';

export interface ForwardingLink {
  id: number;
  orgId: number;
  orgName: string;
  name: string;
  protocol: 'jt809' | 'jt808';
  host: string;
  port: number;
  enabled: boolean;
  vehicleIds: number[] | null;
  backlogLimit: number;
  state: LinkState;
  subLink: SubLinkState;
  backlog: number;
  connections: number | null;
  sent: Partial<Record<'position' | 'alarm' | 'static' | 'frame', number>>;
  dropped: number;
  connects: number;
  loginFailures: number;
  lastLoginResult: number | null;
  heartbeats: number;
  badFrames: number;
  upSince: string | null;
  lastError: string | null;
}

export const listForwardingLinks = () => call<ForwardingLink[]>('/vehicle/forwarding', { method: 'GET' });
