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
import {
  decodeAreaQuery,
  decodeAreaQueryResponse,
  decodeCircleAreas,
  decodeDeleteAreas,
  decodePolygonArea,
  decodeRectangleAreas,
  decodeRoute,
  encodeAreaQuery,
  encodeAreaQueryResponse,
  encodeCircleAreas,
  encodeDeleteAreas,
  encodePolygonArea,
  encodeRectangleAreas,
  encodeRoute,
  type AreaQueryBody,
  type AreaQueryResponseBody,
  type CircleAreasBody,
  type DeleteAreasBody,
  type PolygonArea,
  type RectangleAreasBody,
  type Route,
} from './areas';
import { decodeTerminalAttributes, encodeTerminalAttributes, type TerminalAttributesBody } from './attributes';
import { decodeCanData, encodeCanData, type CanDataBody } from './canData';
import { decodeDriverIdentity, encodeDriverIdentity, type DriverIdentityBody } from './driverIdentity';
import {
  decodeEventReport,
  decodeEventSetting,
  decodeInfoDemand,
  decodeInfoMenu,
  decodeInfoService,
  decodeQuestion,
  decodeQuestionAnswer,
  encodeEventReport,
  encodeEventSetting,
  encodeInfoDemand,
  encodeInfoMenu,
  encodeInfoService,
  encodeQuestion,
  encodeQuestionAnswer,
  type EventReportBody,
  type EventSettingBody,
  type InfoDemandBody,
  type InfoMenuBody,
  type InfoServiceBody,
  type QuestionAnswerBody,
  type QuestionBody,
} from './events';
import {
  decodeMediaData,
  decodeMediaDataResponse,
  decodeMediaEvent,
  decodeMediaSearch,
  decodeMediaSearchResponse,
  decodeRecordSound,
  decodeSingleMediaUpload,
  decodeStoredMediaUpload,
  decodeTakePhoto,
  decodeTakePhotoResponse,
  encodeMediaData,
  encodeMediaDataResponse,
  encodeMediaEvent,
  encodeMediaSearch,
  encodeMediaSearchResponse,
  encodeRecordSound,
  encodeSingleMediaUpload,
  encodeStoredMediaUpload,
  encodeTakePhoto,
  encodeTakePhotoResponse,
  type MediaDataBody,
  type MediaDataInput,
  type MediaDataResponseBody,
  type MediaEventBody,
  type MediaSearchBody,
  type MediaSearchResponseBody,
  type MediaSearchResponseInput,
  type RecordSoundBody,
  type SingleMediaUploadBody,
  type StoredMediaUploadBody,
  type TakePhotoBody,
  type TakePhotoResponseBody,
} from './media';
import {
  decodeCompressed,
  decodePassThroughDown,
  decodeRsaKey,
  encodeCompressed,
  encodePassThroughDown,
  encodeRsaKey,
  type CompressedBody,
  type CompressedInput,
  type PassThroughDownBody,
  type RsaKeyBody,
} from './passThrough';
import { decodeCallBack, decodePhoneBook, encodeCallBack, encodePhoneBook, type CallBackBody, type PhoneBookBody } from './phone';
import {
  decodeRecorderCommand,
  decodeRecorderData,
  encodeRecorderCommand,
  encodeRecorderData,
  type RecorderCommandBody,
  type RecorderDataBody,
} from './recorder';
import { decodeRetransmitRequest, encodeRetransmitRequest, type RetransmitRequestBody } from './retransmit';
import { decodeServerTime, encodeServerTime, type ServerTimeBody } from './serverTime';
import {
  decodeAlarmConfirm,
  decodeTemporaryTracking,
  encodeAlarmConfirm,
  encodeTemporaryTracking,
  type AlarmConfirmBody,
  type TemporaryTrackingBody,
} from './tracking';
import {
  decodeUpgradePackage,
  decodeUpgradeResult,
  encodeUpgradePackage,
  encodeUpgradeResult,
  type UpgradePackageBody,
  type UpgradeResultBody,
} from './upgrade';
import {
  decodeVehicleControl,
  decodeVehicleControlResponse,
  encodeVehicleControl,
  encodeVehicleControlResponse,
  type VehicleControlBody,
  type VehicleControlResponseBody,
  type VehicleControlResponseInput,
} from './vehicleControl';
import {
  decodeLiveVideoControl,
  decodeLiveVideoRequest,
  decodeLiveVideoStatus,
  decodePassengerCounts,
  decodeVideoAttributes,
  encodeLiveVideoControl,
  encodeLiveVideoRequest,
  encodeLiveVideoStatus,
  encodePassengerCounts,
  encodeVideoAttributes,
  type LiveVideoControlBody,
  type LiveVideoRequestBody,
  type LiveVideoStatusBody,
  type PassengerCountsBody,
  type VideoAttributesBody,
} from './videoLive';
import {
  decodeFtpUpload,
  decodeFtpUploadDone,
  decodePlaybackControl,
  decodePlaybackRequest,
  decodeResourceList,
  decodeResourceQuery,
  encodeFtpUpload,
  encodeFtpUploadDone,
  encodePlaybackControl,
  encodePlaybackRequest,
  encodeResourceList,
  encodeResourceQuery,
  type FtpUploadBody,
  type FtpUploadDoneBody,
  type PlaybackControlBody,
  type PlaybackRequestBody,
  type ResourceListBody,
  type ResourceQueryBody,
} from './videoRecords';

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
  | { msgId: typeof MsgId.Text; body: TextMessageBody }
  | { msgId: typeof MsgId.QueryServerTime; body: EmptyBody }
  | { msgId: typeof MsgId.ServerTime; body: ServerTimeBody }
  | { msgId: typeof MsgId.RetransmitRequest; body: RetransmitRequestBody }
  | { msgId: typeof MsgId.TerminalRetransmitRequest; body: RetransmitRequestBody }
  | { msgId: typeof MsgId.QueryAttributes; body: EmptyBody }
  | { msgId: typeof MsgId.AttributesResponse; body: TerminalAttributesBody }
  | { msgId: typeof MsgId.UpgradePackage; body: UpgradePackageBody }
  | { msgId: typeof MsgId.UpgradeResult; body: UpgradeResultBody }
  | { msgId: typeof MsgId.TemporaryTracking; body: TemporaryTrackingBody }
  | { msgId: typeof MsgId.AlarmConfirm; body: AlarmConfirmBody }
  | { msgId: typeof MsgId.LinkCheck; body: EmptyBody }
  | { msgId: typeof MsgId.EventSetting; body: EventSettingBody }
  | { msgId: typeof MsgId.EventReport; body: EventReportBody }
  | { msgId: typeof MsgId.Question; body: QuestionBody }
  | { msgId: typeof MsgId.QuestionAnswer; body: QuestionAnswerBody }
  | { msgId: typeof MsgId.InfoMenu; body: InfoMenuBody }
  | { msgId: typeof MsgId.InfoDemand; body: InfoDemandBody }
  | { msgId: typeof MsgId.InfoService; body: InfoServiceBody }
  | { msgId: typeof MsgId.CallBack; body: CallBackBody }
  | { msgId: typeof MsgId.PhoneBook; body: PhoneBookBody }
  | { msgId: typeof MsgId.VehicleControl; body: VehicleControlBody }
  | { msgId: typeof MsgId.VehicleControlResponse; body: VehicleControlResponseBody }
  | { msgId: typeof MsgId.SetCircleAreas; body: CircleAreasBody }
  | { msgId: typeof MsgId.DeleteCircleAreas; body: DeleteAreasBody }
  | { msgId: typeof MsgId.SetRectangleAreas; body: RectangleAreasBody }
  | { msgId: typeof MsgId.DeleteRectangleAreas; body: DeleteAreasBody }
  | { msgId: typeof MsgId.SetPolygonArea; body: PolygonArea }
  | { msgId: typeof MsgId.DeletePolygonAreas; body: DeleteAreasBody }
  | { msgId: typeof MsgId.SetRoute; body: Route }
  | { msgId: typeof MsgId.DeleteRoutes; body: DeleteAreasBody }
  | { msgId: typeof MsgId.QueryAreas; body: AreaQueryBody }
  | { msgId: typeof MsgId.AreasResponse; body: AreaQueryResponseBody }
  | { msgId: typeof MsgId.RecorderCollect; body: RecorderCommandBody }
  | { msgId: typeof MsgId.RecorderParams; body: RecorderCommandBody }
  | { msgId: typeof MsgId.RecorderData; body: RecorderDataBody }
  | { msgId: typeof MsgId.DriverIdentity; body: DriverIdentityBody }
  | { msgId: typeof MsgId.RequestDriverIdentity; body: EmptyBody }
  | { msgId: typeof MsgId.CanData; body: CanDataBody }
  | { msgId: typeof MsgId.MediaEvent; body: MediaEventBody }
  | { msgId: typeof MsgId.MediaData; body: MediaDataBody }
  | { msgId: typeof MsgId.MediaDataResponse; body: MediaDataResponseBody }
  | { msgId: typeof MsgId.TakePhoto; body: TakePhotoBody }
  | { msgId: typeof MsgId.TakePhotoResponse; body: TakePhotoResponseBody }
  | { msgId: typeof MsgId.MediaSearch; body: MediaSearchBody }
  | { msgId: typeof MsgId.MediaSearchResponse; body: MediaSearchResponseBody }
  | { msgId: typeof MsgId.StoredMediaUpload; body: StoredMediaUploadBody }
  | { msgId: typeof MsgId.RecordSound; body: RecordSoundBody }
  | { msgId: typeof MsgId.SingleMediaUpload; body: SingleMediaUploadBody }
  | { msgId: typeof MsgId.PassThroughDown; body: PassThroughDownBody }
  | { msgId: typeof MsgId.Compressed; body: CompressedBody }
  | { msgId: typeof MsgId.PlatformRsaKey; body: RsaKeyBody }
  | { msgId: typeof MsgId.TerminalRsaKey; body: RsaKeyBody }
  | { msgId: typeof MsgId.QueryVideoAttributes; body: EmptyBody }
  | { msgId: typeof MsgId.VideoAttributes; body: VideoAttributesBody }
  | { msgId: typeof MsgId.PassengerCounts; body: PassengerCountsBody }
  | { msgId: typeof MsgId.LiveVideoRequest; body: LiveVideoRequestBody }
  | { msgId: typeof MsgId.LiveVideoControl; body: LiveVideoControlBody }
  | { msgId: typeof MsgId.LiveVideoStatus; body: LiveVideoStatusBody }
  | { msgId: typeof MsgId.PlaybackRequest; body: PlaybackRequestBody }
  | { msgId: typeof MsgId.PlaybackControl; body: PlaybackControlBody }
  | { msgId: typeof MsgId.ResourceQuery; body: ResourceQueryBody }
  | { msgId: typeof MsgId.ResourceList; body: ResourceListBody }
  | { msgId: typeof MsgId.FtpUpload; body: FtpUploadBody }
  | { msgId: typeof MsgId.FtpUploadDone; body: FtpUploadDoneBody };

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
  | { msgId: typeof MsgId.Text; body: TextMessageInput }
  | { msgId: typeof MsgId.QueryServerTime; body?: EmptyBody }
  | { msgId: typeof MsgId.ServerTime; body: ServerTimeBody }
  | { msgId: typeof MsgId.RetransmitRequest; body: RetransmitRequestBody }
  | { msgId: typeof MsgId.TerminalRetransmitRequest; body: RetransmitRequestBody }
  | { msgId: typeof MsgId.QueryAttributes; body?: EmptyBody }
  | { msgId: typeof MsgId.AttributesResponse; body: TerminalAttributesBody }
  | { msgId: typeof MsgId.UpgradePackage; body: UpgradePackageBody }
  | { msgId: typeof MsgId.UpgradeResult; body: UpgradeResultBody }
  | { msgId: typeof MsgId.TemporaryTracking; body: TemporaryTrackingBody }
  | { msgId: typeof MsgId.AlarmConfirm; body: AlarmConfirmBody }
  | { msgId: typeof MsgId.LinkCheck; body?: EmptyBody }
  | { msgId: typeof MsgId.EventSetting; body: EventSettingBody }
  | { msgId: typeof MsgId.EventReport; body: EventReportBody }
  | { msgId: typeof MsgId.Question; body: QuestionBody }
  | { msgId: typeof MsgId.QuestionAnswer; body: QuestionAnswerBody }
  | { msgId: typeof MsgId.InfoMenu; body: InfoMenuBody }
  | { msgId: typeof MsgId.InfoDemand; body: InfoDemandBody }
  | { msgId: typeof MsgId.InfoService; body: InfoServiceBody }
  | { msgId: typeof MsgId.CallBack; body: CallBackBody }
  | { msgId: typeof MsgId.PhoneBook; body: PhoneBookBody }
  | { msgId: typeof MsgId.VehicleControl; body: VehicleControlBody }
  | { msgId: typeof MsgId.VehicleControlResponse; body: VehicleControlResponseInput }
  | { msgId: typeof MsgId.SetCircleAreas; body: CircleAreasBody }
  | { msgId: typeof MsgId.DeleteCircleAreas; body: DeleteAreasBody }
  | { msgId: typeof MsgId.SetRectangleAreas; body: RectangleAreasBody }
  | { msgId: typeof MsgId.DeleteRectangleAreas; body: DeleteAreasBody }
  | { msgId: typeof MsgId.SetPolygonArea; body: PolygonArea }
  | { msgId: typeof MsgId.DeletePolygonAreas; body: DeleteAreasBody }
  | { msgId: typeof MsgId.SetRoute; body: Route }
  | { msgId: typeof MsgId.DeleteRoutes; body: DeleteAreasBody }
  | { msgId: typeof MsgId.QueryAreas; body: AreaQueryBody }
  | { msgId: typeof MsgId.AreasResponse; body: AreaQueryResponseBody }
  | { msgId: typeof MsgId.RecorderCollect; body: RecorderCommandBody }
  | { msgId: typeof MsgId.RecorderParams; body: RecorderCommandBody }
  | { msgId: typeof MsgId.RecorderData; body: RecorderDataBody }
  | { msgId: typeof MsgId.DriverIdentity; body: DriverIdentityBody }
  | { msgId: typeof MsgId.RequestDriverIdentity; body?: EmptyBody }
  | { msgId: typeof MsgId.CanData; body: CanDataBody }
  | { msgId: typeof MsgId.MediaEvent; body: MediaEventBody }
  | { msgId: typeof MsgId.MediaData; body: MediaDataInput }
  | { msgId: typeof MsgId.MediaDataResponse; body: MediaDataResponseBody }
  | { msgId: typeof MsgId.TakePhoto; body: TakePhotoBody }
  | { msgId: typeof MsgId.TakePhotoResponse; body: TakePhotoResponseBody }
  | { msgId: typeof MsgId.MediaSearch; body: MediaSearchBody }
  | { msgId: typeof MsgId.MediaSearchResponse; body: MediaSearchResponseInput }
  | { msgId: typeof MsgId.StoredMediaUpload; body: StoredMediaUploadBody }
  | { msgId: typeof MsgId.RecordSound; body: RecordSoundBody }
  | { msgId: typeof MsgId.SingleMediaUpload; body: SingleMediaUploadBody }
  | { msgId: typeof MsgId.PassThroughDown; body: PassThroughDownBody }
  | { msgId: typeof MsgId.Compressed; body: CompressedInput }
  | { msgId: typeof MsgId.PlatformRsaKey; body: RsaKeyBody }
  | { msgId: typeof MsgId.TerminalRsaKey; body: RsaKeyBody }
  | { msgId: typeof MsgId.QueryVideoAttributes; body?: EmptyBody }
  | { msgId: typeof MsgId.VideoAttributes; body: VideoAttributesBody }
  | { msgId: typeof MsgId.PassengerCounts; body: PassengerCountsBody }
  | { msgId: typeof MsgId.LiveVideoRequest; body: LiveVideoRequestBody }
  | { msgId: typeof MsgId.LiveVideoControl; body: LiveVideoControlBody }
  | { msgId: typeof MsgId.LiveVideoStatus; body: LiveVideoStatusBody }
  | { msgId: typeof MsgId.PlaybackRequest; body: PlaybackRequestBody }
  | { msgId: typeof MsgId.PlaybackControl; body: PlaybackControlBody }
  | { msgId: typeof MsgId.ResourceQuery; body: ResourceQueryBody }
  | { msgId: typeof MsgId.ResourceList; body: ResourceListBody }
  | { msgId: typeof MsgId.FtpUpload; body: FtpUploadBody }
  | { msgId: typeof MsgId.FtpUploadDone; body: FtpUploadDoneBody };

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
    case MsgId.QueryServerTime:
      return { msgId: MsgId.QueryServerTime, body: decodeEmpty(p, start, end) };
    case MsgId.ServerTime:
      return { msgId: MsgId.ServerTime, body: decodeServerTime(p, start, end) };
    case MsgId.RetransmitRequest:
      return { msgId: MsgId.RetransmitRequest, body: decodeRetransmitRequest(p, start, end, ctx.version, '0x8003') };
    case MsgId.TerminalRetransmitRequest:
      return { msgId: MsgId.TerminalRetransmitRequest, body: decodeRetransmitRequest(p, start, end, ctx.version, '0x0005') };
    case MsgId.QueryAttributes:
      return { msgId: MsgId.QueryAttributes, body: decodeEmpty(p, start, end) };
    case MsgId.AttributesResponse:
      return { msgId: MsgId.AttributesResponse, body: decodeTerminalAttributes(p, start, end, ctx.version) };
    case MsgId.UpgradePackage:
      return { msgId: MsgId.UpgradePackage, body: decodeUpgradePackage(p, start, end, ctx.version) };
    case MsgId.UpgradeResult:
      return { msgId: MsgId.UpgradeResult, body: decodeUpgradeResult(p, start, end) };
    case MsgId.TemporaryTracking:
      return { msgId: MsgId.TemporaryTracking, body: decodeTemporaryTracking(p, start, end) };
    case MsgId.AlarmConfirm:
      return { msgId: MsgId.AlarmConfirm, body: decodeAlarmConfirm(p, start, end) };
    case MsgId.LinkCheck:
      return { msgId: MsgId.LinkCheck, body: decodeEmpty(p, start, end) };
    case MsgId.EventSetting:
      return { msgId: MsgId.EventSetting, body: decodeEventSetting(p, start, end) };
    case MsgId.EventReport:
      return { msgId: MsgId.EventReport, body: decodeEventReport(p, start, end) };
    case MsgId.Question:
      return { msgId: MsgId.Question, body: decodeQuestion(p, start, end) };
    case MsgId.QuestionAnswer:
      return { msgId: MsgId.QuestionAnswer, body: decodeQuestionAnswer(p, start, end) };
    case MsgId.InfoMenu:
      return { msgId: MsgId.InfoMenu, body: decodeInfoMenu(p, start, end) };
    case MsgId.InfoDemand:
      return { msgId: MsgId.InfoDemand, body: decodeInfoDemand(p, start, end) };
    case MsgId.InfoService:
      return { msgId: MsgId.InfoService, body: decodeInfoService(p, start, end) };
    case MsgId.CallBack:
      return { msgId: MsgId.CallBack, body: decodeCallBack(p, start, end) };
    case MsgId.PhoneBook:
      return { msgId: MsgId.PhoneBook, body: decodePhoneBook(p, start, end) };
    case MsgId.VehicleControl:
      return { msgId: MsgId.VehicleControl, body: decodeVehicleControl(p, start, end, ctx.version) };
    case MsgId.VehicleControlResponse:
      return { msgId: MsgId.VehicleControlResponse, body: decodeVehicleControlResponse(p, start, end, tz) };
    case MsgId.SetCircleAreas:
      return { msgId: MsgId.SetCircleAreas, body: decodeCircleAreas(p, start, end, ctx.version) };
    case MsgId.DeleteCircleAreas:
      return { msgId: MsgId.DeleteCircleAreas, body: decodeDeleteAreas(p, start, end, '0x8601') };
    case MsgId.SetRectangleAreas:
      return { msgId: MsgId.SetRectangleAreas, body: decodeRectangleAreas(p, start, end, ctx.version) };
    case MsgId.DeleteRectangleAreas:
      return { msgId: MsgId.DeleteRectangleAreas, body: decodeDeleteAreas(p, start, end, '0x8603') };
    case MsgId.SetPolygonArea:
      return { msgId: MsgId.SetPolygonArea, body: decodePolygonArea(p, start, end, ctx.version) };
    case MsgId.DeletePolygonAreas:
      return { msgId: MsgId.DeletePolygonAreas, body: decodeDeleteAreas(p, start, end, '0x8605') };
    case MsgId.SetRoute:
      return { msgId: MsgId.SetRoute, body: decodeRoute(p, start, end, ctx.version) };
    case MsgId.DeleteRoutes:
      return { msgId: MsgId.DeleteRoutes, body: decodeDeleteAreas(p, start, end, '0x8607') };
    case MsgId.QueryAreas:
      return { msgId: MsgId.QueryAreas, body: decodeAreaQuery(p, start, end) };
    case MsgId.AreasResponse:
      return { msgId: MsgId.AreasResponse, body: decodeAreaQueryResponse(p, start, end) };
    case MsgId.RecorderCollect:
      return { msgId: MsgId.RecorderCollect, body: decodeRecorderCommand(p, start, end, '0x8700') };
    case MsgId.RecorderParams:
      return { msgId: MsgId.RecorderParams, body: decodeRecorderCommand(p, start, end, '0x8701') };
    case MsgId.RecorderData:
      return { msgId: MsgId.RecorderData, body: decodeRecorderData(p, start, end) };
    case MsgId.DriverIdentity:
      return { msgId: MsgId.DriverIdentity, body: decodeDriverIdentity(p, start, end, ctx.version, tz) };
    case MsgId.RequestDriverIdentity:
      return { msgId: MsgId.RequestDriverIdentity, body: decodeEmpty(p, start, end) };
    case MsgId.CanData:
      return { msgId: MsgId.CanData, body: decodeCanData(p, start, end) };
    case MsgId.MediaEvent:
      return { msgId: MsgId.MediaEvent, body: decodeMediaEvent(p, start, end) };
    case MsgId.MediaData:
      return { msgId: MsgId.MediaData, body: decodeMediaData(p, start, end, ctx.version, tz) };
    case MsgId.MediaDataResponse:
      return { msgId: MsgId.MediaDataResponse, body: decodeMediaDataResponse(p, start, end) };
    case MsgId.TakePhoto:
      return { msgId: MsgId.TakePhoto, body: decodeTakePhoto(p, start, end) };
    case MsgId.TakePhotoResponse:
      return { msgId: MsgId.TakePhotoResponse, body: decodeTakePhotoResponse(p, start, end) };
    case MsgId.MediaSearch:
      return { msgId: MsgId.MediaSearch, body: decodeMediaSearch(p, start, end, tz) };
    case MsgId.MediaSearchResponse:
      return { msgId: MsgId.MediaSearchResponse, body: decodeMediaSearchResponse(p, start, end, tz) };
    case MsgId.StoredMediaUpload:
      return { msgId: MsgId.StoredMediaUpload, body: decodeStoredMediaUpload(p, start, end, tz) };
    case MsgId.RecordSound:
      return { msgId: MsgId.RecordSound, body: decodeRecordSound(p, start, end) };
    case MsgId.SingleMediaUpload:
      return { msgId: MsgId.SingleMediaUpload, body: decodeSingleMediaUpload(p, start, end) };
    case MsgId.PassThroughDown:
      return { msgId: MsgId.PassThroughDown, body: decodePassThroughDown(p, start, end) };
    case MsgId.Compressed:
      return { msgId: MsgId.Compressed, body: decodeCompressed(p, start, end) };
    case MsgId.PlatformRsaKey:
      return { msgId: MsgId.PlatformRsaKey, body: decodeRsaKey(p, start, end, '0x8A00') };
    case MsgId.TerminalRsaKey:
      return { msgId: MsgId.TerminalRsaKey, body: decodeRsaKey(p, start, end, '0x0A00') };
    case MsgId.QueryVideoAttributes:
      return { msgId: MsgId.QueryVideoAttributes, body: decodeEmpty(p, start, end) };
    case MsgId.VideoAttributes:
      return { msgId: MsgId.VideoAttributes, body: decodeVideoAttributes(p, start, end) };
    case MsgId.PassengerCounts:
      return { msgId: MsgId.PassengerCounts, body: decodePassengerCounts(p, start, end, tz) };
    case MsgId.LiveVideoRequest:
      return { msgId: MsgId.LiveVideoRequest, body: decodeLiveVideoRequest(p, start, end) };
    case MsgId.LiveVideoControl:
      return { msgId: MsgId.LiveVideoControl, body: decodeLiveVideoControl(p, start, end) };
    case MsgId.LiveVideoStatus:
      return { msgId: MsgId.LiveVideoStatus, body: decodeLiveVideoStatus(p, start, end) };
    case MsgId.PlaybackRequest:
      return { msgId: MsgId.PlaybackRequest, body: decodePlaybackRequest(p, start, end, tz) };
    case MsgId.PlaybackControl:
      return { msgId: MsgId.PlaybackControl, body: decodePlaybackControl(p, start, end, tz) };
    case MsgId.ResourceQuery:
      return { msgId: MsgId.ResourceQuery, body: decodeResourceQuery(p, start, end, tz) };
    case MsgId.ResourceList:
      return { msgId: MsgId.ResourceList, body: decodeResourceList(p, start, end, tz) };
    case MsgId.FtpUpload:
      return { msgId: MsgId.FtpUpload, body: decodeFtpUpload(p, start, end, tz) };
    case MsgId.FtpUploadDone:
      return { msgId: MsgId.FtpUploadDone, body: decodeFtpUploadDone(p, start, end) };
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
    case MsgId.QueryServerTime:
      return encodeEmpty(m.body);
    case MsgId.ServerTime:
      return encodeServerTime(m.body);
    case MsgId.RetransmitRequest:
      return encodeRetransmitRequest(m.body, version);
    case MsgId.TerminalRetransmitRequest:
      return encodeRetransmitRequest(m.body, version);
    case MsgId.QueryAttributes:
      return encodeEmpty(m.body);
    case MsgId.AttributesResponse:
      return encodeTerminalAttributes(m.body, version);
    case MsgId.UpgradePackage:
      return encodeUpgradePackage(m.body, version);
    case MsgId.UpgradeResult:
      return encodeUpgradeResult(m.body);
    case MsgId.TemporaryTracking:
      return encodeTemporaryTracking(m.body);
    case MsgId.AlarmConfirm:
      return encodeAlarmConfirm(m.body);
    case MsgId.LinkCheck:
      return encodeEmpty(m.body);
    case MsgId.EventSetting:
      return encodeEventSetting(m.body);
    case MsgId.EventReport:
      return encodeEventReport(m.body);
    case MsgId.Question:
      return encodeQuestion(m.body);
    case MsgId.QuestionAnswer:
      return encodeQuestionAnswer(m.body);
    case MsgId.InfoMenu:
      return encodeInfoMenu(m.body);
    case MsgId.InfoDemand:
      return encodeInfoDemand(m.body);
    case MsgId.InfoService:
      return encodeInfoService(m.body);
    case MsgId.CallBack:
      return encodeCallBack(m.body);
    case MsgId.PhoneBook:
      return encodePhoneBook(m.body);
    case MsgId.VehicleControl:
      return encodeVehicleControl(m.body, version);
    case MsgId.VehicleControlResponse:
      return encodeVehicleControlResponse(m.body, tzOffsetMinutes);
    case MsgId.SetCircleAreas:
      return encodeCircleAreas(m.body, version);
    case MsgId.DeleteCircleAreas:
      return encodeDeleteAreas(m.body);
    case MsgId.SetRectangleAreas:
      return encodeRectangleAreas(m.body, version);
    case MsgId.DeleteRectangleAreas:
      return encodeDeleteAreas(m.body);
    case MsgId.SetPolygonArea:
      return encodePolygonArea(m.body, version);
    case MsgId.DeletePolygonAreas:
      return encodeDeleteAreas(m.body);
    case MsgId.SetRoute:
      return encodeRoute(m.body, version);
    case MsgId.DeleteRoutes:
      return encodeDeleteAreas(m.body);
    case MsgId.QueryAreas:
      return encodeAreaQuery(m.body);
    case MsgId.AreasResponse:
      return encodeAreaQueryResponse(m.body);
    case MsgId.RecorderCollect:
      return encodeRecorderCommand(m.body);
    case MsgId.RecorderParams:
      return encodeRecorderCommand(m.body);
    case MsgId.RecorderData:
      return encodeRecorderData(m.body);
    case MsgId.DriverIdentity:
      return encodeDriverIdentity(m.body, version, tzOffsetMinutes);
    case MsgId.RequestDriverIdentity:
      return encodeEmpty(m.body);
    case MsgId.CanData:
      return encodeCanData(m.body);
    case MsgId.MediaEvent:
      return encodeMediaEvent(m.body);
    case MsgId.MediaData:
      return encodeMediaData(m.body, version, tzOffsetMinutes);
    case MsgId.MediaDataResponse:
      return encodeMediaDataResponse(m.body);
    case MsgId.TakePhoto:
      return encodeTakePhoto(m.body);
    case MsgId.TakePhotoResponse:
      return encodeTakePhotoResponse(m.body);
    case MsgId.MediaSearch:
      return encodeMediaSearch(m.body, tzOffsetMinutes);
    case MsgId.MediaSearchResponse:
      return encodeMediaSearchResponse(m.body, tzOffsetMinutes);
    case MsgId.StoredMediaUpload:
      return encodeStoredMediaUpload(m.body, tzOffsetMinutes);
    case MsgId.RecordSound:
      return encodeRecordSound(m.body);
    case MsgId.SingleMediaUpload:
      return encodeSingleMediaUpload(m.body);
    case MsgId.PassThroughDown:
      return encodePassThroughDown(m.body);
    case MsgId.Compressed:
      return encodeCompressed(m.body);
    case MsgId.PlatformRsaKey:
      return encodeRsaKey(m.body);
    case MsgId.TerminalRsaKey:
      return encodeRsaKey(m.body);
    case MsgId.QueryVideoAttributes:
      return encodeEmpty(m.body);
    case MsgId.VideoAttributes:
      return encodeVideoAttributes(m.body);
    case MsgId.PassengerCounts:
      return encodePassengerCounts(m.body, tzOffsetMinutes);
    case MsgId.LiveVideoRequest:
      return encodeLiveVideoRequest(m.body);
    case MsgId.LiveVideoControl:
      return encodeLiveVideoControl(m.body);
    case MsgId.LiveVideoStatus:
      return encodeLiveVideoStatus(m.body);
    case MsgId.PlaybackRequest:
      return encodePlaybackRequest(m.body, tzOffsetMinutes);
    case MsgId.PlaybackControl:
      return encodePlaybackControl(m.body, tzOffsetMinutes);
    case MsgId.ResourceQuery:
      return encodeResourceQuery(m.body, tzOffsetMinutes);
    case MsgId.ResourceList:
      return encodeResourceList(m.body, tzOffsetMinutes);
    case MsgId.FtpUpload:
      return encodeFtpUpload(m.body, tzOffsetMinutes);
    case MsgId.FtpUploadDone:
      return encodeFtpUploadDone(m.body);
    default: {
      const never: never = m;
      throw new Jt808EncodeError('BAD_FIELD', `no encoder for ${JSON.stringify(never)}`);
    }
  }
}

export * from './auth';
export * from './areas';
export * from './attributes';
export * from './canData';
export * from './driverIdentity';
export * from './events';
export * from './media';
export * from './passThrough';
export * from './phone';
export * from './recorder';
export * from './retransmit';
export * from './serverTime';
export * from './tracking';
export * from './upgrade';
export * from './vehicleControl';
export * from './videoLive';
export * from './videoRecords';
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
