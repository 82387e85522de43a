import type { ParamValue } from '../../schemas/kit/terminalParams';
import { call } from './http/call';

/** Downlink commands to a terminal (server/telematics/commands): sent, then followed until it answers. */

export type CommandKind = 'location' | 'text' | 'control' | 'params';
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
  | { kind: 'params'; params: ParamValue[] };

/** Sends a command and waits up to `waitMs` for the terminal's answer (406: the terminal is offline). */
export function sendCommand(terminalId: number, body: CommandBody, waitMs = 10_000) {
  const { kind, ...rest } = body;
  return call<TerminalCommand>(`/vehicle/terminal/${terminalId}/command/${kind}`, { method: 'POST', data: { ...rest, waitMs }, authority: COMMAND_CODE, skipErrorHandler: true });
}

export const commandById = (terminalId: number, commandId: number) =>
  call<TerminalCommand>(`/vehicle/terminal/${terminalId}/command/${commandId}`, { method: 'GET', skipErrorHandler: true });
