import type { Page } from '../../schemas/kit/entity';
import type { ObdMessage, PositionMessage } from '../../schemas/kit/telemetry';
import type { LiveRaisedAlarm } from '../../schemas/kit/monitor';
import type { Row } from './entity';
import type { Replay, Segment, Trip } from '../../schemas/kit/trips';
import type { LedgerFigures } from '../../schemas/kit/ledger';
import type { VehicleReport } from '../../schemas/kit/vehicleReport';
import { call } from './http/call';

/** One vehicle's reports (server/reports: tripRoutes, dashboardRoutes, ledgerRoutes; the alarm and policy lists). */

/** The trip and track answers, typed by the schemas the server answers by. */
export type { Trip, TripPlace as TripPoint, Segment, ReplayPoint, Stop, Replay } from '../../schemas/kit/trips';

export interface Range {
  begin: string;
  end: string;
}

export const queryTrips = (vehicleId: number, range: Range, pageIndex: number, pageSize: number) =>
  call<Page<Trip>>(`/vehicle/trip/vehicle-${vehicleId}`, { method: 'POST', data: { criteria: range, pageIndex, pageSize } });

export const runAndStop = (vehicleId: number, range: Range) =>
  call<{ segments: Segment[] }>(`/vehicle/trip/vehicle-${vehicleId}/tripRunAndStop`, { method: 'POST', data: range });

/** The track of a range, simplified to `maxPoints` (stops and turns kept), or every point without it. */
export const replayTrack = (vehicleId: number, range: Range, maxPoints?: number) =>
  call<Replay>('/vehicle/track/replay', { method: 'POST', data: { vehicleId, ...range, ...(maxPoints ? { maxPoints } : {}) } });

export type { LedgerFigures, VehicleReport };

export const vehicleReport = (vehicleId: number) =>
  call<VehicleReport>(`/vehicle/vehicleReport/${vehicleId}`, { method: 'GET', skipErrorHandler: true });

export const monthLedger = (vehicleId: number) =>
  call<(LedgerFigures & { month: string })[]>(`/vehicle/monthUsageReport/monthMileageAndFuel/${vehicleId}`, { method: 'GET' });

/** An alarm as the alarm query lists it: the live alarm's fields with its state. */
export type AlarmRow = Omit<LiveRaisedAlarm, 'fenceId'> & { status: 'open' | 'closed'; handled: boolean };

export const queryAlarms = (
  criteria: { vehicleId: number; category?: string; status?: 'open' | 'closed'; begin?: string; end?: string },
  pageSize = 50,
) => call<Page<AlarmRow>>('/vehicle/alarm/query', { method: 'POST', data: { criteria, pageIndex: 1, pageSize } });

/** Policies of the caller's scope (the page keeps those of the vehicle's organisation line). */
export const queryPolicies = () => call<Page<Row>>('/vehicle/policy/query', { method: 'POST', data: { pageIndex: 1, pageSize: 500 } });

export type MessageKind = 'position' | 'obd';

export type { ObdMessage, PositionMessage };

export const queryMessages = (vehicleId: number, kind: MessageKind, range: Range, pageIndex: number, pageSize: number) =>
  call<Page<PositionMessage | ObdMessage>>(`/vehicle/message/vehicle-${vehicleId}`, {
    method: 'POST',
    data: { criteria: { kind, ...range }, pageIndex, pageSize },
  });
