/**
 * Downlink routes: /api/vehicle/terminal/{id}/command/{location|params|text|control|readParams|
 * attributes|tracking|vehicleControl|fence|photo} send a command to a terminal in the caller's organisation
 * subtree (406 when it is offline), each audited (`terminalCommand`); GET …/command and
 * …/command/{commandId} read the commands and the terminal's answers.
 */

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { callerOf } from '../../platform/auth/authenticate';
import { NONE } from '../../platform/auth/caller';
import type { DB } from '../../platform/db/tables';
import { AppError, invalid, notFound } from '../../platform/http/errors';
import { typed } from '../../platform/http/typed';
import { terminalById } from '../gateway/terminals';
import {
  CONTROL_COMMAND,
  encodeGbk,
  MsgId,
  PHOTO_RESOLUTIONS,
  VEHICLE_CONTROL_DOORS,
  type Jt808BodyInput,
  type TerminalParam,
} from '../jt808/codec';
import { auditRequest } from '../../platform/audit';
import { fenceMessage, type FenceAction } from './fenceAreas';
import { registerCommandPhotosRoute } from './photoRoutes';
import type { CommandKind, CommandService } from './service';
import { pathInSubtree } from '../../platform/scope';

export const COMMAND_PERMISSION = 'terminal-command';
type SimpleKind = Exclude<CommandKind, 'upgrade'>;
const LABELS = 'telematics.fields';
/** Longest wait a caller may ask for before the answer (the command itself stays tracked). */
const MAX_WAIT_MS = 15_000;
/** Most photos one take-photo command asks for. */
export const PHOTO_MAX_COUNT = 10;

const rowId = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;
export const terminalParams = { type: 'object', required: ['id'], properties: { id: rowId } } as const;
/** A command of a terminal: `/terminal/:id/command/:commandId…`. */
export const commandParams = { type: 'object', required: ['id', 'commandId'], properties: { id: rowId, commandId: rowId } } as const;
const waitMs = { type: 'integer', minimum: 0, maximum: MAX_WAIT_MS };

/** Each kind's body; an upgrade has its own route and code (upgradeRoutes.ts). */
const bodies: Record<SimpleKind, Record<string, unknown>> = {
  location: { type: 'object', additionalProperties: false, properties: { waitMs } },
  params: {
    type: 'object',
    additionalProperties: false,
    required: ['params'],
    properties: {
      waitMs,
      params: {
        type: 'array',
        minItems: 1,
        maxItems: 32,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'type', 'value'],
          properties: {
            id: { type: 'integer', minimum: 0, maximum: 4294967295 },
            type: { type: 'string', enum: ['u8', 'u16', 'u32', 'string', 'bytes'] },
            value: { type: ['integer', 'string'] },
          },
        },
      },
    },
  },
  text: {
    type: 'object',
    additionalProperties: false,
    required: ['text'],
    properties: {
      waitMs,
      text: { type: 'string', minLength: 1, maxLength: 400 },
      emergency: { type: 'boolean' },
      display: { type: 'boolean' },
      tts: { type: 'boolean' },
    },
  },
  // 0x8104 (all parameters) without ids, 0x8106 with them; the answer's parameters are the response.
  readParams: {
    type: 'object',
    additionalProperties: false,
    properties: {
      waitMs,
      ids: { type: 'array', minItems: 1, maxItems: 255, uniqueItems: true, items: { type: 'integer', minimum: 0, maximum: 4294967295 } },
    },
  },
  // 0x8107: the answer (0x0107) is the response, `{attributes}`.
  attributes: { type: 'object', additionalProperties: false, properties: { waitMs } },
  // 0x8202: report every `interval` s for `duration` s; interval 0 stops it.
  tracking: {
    type: 'object',
    additionalProperties: false,
    required: ['interval', 'duration'],
    properties: {
      waitMs,
      interval: { type: 'integer', minimum: 0, maximum: 65535 },
      duration: { type: 'integer', minimum: 0, maximum: 4294967295 },
    },
  },
  // 0x8500 doors; the answer (0x0500) gives the position and whether the doors are locked.
  vehicleControl: {
    type: 'object',
    additionalProperties: false,
    required: ['doors'],
    properties: { waitMs, doors: { type: 'string', enum: ['lock', 'unlock'] } },
  },
  // A platform fence sent as the terminal's own area (set) or taken off it (delete).
  fence: {
    type: 'object',
    additionalProperties: false,
    required: ['fenceId', 'action'],
    properties: {
      waitMs,
      fenceId: { type: 'integer', minimum: 1, maximum: 2147483647 },
      action: { type: 'string', enum: ['set', 'delete'] },
    },
  },
  // 0x8801: `count` photos `interval` s apart, uploaded at once (0x0801) unless `save` keeps them on
  // the terminal; the answer (0x0805) lists their media ids. The console asks for a few photos:
  // recording (0xFFFF) and stop (0) are not photo commands.
  photo: {
    type: 'object',
    additionalProperties: false,
    properties: {
      waitMs,
      channel: { type: 'integer', minimum: 1, maximum: 255, default: 1 },
      count: { type: 'integer', minimum: 1, maximum: PHOTO_MAX_COUNT, default: 1 },
      interval: { type: 'integer', minimum: 0, maximum: 3600, default: 0 },
      resolution: { type: 'integer', enum: Object.keys(PHOTO_RESOLUTIONS).map(Number), default: 1 },
      quality: { type: 'integer', minimum: 1, maximum: 10, default: 5 },
      save: { type: 'boolean', default: false },
      brightness: { type: 'integer', minimum: 0, maximum: 255, default: 128 },
      contrast: { type: 'integer', minimum: 0, maximum: 127, default: 64 },
      saturation: { type: 'integer', minimum: 0, maximum: 127, default: 64 },
      chroma: { type: 'integer', minimum: 0, maximum: 255, default: 128 },
    },
  },
  control: {
    type: 'object',
    additionalProperties: false,
    required: ['command'],
    properties: {
      waitMs,
      command: {
        anyOf: [
          { type: 'string', enum: ['engineStop', 'engineResume'] },
          { type: 'integer', minimum: 0, maximum: 255 },
        ],
      },
      params: { type: 'string', maxLength: 200 },
    },
  },
};

interface ParamInput {
  id: number;
  type: TerminalParam['type'];
  value: number | string;
}

const WIDTH_MAX: Record<string, number> = { u8: 0xff, u16: 0xffff, u32: 0xffffffff };

function toParam(p: ParamInput, i: number): TerminalParam {
  const bad = () => invalid([{ field: `params.${i}.value`, key: 'telematics.badParamValue', params: {}, labelKey: `${LABELS}.params` }]);
  if (p.type === 'string') {
    if (typeof p.value !== 'string' || encodeGbk(p.value).length > 255) throw bad();
    return { id: p.id, type: 'string', value: p.value };
  }
  if (p.type === 'bytes') {
    if (typeof p.value !== 'string' || !/^(?:[0-9a-fA-F]{2}){0,255}$/.test(p.value)) throw bad();
    return { id: p.id, type: 'bytes', value: p.value.toLowerCase() };
  }
  if (typeof p.value !== 'number' || !Number.isInteger(p.value) || p.value < 0 || p.value > WIDTH_MAX[p.type]) throw bad();
  return { id: p.id, type: p.type, value: p.value };
}

/** The JT/T 808 message for a validated request body (a fence's is read from the database: fenceAreas.ts). */
export function commandMessage(kind: Exclude<SimpleKind, 'fence'>, body: Record<string, unknown>): Jt808BodyInput {
  switch (kind) {
    case 'attributes':
      return { msgId: MsgId.QueryAttributes };
    case 'tracking':
      return { msgId: MsgId.TemporaryTracking, body: { interval: body.interval as number, validity: body.duration as number } };
    case 'vehicleControl': {
      // 2013: flag bit 0, 1 locks; 2019: item 0x0001 doors, 0 locks (each layout reads its own field).
      const lock = body.doors === 'lock';
      return { msgId: MsgId.VehicleControl, body: { flag: lock ? 1 : 0, items: [{ type: VEHICLE_CONTROL_DOORS, value: lock ? 0 : 1 }] } };
    }
    case 'photo': {
      const n = (k: string) => body[k] as number;
      return {
        msgId: MsgId.TakePhoto,
        body: {
          channel: n('channel'),
          command: n('count'),
          interval: n('interval'),
          save: body.save ? 1 : 0,
          resolution: n('resolution'),
          quality: n('quality'),
          brightness: n('brightness'),
          contrast: n('contrast'),
          saturation: n('saturation'),
          chroma: n('chroma'),
        },
      };
    }
    case 'location':
      return { msgId: MsgId.LocationQuery };
    case 'params':
      return { msgId: MsgId.SetParams, body: { params: (body.params as ParamInput[]).map(toParam) } };
    case 'text': {
      // Flag bits (2013): 0 emergency, 2 terminal display, 3 TTS read-out. Display is the default.
      const flag = (body.emergency ? 1 : 0) | (body.display === false ? 0 : 4) | (body.tts ? 8 : 0);
      return { msgId: MsgId.Text, body: { flag, text: body.text as string } };
    }
    case 'readParams':
      return body.ids === undefined ? { msgId: MsgId.QueryAllParams } : { msgId: MsgId.QueryParams, body: { ids: body.ids as number[] } };
    case 'control': {
      const c = body.command;
      const command = c === 'engineStop' ? CONTROL_COMMAND.engineStop : c === 'engineResume' ? CONTROL_COMMAND.engineResume : (c as number);
      return { msgId: MsgId.TerminalControl, body: body.params === undefined ? { command } : { command, params: body.params as string } };
    }
  }
}

/** The terminal named in the path, if the caller's subtree holds it (else 404, as for any unseen row). */
export async function scopedTerminal(db: Kysely<DB>, req: FastifyRequest & { params: { id: number } }): Promise<number> {
  const { id } = req.params;
  const t = await terminalById(db, id);
  if (!t || !pathInSubtree(callerOf(req).orgPath, t.orgPath)) throw notFound();
  return id;
}

/** `commands` is null when the gateway is disabled: every terminal is then offline. */
export function registerCommandRoutes(fastify: FastifyInstance, db: Kysely<DB>, commands: CommandService | null): void {
  const app = typed(fastify);
  const base = '/api/vehicle/terminal/:id/command';
  registerCommandPhotosRoute(app, db);
  for (const kind of Object.keys(bodies) as SimpleKind[]) {
    app.post(
      `${base}/${kind}`,
      {
        config: { permission: COMMAND_PERMISSION, labels: LABELS },
        schema: { tags: ['telematics'], summary: `send a ${kind} command`, params: terminalParams, body: bodies[kind] },
      },
      async (req) => {
        const terminalId = await scopedTerminal(db, req);
        const caller = callerOf(req);
        const body = (req.body ?? {}) as Record<string, unknown>;
        const message =
          kind === 'fence'
            ? await fenceMessage(db, caller.orgPath, body.fenceId as number, body.action as FenceAction)
            : commandMessage(kind, body);
        const { waitMs: wait, ...request } = body;
        const sent = await commands?.send(terminalId, kind, message, request, caller.memberId, (wait as number | undefined) ?? 0);
        const terminalNo = (await terminalById(db, terminalId))?.terminalNo;
        await auditRequest(
          db,
          req,
          caller,
          'terminalCommand',
          terminalNo,
          { kind, request, commandId: sent?.id ?? null },
          sent !== null && sent !== undefined,
        );
        if (!sent) throw new AppError(406, 'telematics.terminalOffline');
        return sent;
      },
    );
  }
  app.get(
    base,
    {
      config: { permission: NONE },
      schema: {
        tags: ['telematics'],
        summary: 'recent commands of a terminal',
        params: terminalParams,
        querystring: { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 } } },
      },
    },
    async (req) => {
      const terminalId = await scopedTerminal(db, req);
      return commands ? commands.list(terminalId, req.query.limit) : [];
    },
  );
  app.get(
    `${base}/:commandId`,
    { config: { permission: NONE }, schema: { tags: ['telematics'], summary: 'one command and its answer', params: commandParams } },
    async (req) => {
      const terminalId = await scopedTerminal(db, req);
      const found = await commands?.get(terminalId, req.params.commandId);
      if (!found) throw notFound();
      return found;
    },
  );
}
