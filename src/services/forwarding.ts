import { schemaEntities } from '../../schemas/generated/registry';
import { callEntity, type Row } from './entity';
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

const linkSchema = schemaEntities.forwardLink;
/** The action codes guarding a link's management (schemas/forwardLink.schema.json). */
export const FORWARD_LINK_CODES = {
  add: linkSchema['x-entity'].permissions.create,
  edit: linkSchema['x-entity'].permissions.update,
  remove: linkSchema['x-entity'].permissions.remove,
};
/** One link's settings, for its edit form (the password never comes back). */
export const getForwardLink = (id: number) => callEntity<Row>(linkSchema, 'get', { id });
export const setForwardLinkEnabled = (id: number, enabled: boolean) => callEntity<Row>(linkSchema, 'update', { id, data: { enabled } });
export const deleteForwardLink = (id: number) => callEntity<void>(linkSchema, 'remove', { id });
