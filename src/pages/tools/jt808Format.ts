/**
 * The JT/T 808 decode page's reading of the server's answers (`POST …/tools/jt808/decode`): each
 * frame's header as labelled rows and its body as a tree of labelled values, location bodies (at
 * any depth: 0x0200, 0x0201, 0x0704 items) first as alarm and status bits by name, position,
 * speed, time in the device's time zone, then their additional items. Pure: no React, no request.
 */
import type { Translate } from '../../../schemas/kit/i18n';

import type { DecodedFrame, FrameFailure, FrameResult, JsonValue } from '../../services/tools';

export type { DecodeAnswer, DecodedFrame, FrameFailure, FrameResult, JsonValue } from '../../services/tools';

export const isFailure = (r: FrameResult): r is FrameFailure => 'error' in r;

/** Frames the server decodes per call (more are cut and `truncated` is set). */
export const MAX_FRAMES = 200;

/** Message ids with a name in the catalogue (`console.jt808.messages.<id>`). */
export const MESSAGE_IDS = [
  '0x0001',
  '0x0002',
  '0x0003',
  '0x0100',
  '0x0102',
  '0x0200',
  '0x0201',
  '0x0704',
  '0x0900',
  '0x8001',
  '0x8100',
  '0x8103',
  '0x8105',
  '0x8201',
  '0x8300',
] as const;

/** Alarm word bits, lowest first (the server's ALARM_BITS; a test keeps both lists equal). */
export const ALARM_NAMES = [
  'sos',
  'overspeed',
  'fatigue',
  'danger',
  'gnssFault',
  'gnssAntennaOpen',
  'gnssAntennaShort',
  'powerUnderVoltage',
  'powerDown',
  'lcdFault',
  'ttsFault',
  'cameraFault',
  'icCardFault',
  'overspeedWarning',
  'fatigueWarning',
  'illegalDrivingWarning',
  'tyrePressureWarning',
  'rightTurnBlindZoneWarning',
  'dailyDrivingOvertime',
  'overtimeParking',
  'areaInOut',
  'routeInOut',
  'routeTimeAbnormal',
  'routeDeviation',
  'vssFault',
  'fuelAbnormal',
  'stolen',
  'illegalIgnition',
  'illegalDisplacement',
  'collisionWarning',
  'rolloverWarning',
  'illegalDoorOpen',
] as const;

/** Boolean status flags (the server's STATUS_BITS; the load state is bits 8-9). */
export const STATUS_NAMES = [
  'accOn',
  'fixed',
  'south',
  'west',
  'outOfService',
  'coordsEncrypted',
  'forwardCollisionWarning',
  'laneDepartureWarning',
  'fuelCut',
  'circuitCut',
  'doorLocked',
  'frontDoorOpen',
  'middleDoorOpen',
  'rearDoorOpen',
  'driverDoorOpen',
  'customDoorOpen',
  'gps',
  'beidou',
  'glonass',
  'galileo',
  'moving',
] as const;

export const LOAD_STATES = ['empty', 'half', 'reserved', 'full'] as const;

/** Field names with a label in the catalogue (`console.jt808.fields.<name>`); others show as sent. */
export const FIELD_NAMES = [
  // location additional items
  'mileageKm',
  'fuelL',
  'fuelUnscaled',
  'recorderSpeedKmh',
  'alarmEventId',
  'tyrePressureHex',
  'carriageTemp',
  'overspeed',
  'areaAlarm',
  'routeTime',
  'signals',
  'io',
  'analog',
  'signalStrength',
  'satellites',
  'obd',
  'obdF3',
  'obdRt',
  'eb',
  'unknown',
  'raw',
  'malformed',
  // frequent body fields
  'replySerial',
  'replyMsgId',
  'result',
  'resultName',
  'authCode',
  'imei',
  'softwareVersion',
  'province',
  'city',
  'makerId',
  'model',
  'terminalId',
  'plateColor',
  'plate',
  'type',
  'typeName',
  'blindArea',
  'items',
  'content',
  'text',
  'obdRecord',
  'time',
  'subtype',
  'subtypeName',
  'pids',
  'values',
  'dtcs',
  'dtcCodes',
  'position',
  'status',
  'alarm',
  'latitude',
  'longitude',
  'count',
  'archive',
  'vehicleType',
  'vin',
  'rpm',
  'coolantTempC',
  'speedKmh',
  'odometerKm',
  'fuelLevel',
  'powerV',
  'hex',
  'id',
  'value',
] as const;

const FIELDS: ReadonlySet<string> = new Set(FIELD_NAMES);

/** `console.jt808.<group>.<name>`: keys named by data (the tests check every name in every language). */
export const jt808Key = (group: string, name: string): string => ['console.jt808', group, name].join('.');

/** A labelled row of the view: a value, a set of named bits, or a group of rows. */
export type ViewNode =
  | { kind: 'value'; label: string; value: string }
  | { kind: 'flags'; label: string; raw: string; names: string[] }
  | { kind: 'group'; label: string; children: ViewNode[] };

export interface FormatContext {
  t: Translate;
  /** Device clock offset the frames were decoded with, minutes east of UTC. */
  tzOffsetMinutes: number;
}

type JsonObject = { [key: string]: JsonValue };
const isObject = (v: JsonValue | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `UTC+08:00`, `UTC-03:30`. */
export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const m = Math.abs(minutes);
  return `UTC${sign}${pad(Math.floor(m / 60))}:${pad(m % 60)}`;
}

/** Offsets the page offers: every whole hour from UTC-12 to UTC+14, and the half and quarter hours in use. */
export const TZ_OFFSETS: readonly number[] = [
  ...Array.from({ length: 27 }, (_, i) => (i - 12) * 60),
  -570,
  -210,
  210,
  270,
  330,
  345,
  390,
  570,
  630,
  765,
].sort((a, b) => a - b);

/** An ISO instant as the device's wall clock: `2021-07-26 20:35:31 (UTC+08:00)`. */
export function formatDeviceTime(iso: string, tzOffsetMinutes: number): string {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return iso;
  const d = new Date(ms + tzOffsetMinutes * 60_000);
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return `${date} ${time} (${formatOffset(tzOffsetMinutes)})`;
}

/** A 32-bit word as `0x00000080`. */
export const formatWord = (n: number): string => `0x${(n >>> 0).toString(16).toUpperCase().padStart(8, '0')}`;

export const messageName = (msgId: string, t: Translate): string | null =>
  (MESSAGE_IDS as readonly string[]).includes(msgId) ? t(jt808Key('messages', msgId)) : null;

export const fieldLabel = (name: string, t: Translate): string => (FIELDS.has(name) ? t(jt808Key('fields', name)) : name);

/** The header rows of a decoded frame. */
export function headerRows(f: DecodedFrame, { t }: FormatContext): Array<{ label: string; value: string }> {
  const name = messageName(f.msgId, t);
  const rows = [
    { label: t('console.jt808.header.msgId'), value: name ? `${f.msgId} ${name}` : f.msgId },
    {
      label: t('console.jt808.header.version'),
      value: f.protocolVersion === undefined ? String(f.version) : `${f.version} (${f.protocolVersion})`,
    },
    { label: t('console.jt808.header.phone'), value: f.phone },
    { label: t('console.jt808.header.serial'), value: String(f.serial) },
  ];
  if (f.packet)
    rows.push({
      label: t('console.jt808.header.packet'),
      value: t('console.jt808.header.packetOf', { index: f.packet.index, count: f.packet.count }),
    });
  if (f.reassembledFrom)
    rows.push({ label: t('console.jt808.header.packet'), value: t('console.jt808.header.reassembled', { count: f.reassembledFrom }) });
  if (f.encryption) rows.push({ label: t('console.jt808.header.encryption'), value: String(f.encryption) });
  if (f.opaque)
    rows.push({
      label: t('console.jt808.header.opaque'),
      value: t(jt808Key('opaque', f.opaque === 'fragment' || f.opaque === 'encrypted' ? f.opaque : 'unknown')),
    });
  return rows;
}

export const ERROR_CODES = [
  'BAD_CHECKSUM',
  'TRUNCATED',
  'BAD_ESCAPE',
  'TOO_LONG',
  'BAD_LENGTH',
  'BAD_FLAG',
  'BAD_PACKET',
  'BAD_BODY',
  'BAD_HEX',
];

/** A refused frame in words: what the code means, then the decoder's own detail. */
export function failureText(f: FrameFailure, t: Translate): { title: string; detail: string } {
  const code = f.code !== undefined && ERROR_CODES.includes(f.code) ? f.code : 'other';
  return { title: t(jt808Key('errors', code)), detail: f.error };
}

function scalar(v: JsonValue, t: Translate): string {
  if (v === null) return '—';
  if (typeof v === 'boolean') return t(v ? 'common.yes' : 'common.no');
  return String(v);
}

/** A location body: alarm words with named bits and a status word. */
export const isLocation = (v: JsonValue): v is JsonObject =>
  isObject(v) && isObject(v.alarm) && Array.isArray(v.alarm.active) && isStatus(v.status) && typeof v.latitude === 'number';

/** A status word as the decoder writes it ({raw, accOn, fixed, …}). */
export const isStatus = (v: JsonValue | undefined): v is JsonObject =>
  isObject(v) && typeof v.raw === 'number' && typeof v.accOn === 'boolean' && typeof v.fixed === 'boolean';

export function alarmFlags(alarm: JsonObject, { t }: FormatContext): ViewNode {
  const names = (alarm.active as JsonValue[])
    .map((n) => String(n))
    .map((n) => ((ALARM_NAMES as readonly string[]).includes(n) ? t(jt808Key('alarm', n)) : n));
  return { kind: 'flags', label: t('console.jt808.location.alarm'), raw: formatWord(Number(alarm.raw)), names };
}

/** The flags set in a status word, ACC and fix spelled out either way, and the load state. */
export function statusFlags(status: JsonObject, { t }: FormatContext, label = t('console.jt808.location.status')): ViewNode {
  const names: string[] = [
    t(status.accOn ? 'console.jt808.status.accOn' : 'console.jt808.status.accOff'),
    t(status.fixed ? 'console.jt808.status.fixed' : 'console.jt808.status.notFixed'),
  ];
  for (const n of STATUS_NAMES) if (n !== 'accOn' && n !== 'fixed' && status[n] === true) names.push(t(jt808Key('status', n)));
  const load = String(status.load);
  if ((LOAD_STATES as readonly string[]).includes(load) && load !== 'empty') names.push(t(jt808Key('load', load)));
  return { kind: 'flags', label, raw: formatWord(Number(status.raw)), names };
}

/** A location: alarms, status, position, altitude, speed, direction, time, then the additional items. */
export function locationNodes(b: JsonObject, ctx: FormatContext): ViewNode[] {
  const { t } = ctx;
  const value = (key: string, v: string): ViewNode => ({ kind: 'value', label: t(jt808Key('location', key)), value: v });
  const nodes: ViewNode[] = [
    alarmFlags(b.alarm as JsonObject, ctx),
    statusFlags(b.status as JsonObject, ctx),
    value('latitude', `${b.latitude}°`),
    value('longitude', `${b.longitude}°`),
    value('altitude', `${b.altitude} m`),
    value('speed', `${b.speed} km/h`),
    value('direction', `${b.direction}°`),
    value('time', typeof b.time === 'string' ? formatDeviceTime(b.time, ctx.tzOffsetMinutes) : t('console.jt808.location.noTime')),
  ];
  if (isObject(b.extras) && Object.keys(b.extras).length)
    nodes.push({ kind: 'group', label: t('console.jt808.location.extras'), children: objectNodes(b.extras, ctx) });
  return nodes;
}

function valueNode(label: string, v: JsonValue, ctx: FormatContext, key?: string): ViewNode {
  if (isLocation(v)) return { kind: 'group', label, children: locationNodes(v, ctx) };
  if (isStatus(v)) return statusFlags(v, ctx, label);
  if (isObject(v)) return { kind: 'group', label, children: objectNodes(v, ctx) };
  if (Array.isArray(v)) {
    if (v.every((x) => !isObject(x) && !Array.isArray(x)))
      return { kind: 'value', label, value: v.length ? v.map((x) => scalar(x, ctx.t)).join(', ') : '—' };
    return { kind: 'group', label, children: v.map((x, i) => valueNode(`#${i + 1}`, x, ctx)) };
  }
  if (key === 'time' && typeof v === 'string') return { kind: 'value', label, value: formatDeviceTime(v, ctx.tzOffsetMinutes) };
  return { kind: 'value', label, value: scalar(v, ctx.t) };
}

function objectNodes(o: JsonObject, ctx: FormatContext): ViewNode[] {
  // Epoch milliseconds repeat `time`; they only clutter the view.
  return Object.entries(o)
    .filter(([k]) => k !== 'timestamp')
    .map(([k, v]) => valueNode(fieldLabel(k, ctx.t), v, ctx, k));
}

/** The body of a decoded frame as rows (an empty body gives none). */
export function bodyNodes(f: DecodedFrame, ctx: FormatContext): ViewNode[] {
  const b = f.body;
  if (isLocation(b)) return locationNodes(b, ctx);
  if (isObject(b)) return objectNodes(b, ctx);
  if (b === null) return [];
  return [valueNode(ctx.t('console.jt808.body'), b, ctx)];
}

/** Counts for the summary line. */
export function summarize(results: readonly FrameResult[]): { total: number; ok: number; failed: number } {
  const failed = results.filter(isFailure).length;
  return { total: results.length, ok: results.length - failed, failed };
}

/** Non-blank lines of the pasted text: what the server will decode. */
export const frameLines = (text: string): string[] => text.split(/\r?\n/).filter((l) => l.trim() !== '');
/** The 1-based line number in the pasted text of each frame frameLines keeps (blank lines counted). */
export const frameLineNumbers = (text: string): number[] =>
  text
    .split(/\r?\n/)
    .map((l, i) => (l.trim() === '' ? 0 : i + 1))
    .filter((n) => n > 0);
