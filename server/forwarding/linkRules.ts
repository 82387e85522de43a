/**
 * A forwarding link's rules beyond its schema (schemas/forwardLink.schema.json), over the whole
 * link as it will be stored (an update merged over the stored row): its target passes the outbound
 * address guard (server/notify/target.ts, FORWARD_ALLOW), a JT/T 809 link has its account, and the
 * cipher constants come all three or none, a key only with them.
 */

import type { FieldError } from '../../schemas/kit/errors';
import { hostRefused, type TargetAllow } from '../notify/target';

export const LINK_LABELS = 'entity.forwardLink.fields';

/** A link's settings as the routes read and write them (password apart: never answered). */
export interface LinkSettings {
  orgId: number;
  name: string;
  protocol: 'jt809' | 'jt808';
  host: string;
  port: number;
  vehicleIds: number[] | null;
  enabled: boolean;
  backlogLimit: number;
  edition: 2011 | 2019;
  accessCode: number | null;
  userId: number | null;
  version: string;
  m1: number | null;
  ia1: number | null;
  ic1: number | null;
  encryptKey: number | null;
  downLinkIp: string | null;
  downLinkPort: number | null;
}

const error = (field: string, key: string): FieldError => ({ field, key, params: {}, labelKey: `${LINK_LABELS}.${field}` });

/** The failures of a link as it will be stored; `hasPassword`: a password is given or kept. */
export function linkErrors(link: LinkSettings, hasPassword: boolean, allow: TargetAllow): FieldError[] {
  const errors: FieldError[] = [];
  if (hostRefused(link.host, allow)) errors.push(error('host', 'forwarding.targetForbidden'));
  if (link.protocol === 'jt809') {
    if (link.accessCode === null) errors.push(error('accessCode', 'forwarding.jt809Required'));
    if (link.userId === null) errors.push(error('userId', 'forwarding.jt809Required'));
    if (!hasPassword) errors.push(error('password', 'forwarding.jt809Required'));
  }
  const constants = [link.m1, link.ia1, link.ic1].filter((c) => c !== null).length;
  if (constants !== 0 && constants !== 3) errors.push(error('m1', 'forwarding.cipherIncomplete'));
  else if (constants === 0 && link.encryptKey !== null) errors.push(error('encryptKey', 'forwarding.keyWithoutCipher'));
  return errors;
}
