import { call } from './http/call';

/** The forwarding links of the caller's subtree with their live state (GET /api/vehicle/forwarding). */
export const LINK_STATES = ['off', 'down', 'connecting', 'loggingIn', 'up', 'stopped'] as const;
export type LinkState = (typeof LINK_STATES)[number];
export const SUB_LINK_STATES = ['none', 'waiting', 'up'] as const;
export type SubLinkState = (typeof SUB_LINK_STATES)[number];
/** What a link counts as sent, by kind. */
export const SENT_KINDS = ['position', 'alarm', 'static', 'frame'] as const;

/** What a link speaks: JT/T 809 to a superior platform, or the terminals' raw JT/T 808 frames to a partner. */
export const FORWARD_PROTOCOLS = ['jt809', 'jt808'] as const;

export interface ForwardingLink {
  id: number;
  orgId: number;
  orgName: string;
  name: string;
  protocol: (typeof FORWARD_PROTOCOLS)[number];
  host: string;
  port: number;
  enabled: boolean;
  vehicleIds: number[] | null;
  backlogLimit: number;
  state: LinkState;
  subLink: SubLinkState;
  backlog: number;
  connections: number | null;
  sent: Partial<Record<(typeof SENT_KINDS)[number], number>>;
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
