/**
 * Message registry: body types per message id (a discriminated union on msgId) and the
 * decode / encode dispatch.
 */

import { MsgId as MsgIdImport, type Jt808Version } from '../constants';
import { Jt808EncodeError } from '../errors';
import { decodeAuth, encodeAuth, type AuthBody } from './auth';
import { decodeBatchLocation, encodeBatchLocation, type BatchLocationBody, type BatchLocationInput } from './batch';
import type { BodyContext } from './context';
import { decodeTerminalControl, encodeTerminalControl, type TerminalControlBody } from './control';
import { decodeGeneralResponse, encodeGeneralResponse, type GeneralResponseBody, type GeneralResponseInput } from './general';
import * as location from './location';
import {
  decodeLocationQueryResponse,
  encodeLocation,
  encodeLocationQueryResponse,
  type LocationBody,
  type LocationInput,
  type LocationQueryResponseBody,
  type LocationQueryResponseInput,
} from './location';
import {
  decodeParamsResponse,
  decodeQueryParams,
  decodeSetParams,
  encodeParamsResponse,
  encodeQueryParams,
  encodeSetParams,
  type ParamsResponseBody,
  type QueryParamsBody,
  type SetParamsBody,
} from './params';
import {
  decodeRegister,
  decodeRegisterResponse,
  encodeRegister,
  encodeRegisterResponse,
  type RegisterBody,
  type RegisterInput,
  type RegisterResponseBody,
  type RegisterResponseInput,
} from './register';
import { decodeEmpty, decodeHeartbeat, encodeEmpty, encodeHeartbeat, type EmptyBody, type HeartbeatBody } from './session';
import { decodeText, encodeText, type TextMessageBody, type TextMessageInput } from './text';
import { decodeTransparent, encodeTransparent, type TransparentBody, type TransparentInput } from './transparent';
import { decodeWaybill, encodeWaybill, type WaybillBody, type WaybillInput } from './waybill';

/** Decoded bodies, one variant per message id. */
export type Jt808Body =
  | { msgId: typeof MsgId.TerminalResponse; body: GeneralResponseBody }
  | { msgId: typeof MsgId.PlatformResponse; body: GeneralResponseBody }
  | { msgId: typeof MsgId.Heartbeat; body: HeartbeatBody }
  | { msgId: typeof MsgId.Logout; body: EmptyBody }
  | { msgId: typeof MsgId.Register; body: RegisterBody }
  | { msgId: typeof MsgId.RegisterResponse; body: RegisterResponseBody }
  | { msgId: typeof MsgId.Auth; body: AuthBody }
  | { msgId: typeof MsgId.Location; body: LocationBody }
  | { msgId: typeof MsgId.LocationQuery; body: EmptyBody }
  | { msgId: typeof MsgId.LocationQueryResponse; body: LocationQueryResponseBody }
  | { msgId: typeof MsgId.BatchLocation; body: BatchLocationBody }
  | { msgId: typeof MsgId.Waybill; body: WaybillBody }
  | { msgId: typeof MsgId.Transparent; body: TransparentBody }
  | { msgId: typeof MsgId.SetParams; body: SetParamsBody }
  | { msgId: typeof MsgId.QueryAllParams; body: EmptyBody }
  | { msgId: typeof MsgId.QueryParams; body: QueryParamsBody }
  | { msgId: typeof MsgId.ParamsResponse; body: ParamsResponseBody }
  | { msgId: typeof MsgId.TerminalControl; body: TerminalControlBody }
  | { msgId: typeof MsgId.Text; body: TextMessageBody };

/** Encoder inputs, one variant per message id (decoded bodies are accepted as they are). */
export type Jt808BodyInput =
  | { msgId: typeof MsgId.TerminalResponse; body: GeneralResponseInput }
  | { msgId: typeof MsgId.PlatformResponse; body: GeneralResponseInput }
  | { msgId: typeof MsgId.Heartbeat; body?: HeartbeatBody }
  | { msgId: typeof MsgId.Logout; body?: EmptyBody }
  | { msgId: typeof MsgId.Register; body: RegisterInput }
  | { msgId: typeof MsgId.RegisterResponse; body: RegisterResponseInput }
  | { msgId: typeof MsgId.Auth; body: AuthBody }
  | { msgId: typeof MsgId.Location; body: LocationInput }
  | { msgId: typeof MsgId.LocationQuery; body?: EmptyBody }
  | { msgId: typeof MsgId.LocationQueryResponse; body: LocationQueryResponseInput }
  | { msgId: typeof MsgId.BatchLocation; body: BatchLocationInput }
  | { msgId: typeof MsgId.Waybill; body: WaybillInput }
  | { msgId: typeof MsgId.Transparent; body: TransparentInput }
  | { msgId: typeof MsgId.SetParams; body: SetParamsBody }
  | { msgId: typeof MsgId.QueryAllParams; body?: EmptyBody }
  | { msgId: typeof MsgId.QueryParams; body: QueryParamsBody }
  | { msgId: typeof MsgId.ParamsResponse; body: ParamsResponseBody }
  | { msgId: typeof MsgId.TerminalControl; body: TerminalControlBody }
  | { msgId: typeof MsgId.Text; body: TextMessageInput };

// Under CommonJS transpilation (tsx, jest) every use of an imported name is a getter call;
// this hot path binds what it uses once, at load.
const MsgId = MsgIdImport;
const { decodeLocation } = location;

const KNOWN: ReadonlySet<number> = new Set(Object.values(MsgId));

export function isKnownMsgId(id: number): boolean {
  return KNOWN.has(id);
}

/**
 * Decode the body [start, end) of a known message id; undefined for ids this codec does not know.
 * Throws only Jt808DecodeError. For 0x0100 the returned layout may say 2011.
 */
export function decodeBody(msgId: number, p: Buffer, start: number, end: number, ctx: BodyContext): Jt808Body | undefined {
  const tz = ctx.tzOffsetMinutes;
  switch (msgId) {
    case MsgId.Location:
      return { msgId: MsgId.Location, body: decodeLocation(p, start, end, tz) };
    case MsgId.TerminalResponse:
      return { msgId: MsgId.TerminalResponse, body: decodeGeneralResponse(p, start, end, false) };
    case MsgId.PlatformResponse:
      return { msgId: MsgId.PlatformResponse, body: decodeGeneralResponse(p, start, end, true) };
    case MsgId.Heartbeat:
      return { msgId: MsgId.Heartbeat, body: decodeHeartbeat(p, start, end) };
    case MsgId.Logout:
      return { msgId: MsgId.Logout, body: decodeEmpty(p, start, end) };
    case MsgId.Register:
      return { msgId: MsgId.Register, body: decodeRegister(p, start, end, ctx.version) };
    case MsgId.RegisterResponse:
      return { msgId: MsgId.RegisterResponse, body: decodeRegisterResponse(p, start, end) };
    case MsgId.Auth:
      return { msgId: MsgId.Auth, body: decodeAuth(p, start, end, ctx.version) };
    case MsgId.LocationQuery:
      return { msgId: MsgId.LocationQuery, body: decodeEmpty(p, start, end) };
    case MsgId.LocationQueryResponse:
      return { msgId: MsgId.LocationQueryResponse, body: decodeLocationQueryResponse(p, start, end, tz) };
    case MsgId.BatchLocation:
      return { msgId: MsgId.BatchLocation, body: decodeBatchLocation(p, start, end, tz) };
    case MsgId.Transparent:
      return { msgId: MsgId.Transparent, body: decodeTransparent(p, start, end, tz) };
    case MsgId.Waybill:
      return { msgId: MsgId.Waybill, body: decodeWaybill(p, start, end) };
    case MsgId.SetParams:
      return { msgId: MsgId.SetParams, body: decodeSetParams(p, start, end) };
    case MsgId.QueryAllParams:
      return { msgId: MsgId.QueryAllParams, body: decodeEmpty(p, start, end) };
    case MsgId.QueryParams:
      return { msgId: MsgId.QueryParams, body: decodeQueryParams(p, start, end) };
    case MsgId.ParamsResponse:
      return { msgId: MsgId.ParamsResponse, body: decodeParamsResponse(p, start, end) };
    case MsgId.TerminalControl:
      return { msgId: MsgId.TerminalControl, body: decodeTerminalControl(p, start, end) };
    case MsgId.Text:
      return { msgId: MsgId.Text, body: decodeText(p, start, end, ctx.version) };
    default:
      return undefined;
  }
}

/** Body bytes of a message (not framed). */
export function encodeBody(m: Jt808BodyInput, version: Jt808Version, tzOffsetMinutes: number): Buffer {
  const opts = { tzOffsetMinutes };
  switch (m.msgId) {
    case MsgId.TerminalResponse:
    case MsgId.PlatformResponse:
      return encodeGeneralResponse(m.body);
    case MsgId.Heartbeat:
      return encodeHeartbeat(m.body);
    case MsgId.Logout:
    case MsgId.LocationQuery:
    case MsgId.QueryAllParams:
      return encodeEmpty(m.body);
    case MsgId.QueryParams:
      return encodeQueryParams(m.body);
    case MsgId.ParamsResponse:
      return encodeParamsResponse(m.body);
    case MsgId.Register:
      return encodeRegister(m.body, version);
    case MsgId.RegisterResponse:
      return encodeRegisterResponse(m.body);
    case MsgId.Auth:
      return encodeAuth(m.body, version);
    case MsgId.Location:
      return encodeLocation(m.body, opts);
    case MsgId.LocationQueryResponse:
      return encodeLocationQueryResponse(m.body, opts);
    case MsgId.BatchLocation:
      return encodeBatchLocation(m.body, opts);
    case MsgId.Transparent:
      return encodeTransparent(m.body, tzOffsetMinutes);
    case MsgId.Waybill:
      return encodeWaybill(m.body);
    case MsgId.SetParams:
      return encodeSetParams(m.body);
    case MsgId.TerminalControl:
      return encodeTerminalControl(m.body);
    case MsgId.Text:
      return encodeText(m.body, version);
    default: {
      const never: never = m;
      throw new Jt808EncodeError('BAD_FIELD', `no encoder for ${JSON.stringify(never)}`);
    }
  }
}

export * from './auth';
export * from './batch';
export * from './context';
export * from './control';
export * from './general';
export * from './location';
export * from './locationExtras';
export * from './locationFlags';
export * from './obd';
export * from './params';
export * from './register';
export * from './session';
export * from './text';
export * from './tlv';
export * from './transparent';
export * from './waybill';
