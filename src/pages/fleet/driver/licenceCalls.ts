import { request } from '@umijs/max';
import type { Page } from '../../../../schemas/kit/entity';
import type { CallOptions } from '../../../services/http/headers';

/** The code `POST driver/licenses` checks (server/vehicle/driverLicenceRoutes.ts). */
export const LICENCE_CODE = 'driver-edit';

/** The look-ahead the server accepts, and the one it uses when none is sent. */
export const WITHIN_DAYS = { min: 0, max: 365, default: 30 } as const;

/** A row of the licence-expiry list, as the server answers it (server/vehicle/driverLicences.ts). */
export interface LicenceExpiry {
  id: number;
  name: string;
  mobile: string;
  orgId: number;
  orgName: string;
  licenseNo: string | null;
  licenseClass: string | null;
  licenseExpire: string;
  /** Negative once expired. */
  daysLeft: number;
  status: string;
  vehicles: Array<{ id: number; licence: string }>;
}

export interface LicenceQuery {
  withinDays: number;
  pageIndex: number;
  pageSize: number;
}

type Call = CallOptions & { method: string; data?: unknown };
const call = <T>(url: string, opts: Call) => request<T>(url, opts);

/** One page of drivers whose licence has expired or expires within `withinDays`, by expiry. */
export const queryLicenceExpiries = ({ withinDays, pageIndex, pageSize }: LicenceQuery) =>
  call<Page<LicenceExpiry>>('/vehicle/driver/licenses', {
    method: 'POST',
    data: { criteria: { withinDays }, pageIndex, pageSize },
    authority: LICENCE_CODE,
  });
