/** Wire constants of JT/T 808 (2011/2013/2019). */

export const FLAG = 0x7e;
export const ESCAPE = 0x7d;

/**
 * Largest frame we accept, counted unescaped between the flags (header + body + checksum).
 * A single packet carries at most 1023 body bytes, so 16 KiB leaves room for vendor
 * oddities while bounding per-connection memory.
 */
export const MAX_FRAME_BYTES = 16 * 1024;

/** Body length is a 10-bit field. */
export const MAX_BODY_LENGTH = 1023;

/** Smallest unescaped packet: 12-byte header + empty body + checksum. */
export const MIN_PACKET_BYTES = 13;

export const HEADER_2013_BYTES = 12;
export const HEADER_2019_BYTES = 17;
export const PACKET_INFO_BYTES = 4;

/** Body-property bits. */
export const PROP_LENGTH_MASK = 0x03ff;
export const PROP_ENCRYPTION_SHIFT = 10;
export const PROP_ENCRYPTION_MASK = 0x1c00;
export const PROP_SUBPACKAGE = 0x2000;
export const PROP_VERSION = 0x4000;
export const PROP_RESERVED = 0x8000;

export type Jt808Version = 2011 | 2013 | 2019;

/** Message ids handled by this codec. `as const` keeps literal types for union narrowing. */
export const MsgId = {
  TerminalResponse: 0x0001,
  PlatformResponse: 0x8001,
  Heartbeat: 0x0002,
  Logout: 0x0003,
  Register: 0x0100,
  RegisterResponse: 0x8100,
  Auth: 0x0102,
  Location: 0x0200,
  LocationQuery: 0x8201,
  LocationQueryResponse: 0x0201,
  Waybill: 0x0701,
  BatchLocation: 0x0704,
  Transparent: 0x0900,
  SetParams: 0x8103,
  QueryAllParams: 0x8104,
  QueryParams: 0x8106,
  ParamsResponse: 0x0104,
  TerminalControl: 0x8105,
  Text: 0x8300,
  // The rest of the 2019 set (and the 2013 messages 2019 dropped); docs/terminals.md has the table.
  QueryServerTime: 0x0004,
  ServerTime: 0x8004,
  RetransmitRequest: 0x8003,
  TerminalRetransmitRequest: 0x0005,
  QueryAttributes: 0x8107,
  AttributesResponse: 0x0107,
  UpgradePackage: 0x8108,
  UpgradeResult: 0x0108,
  TemporaryTracking: 0x8202,
  AlarmConfirm: 0x8203,
  LinkCheck: 0x8204,
  EventSetting: 0x8301,
  EventReport: 0x0301,
  Question: 0x8302,
  QuestionAnswer: 0x0302,
  InfoMenu: 0x8303,
  InfoDemand: 0x0303,
  InfoService: 0x8304,
  CallBack: 0x8400,
  PhoneBook: 0x8401,
  VehicleControl: 0x8500,
  VehicleControlResponse: 0x0500,
  SetCircleAreas: 0x8600,
  DeleteCircleAreas: 0x8601,
  SetRectangleAreas: 0x8602,
  DeleteRectangleAreas: 0x8603,
  SetPolygonArea: 0x8604,
  DeletePolygonAreas: 0x8605,
  SetRoute: 0x8606,
  DeleteRoutes: 0x8607,
  QueryAreas: 0x8608,
  AreasResponse: 0x0608,
  RecorderCollect: 0x8700,
  RecorderParams: 0x8701,
  RecorderData: 0x0700,
  DriverIdentity: 0x0702,
  RequestDriverIdentity: 0x8702,
  CanData: 0x0705,
  MediaEvent: 0x0800,
  MediaData: 0x0801,
  MediaDataResponse: 0x8800,
  TakePhoto: 0x8801,
  TakePhotoResponse: 0x0805,
  MediaSearch: 0x8802,
  MediaSearchResponse: 0x0802,
  StoredMediaUpload: 0x8803,
  RecordSound: 0x8804,
  SingleMediaUpload: 0x8805,
  PassThroughDown: 0x8900,
  Compressed: 0x0901,
  PlatformRsaKey: 0x8a00,
  TerminalRsaKey: 0x0a00,
  // JT/T 1078-2016 audio and video signalling (messages/videoLive.ts, videoRecords.ts).
  QueryVideoAttributes: 0x9003,
  VideoAttributes: 0x1003,
  PassengerCounts: 0x1005,
  LiveVideoRequest: 0x9101,
  LiveVideoControl: 0x9102,
  LiveVideoStatus: 0x9105,
  PlaybackRequest: 0x9201,
  PlaybackControl: 0x9202,
  ResourceQuery: 0x9205,
  ResourceList: 0x1205,
  FtpUpload: 0x9206,
  FtpUploadDone: 0x1206,
} as const;

export type KnownMsgId = (typeof MsgId)[keyof typeof MsgId];

/** Default device timezone: GMT+8 (the reference: Traccar's default and the standard's). */
export const DEFAULT_TZ_OFFSET_MINUTES = 480;
