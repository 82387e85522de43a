/**
 * A notification rule's receivers and where its posts go, as written: login names of members
 * (console, app and SMS rules), phone numbers (SMS) and e-mail addresses (email), and the URL of a
 * webhook or SMS gateway. The check a rule passes when saved (created, updated, imported): a URL
 * is http(s) and names no forbidden literal address, and every login name is a member of the rule's
 * organisation or below it — a rule cannot send the mobile number of anyone above it to its own
 * gateway. The dispatcher applies the same limits when it sends (rules saved before them included).
 */

import { sql } from 'kysely';
import type { FieldError } from '../../schemas/kit/errors';
import type { BodyCheck } from '../platform/crud/routes';
import { pathOfOrg, pathUnder } from '../platform/scope';
import { isMailbox } from './smtp';
import { targetFieldError, type TargetAllow } from './target';

/** The receivers as written, one each. */
const receiverEntries = (receivers: unknown): string[] =>
  (typeof receivers === 'string' ? receivers : '').split(/[\s,;，；、]+/).filter(Boolean);

/** The receivers as a list, lower-cased (login names compare without case). */
export const receiverNames = (receivers: unknown): string[] => receiverEntries(receivers).map((x) => x.toLowerCase());

/** A receiver written as a phone number (an SMS rule sends to it as it is). */
export const isPhoneNumber = (x: string): boolean => /^\+?\d{5,}$/.test(x);

const LABEL = 'entity.notify.fields';

export function notifyRuleCheck(allow: TargetAllow): BodyCheck {
  return async (body, { db, caller }) => {
    const errors: FieldError[] = [];
    const target = typeof body.url === 'string' && body.url ? targetFieldError(body.url, allow, `${LABEL}.url`) : null;
    if (target) errors.push(target);
    const logins = [...new Set(receiverEntries(body.receivers).filter((x) => !isPhoneNumber(x) && !isMailbox(x.toLowerCase())))];
    if (logins.length) {
      const ruleOrg = typeof body.orgId === 'number' ? body.orgId : caller.orgId;
      // Looked up inside the caller's subtree too: a rule given another subtree's organisation (refused
      // later for that) must not tell which login names exist there.
      const found = await sql<{ name: string }>`
        SELECT lower(m.login_name) AS name FROM member m JOIN organisation o ON o.id = m.org_id
        WHERE lower(m.login_name) = ANY (${logins.map((x) => x.toLowerCase())}::text[]) AND ${pathUnder('o.path', pathOfOrg(ruleOrg))} AND ${pathUnder('o.path', caller.orgPath)}`.execute(
        db,
      );
      const inside = new Set(found.rows.map((r) => r.name));
      const outside = logins.filter((x) => !inside.has(x.toLowerCase()));
      if (outside.length)
        errors.push({
          field: 'receivers',
          key: 'notify.receiverOutside',
          params: { names: outside.join(', ') },
          labelKey: `${LABEL}.receivers`,
        });
    }
    return errors;
  };
}
