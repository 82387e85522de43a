import type { ParamValue } from '../../schemas/kit/terminalParams';
import { call } from './http/call';

/** Downlink commands to a terminal (server/telematics/commands): sent, then followed until it answers. */

export type CommandKind = 'location' | 'text' | 'control' | 'params' | 'readParams';
export const COMMAND_STATUSES = ['pending', 'acked', 'failed', 'timeout'] as const;
export type CommandStatus = (typeof COMMAND_STATUSES)[number];

export interface TerminalCommand {
  id: number;
  kind: string;
  status: CommandStatus;
  createdAt?: string;
  answeredAt?: string;
  result?: number | null;
  response?: unknown;
}

export const COMMAND_CODE = 'terminal-command';

export type CommandBody =
  | { kind: 'location' }
  | { kind: 'text'; text: string; tts?: boolean; emergency?: boolean }
  | { kind: 'control'; command: 'engineStop' | 'engineResume' }
  | { kind: 'params'; params: ParamValue[] }
  /** 0x8104 (all), or 0x8106 for these ids; the answer's parameters are the command's response. */
  | { kind: 'readParams'; ids?: number[] };

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
    authority: COMMAND_CODE,
    skipErrorHandler: true,
  });
}

export const commandById = (terminalId: number, commandId: number) =>
  call<TerminalCommand>(`/vehicle/terminal/${terminalId}/command/${commandId}`, { method: 'GET', skipErrorHandler: true });
