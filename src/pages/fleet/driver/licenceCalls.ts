import { request } from '@umijs/max';
import { LICENCE_PERMISSION as LICENCE_CODE, type LicenceExpiry } from '../../../../schemas/kit/driverLicence';
import type { Page } from '../../../../schemas/kit/entity';
import type { CallOptions } from '../../../services/http/headers';

export { WITHIN_DAYS, type LicenceExpiry } from '../../../../schemas/kit/driverLicence';
export { LICENCE_CODE };

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
