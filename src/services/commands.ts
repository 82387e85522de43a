import type { ParamValue } from '../../schemas/kit/terminalParams';
import { call } from './http/call';
import { UPGRADE_CODE } from './upgrades';

/** Downlink commands to a terminal (server/telematics/commands): sent, then followed until it answers. */

export type CommandKind =
  'location' | 'text' | 'control' | 'params' | 'readParams' | 'attributes' | 'tracking' | 'vehicleControl' | 'fence' | 'upgrade' | 'photo';
export const COMMAND_STATUSES = ['pending', 'acked', 'failed', 'timeout'] as const;
export type CommandStatus = (typeof COMMAND_STATUSES)[number];

export interface TerminalCommand {
  id: number;
  kind: string;
  status: CommandStatus;
  createdAt?: string;
  answeredAt?: string;
  result?: number | null;
  /** What was asked (without the wait). */
  request?: unknown;
  response?: unknown;
}

export const COMMAND_CODE = 'terminal-command';

export type CommandBody =
  | { kind: 'location' }
  | { kind: 'text'; text: string; tts?: boolean; emergency?: boolean }
  | { kind: 'control'; command: 'engineStop' | 'engineResume' }
  | { kind: 'params'; params: ParamValue[] }
  /** 0x8104 (all), or 0x8106 for these ids; the answer's parameters are the command's response. */
  | { kind: 'readParams'; ids?: number[] }
  /** 0x8107; the answer (0x0107) is the response's `attributes`. */
  | { kind: 'attributes' }
  /** 0x8202: report every `interval` s for `duration` s (interval 0 stops it). */
  | { kind: 'tracking'; interval: number; duration: number }
  /** 0x8500 doors; the answer (0x0500) says whether they are locked. */
  | { kind: 'vehicleControl'; doors: 'lock' | 'unlock' }
  /** A platform fence set on the terminal as its own area, or deleted from it. */
  | { kind: 'fence'; fenceId: number; action: 'set' | 'delete' }
  /** 0x8108 in packets, needs the upgrade code; the terminal's 0x0108 result ends it. */
  | { kind: 'upgrade'; packageId: number }
  /** 0x8801; the answer (0x0805) names the photos' media ids, their uploads follow (commandPhotos). */
  | ({ kind: 'photo' } & PhotoRequest);

export interface PhotoRequest {
  channel: number;
  count: number;
  /** Seconds between photos. */
  interval: number;
  /** 0x8801 resolution code (PHOTO_RESOLUTIONS). */
  resolution: number;
  /** 1 (best) .. 10. */
  quality: number;
  /** Kept on the terminal, not uploaded. */
  save: boolean;
}

/** 0x8801 resolution codes and their size, as the dialog offers them (the standard's order). */
export const PHOTO_RESOLUTIONS: ReadonlyArray<{ code: number; size: string }> = [
  { code: 1, size: '320×240' },
  { code: 2, size: '640×480' },
  { code: 3, size: '800×600' },
  { code: 4, size: '1024×768' },
  { code: 5, size: '176×144' },
  { code: 6, size: '352×288' },
  { code: 7, size: '704×288' },
  { code: 8, size: '704×576' },
];
/** Most photos one command asks for (the server's bound). */
export const PHOTO_MAX_COUNT = 10;
/** The take-photo answer's results (0x0805), `console.command.photoResults.<result>`. */
export const PHOTO_RESULTS = ['ok', 'failed', 'channelUnsupported'] as const;

/** One uploaded photo, as the media routes list it. */
export interface MediaItem {
  id: number;
  mediaId: number;
  channel: number;
  takenAt: string | null;
  receivedAt: string;
  bytes: number;
}

/** The command dialog's choices, each one command kind ('doors' is vehicleControl); `console.command.<choice>` names it. */
export const COMMAND_CHOICES = [
  'location',
  'text',
  'params',
  'control',
  'attributes',
  'tracking',
  'doors',
  'fence',
  'photo',
  'upgrade',
] as const;
export type CommandChoice = (typeof COMMAND_CHOICES)[number];

/** The general answer's results (0x0001): done, failed, message error, not supported. */
export const COMMAND_RESULTS = [0, 1, 2, 3] as const;

/** The attributes the dialog shows, in order (`console.command.attribute.<field>`). */
export const ATTRIBUTE_FIELDS = [
  'model',
  'makerId',
  'terminalId',
  'iccid',
  'hardwareVersion',
  'firmwareVersion',
  'terminalType',
  'gnss',
  'comms',
] as const;

/** What a terminal says of itself (0x0107). */
export interface TerminalAttributes {
  terminalType: number;
  makerId: string;
  model: string;
  terminalId: string;
  iccid: string;
  hardwareVersion: string;
  firmwareVersion: string;
  gnss: number;
  comms: number;
}

/** The attributes a terminal answered (0x0107). */
export function answeredAttributes(c: TerminalCommand): TerminalAttributes | null {
  const r = c.response as { attributes?: TerminalAttributes } | undefined;
  return c.status === 'acked' && r?.attributes ? r.attributes : null;
}

/** Whether the terminal's answer to a door command (0x0500) shows the doors locked; null without one. */
export function answeredDoorsLocked(c: TerminalCommand): boolean | null {
  const r = c.response as { doorsLocked?: boolean } | undefined;
  return c.status === 'acked' && typeof r?.doorsLocked === 'boolean' ? r.doorsLocked : null;
}

/** What a terminal answered to a take-photo command (0x0805): its result and the photos' media ids. */
export function answeredPhoto(c: TerminalCommand): { result: string; mediaIds: number[] } | null {
  const r = c.response as { photo?: string | number; mediaIds?: number[] } | undefined;
  return c.kind === 'photo' && r?.photo !== undefined && Array.isArray(r.mediaIds)
    ? { result: String(r.photo), mediaIds: r.mediaIds }
    : null;
}

/** The parameters a terminal answered to readParams (0x0104). */
export function answeredParams(c: TerminalCommand): ParamValue[] | null {
  const r = c.response as { params?: ParamValue[] } | undefined;
  return c.status === 'acked' && Array.isArray(r?.params) ? r.params : null;
}

/** A command that failed because the terminal's session closed before it answered. */
export const closedUnanswered = (c: TerminalCommand) =>
  c.status === 'failed' && (c.response as { reason?: string } | undefined)?.reason === 'sessionClosed';

/** Sends a command and waits up to `waitMs` for the terminal's answer (406: the terminal is offline). */
export function sendCommand(terminalId: number, body: CommandBody, waitMs = 10_000) {
  const { kind, ...rest } = body;
  return call<TerminalCommand>(`/vehicle/terminal/${terminalId}/command/${kind}`, {
    method: 'POST',
    data: { ...rest, waitMs },
    authority: kind === 'upgrade' ? UPGRADE_CODE : COMMAND_CODE,
    skipErrorHandler: true,
  });
}

/** The photos a take-photo command brought so far, and how many its answer named. */
export const commandPhotos = (terminalId: number, commandId: number) =>
  call<{ data: MediaItem[]; expected: number }>(`/vehicle/terminal/${terminalId}/command/${commandId}/photos`, {
    method: 'GET',
    quiet: true,
  });
export { mediaFile } from './media';

export const commandById = (terminalId: number, commandId: number) =>
  call<TerminalCommand>(`/vehicle/terminal/${terminalId}/command/${commandId}`, { method: 'GET', skipErrorHandler: true });
