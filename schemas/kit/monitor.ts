import type { FromSchema } from 'json-schema-to-ts';

/**
 * The live map's shapes, once for the server (`POST /api/vehicle/monitor/query`, the live
 * WebSocket's messages) and the console that reads them.
 */

const nullable = <const T extends 'integer' | 'number' | 'boolean'>(type: T) => ({ type: [type, 'null'] }) as const;

/** The fields of a monitor item, in the order the compact answer lists them; all required. */
export const MONITOR_FIELDS = [
  'vehicleId',
  'licence',
  'orgId',
  'orgName',
  'online',
  'moving',
  'latitude',
  'longitude',
  'speed',
  'direction',
  'acc',
  'alarm',
  'fuelL',
  'mileageKm',
  'time',
  'receivedAt',
  'alarming',
] as const;

/** One vehicle of `monitor/query` (and the vehicle report's state): its latest state. */
export const monitorItemSchema = {
  type: 'object',
  additionalProperties: false,
  required: MONITOR_FIELDS,
  properties: {
    vehicleId: { type: 'integer' },
    licence: { type: 'string' },
    orgId: { type: 'integer' },
    orgName: { type: 'string' },
    online: { type: 'boolean' },
    moving: { type: 'boolean' },
    latitude: nullable('number'),
    longitude: nullable('number'),
    speed: nullable('number'),
    direction: nullable('integer'),
    acc: nullable('boolean'),
    alarm: { ...nullable('integer'), description: "the alarm word of the last report (the terminal's bits, as it sent them)" },
    fuelL: nullable('number'),
    mileageKm: nullable('number'),
    time: { type: ['string', 'null'], format: 'date-time', description: 'device time of the last report' },
    receivedAt: { type: ['string', 'null'], format: 'date-time' },
    alarming: {
      type: 'boolean',
      description: 'has a current alarm: open, or ended within the last day and not handled (server/alarmCentre/current.ts)',
    },
  },
} as const;

export type MonitorItem = FromSchema<typeof monitorItemSchema>;
// Every listed field is a property of the item (the schema allows no other).
MONITOR_FIELDS satisfies ReadonlyArray<keyof MonitorItem>;

export interface MonitorCriteria {
  orgId?: number | null;
  keyword?: string | null;
  online?: boolean | null;
  moving?: boolean | null;
  /** An earlier answer's `asOf`: only the vehicles changed after it (see MonitorColumnsAnswer). */
  since?: string | null;
}

/**
 * `monitor/query` with `format: 'columns'`: one array per field (the same names), index i of each
 * being vehicle i. Ten thousand vehicles cost sixteen arrays instead of ten thousand objects
 * repeating sixteen keys, to build, send and parse.
 */
export type MonitorColumns = { [K in keyof MonitorItem]: Array<MonitorItem[K]> };

export interface MonitorColumnsAnswer {
  columns: MonitorColumns;
  total: number;
  /** Where this answer stands: `criteria.since` of the next question asks only what changed after it. */
  asOf: string;
  /** With `since`: false when only the changed vehicles are listed, true when the whole list is. */
  full?: boolean;
  /** With `since`: vehicles in scope that changed and no longer match the criteria. */
  removed?: number[];
}

/** The items of a compact answer (the console keeps a map of items). */
export function monitorItemsOf(columns: MonitorColumns): MonitorItem[] {
  const n = columns.vehicleId.length;
  const out = new Array<MonitorItem>(n);
  for (let i = 0; i < n; i++) {
    const item = {} as Record<keyof MonitorItem, unknown>;
    for (const f of MONITOR_FIELDS) item[f] = columns[f][i];
    out[i] = item as unknown as MonitorItem; // every field set just above
  }
  return out;
}

/** A stored position as the live WebSocket pushes it. */
export interface LivePosition {
  vehicleId: number;
  licence: string | null;
  terminalId: number;
  time: string;
  latitude: number;
  longitude: number;
  speed: number;
  direction: number;
  acc: boolean;
  alarm: number;
  mileageKm: number | null;
  fuelL: number | null;
  blind: boolean;
}

/** The alarm bits a stored position carries. */
export interface LiveAlarm {
  vehicleId: number;
  licence: string | null;
  terminalId: number;
  time: string;
  alarms: readonly string[];
  latitude: number;
  longitude: number;
}

/** An alarm the alarm engine raised (derived from reports or the clock), as the console shows it. */
export interface LiveRaisedAlarm {
  id: number;
  vehicleId: number;
  licence: string;
  type: string;
  category: string;
  level: string;
  begin: string;
  end: string | null;
  latitude: number | null;
  longitude: number | null;
  value: number | null;
  fenceId: number | null;
  detail: Record<string, unknown> | null;
}

/** What the hub fans out. */
export type LiveHubMessage =
  { type: 'positions'; items: LivePosition[] } | { type: 'alarms'; items: LiveAlarm[] } | { type: 'alarm'; items: LiveRaisedAlarm[] };

/** What a console's socket receives: the route's greeting, then the hub's messages. */
export type LiveMessage = { type: 'hello'; orgPath: string } | LiveHubMessage;

/**
 * Close codes of the live socket when its session changes: `sessionEnded` (logout, password
 * changed, account or organisation disabled, expired: sign in again, do not reconnect) and
 * `scopeChanged` (the account or its organisation moved: connect again for the new scope).
 */
export const LIVE_CLOSE = {
  sessionEnded: { code: 4401, reason: 'session ended' },
  scopeChanged: { code: 4409, reason: 'session scope changed' },
} as const;
