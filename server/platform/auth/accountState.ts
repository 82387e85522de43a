import { sql, type RawBuilder } from 'kysely';
import { pathAbove } from '../scope';

/** The account states that refuse a sign-in, checked at login, on every token and at simulate login. */
export interface AccountState {
  status: string;
  org_status: string;
  expire_date: string | null;
}

export type AccountRefusal = 'error.accountDisabled' | 'error.orgDisabled' | 'error.accountExpired';

/** Why this account may not act now, or null when it may. */
export function accountRefusal(m: AccountState, today = new Date().toISOString().slice(0, 10)): AccountRefusal | null {
  if (m.status !== 'enabled') return 'error.accountDisabled';
  if (m.org_status !== 'enabled') return 'error.orgDisabled';
  if (m.expire_date && m.expire_date < today) return 'error.accountExpired';
  return null;
}

/**
 * SQL: the status of the organisation aliased `alias` as its accounts live by it: 'disabled' when it
 * or any organisation above it is disabled (disabling an organisation stops its whole subtree).
 */
export const orgStatusInTree = (alias: string): RawBuilder<string> =>
  sql<string>`CASE WHEN EXISTS (SELECT 1 FROM organisation up WHERE up.status <> 'enabled' AND ${pathAbove('up.path', sql.ref(`${alias}.path`))}) THEN 'disabled' ELSE 'enabled' END`;
