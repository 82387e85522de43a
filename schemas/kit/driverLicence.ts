/**
 * The licence-expiry list (`POST driver/licenses`), shared by the server route and the console's
 * dialog so both hold the same row shape, limits and code.
 */

/** The code the route checks: keeping licences up to date is editing drivers. */
export const LICENCE_PERMISSION = 'driver-edit';

/** The look-ahead in days the route accepts, and the one it uses when none is sent. */
export const WITHIN_DAYS = { min: 0, max: 365, default: 30 } as const;

/** A driver whose licence has expired or expires soon, with what a dispatcher needs to act on it. */
export interface LicenceExpiry {
  id: number;
  name: string;
  mobile: string;
  orgId: number;
  orgName: string;
  licenseNo: string | null;
  licenseClass: string | null;
  /** 'YYYY-MM-DD'. */
  licenseExpire: string;
  /** Days from today to the expiry: 0 expires today, negative has expired. */
  daysLeft: number;
  status: string;
  /** The vehicles (of the caller's subtree) the driver is assigned to, by licence. */
  vehicles: Array<{ id: number; licence: string }>;
}
