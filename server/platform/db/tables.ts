import type { ColumnType, Generated } from 'kysely';
import type { EntityTables } from './entityTables.generated';

/**
 * The one database type: the hand-written tables below and the schema entities' tables, whose types
 * `npm run gen` writes (entityTables.generated.ts), with the columns hand migrations added to them.
 */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface OrganisationTable {
  id: Generated<number>;
  code: string;
  name: string;
  parent_id: number | null;
  path: string;
  type: Generated<string>;
  status: Generated<string>;
  contact: string | null;
  phone: string | null;
  address: string | null;
  is_system: Generated<boolean>;
  link: string | null;
  title: string | null;
  logo: string | null;
  theme_color: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface MemberTable {
  id: Generated<number>;
  uid: string;
  login_name: string;
  name: string;
  mobile: string | null;
  member_type: string;
  org_id: number;
  password_hash: string;
  expire_date: string | null;
  status: Generated<string>;
  first_sign: Generated<boolean>;
  sign_in_count: Generated<number>;
  last_sign_in: Timestamp | null;
  password_changed_at: Timestamp | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface SessionTable {
  id: string;
  member_id: number;
  application: string;
  ip: string | null;
  user_agent: string | null;
  created_at: Generated<Date>;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  scope: Generated<'full' | 'password'>;
  origin_session_id: string | null;
}

export interface AppSettingTable {
  key: string;
  value: string;
}

/** A label or message override (issue 17): the published text and a draft, per language and key. */
export interface LabelOverrideTable {
  locale: string;
  key: string;
  published: string | null;
  draft: string | null;
  updated_by_name: string;
  updated_at: Generated<Date>;
  published_at: Timestamp | null;
}

export interface LabelVersionTable {
  id: number;
  version: number;
}

export interface SchemaMigrationTable {
  name: string;
  applied_at: Generated<Date>;
}

export interface ResourceTable {
  id: Generated<number>;
  application: string;
  name: string;
  code: string;
  kind: 'Menu' | 'Action';
  path: string | null;
  url: string | null;
  icon: string | null;
  sort: Generated<number>;
  parent_id: number | null;
  hidden: Generated<boolean>;
  affix: Generated<boolean>;
  no_cache: Generated<boolean>;
  active_menu: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface RoleTable {
  id: Generated<number>;
  org_id: number;
  application: string;
  name: string;
  description: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface RoleResourceTable {
  role_id: number;
  resource_id: number;
}

export interface MemberRoleTable {
  member_id: number;
  role_id: number;
}

export interface MemberApplicationTable {
  member_id: number;
  application: string;
}

export interface LoginThrottleTable {
  key: string;
  failures: Generated<number>;
  window_start: Generated<Date>;
  locked_until: Timestamp | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: Generated<Date>;
  member_id: number | null;
  member_name: string | null;
  org_id: number | null;
  actor_member_id: number | null;
  application: string | null;
  action: string;
  target: string | null;
  success: Generated<boolean>;
  ip: string | null;
  detail: string | null;
}

/** Gateway state per terminal (JT/T 808): the issued auth code and whether a session is live. */
/** Each identity (number or SIM, leading zeros trimmed) of a terminal, held by one terminal only. */
export interface TerminalIdentityTable {
  identity: string;
  terminal_id: number;
}

export interface TerminalLinkTable {
  terminal_id: number;
  /** Null: not registered (never, or reset by an operator). */
  auth_code: string | null;
  registered_at: Generated<Date>;
  online: Generated<boolean>;
  protocol: number | null;
  remote_address: string | null;
  connected_at: Timestamp | null;
  disconnected_at: Timestamp | null;
  last_seen_at: Timestamp | null;
  /** Hardware bound at the first registration (0x0100), and the IMEI of the first 2019 authentication. */
  maker_id: string | null;
  model: string | null;
  device_id: string | null;
  layout: number | null;
  imei: string | null;
  reset_at: Timestamp | null;
}

/** A refused registration or authentication of a known terminal (the last few per terminal). */
export interface TerminalRefusalTable {
  id: Generated<string>;
  terminal_id: number;
  at: Generated<Date>;
  message: string;
  reason: string;
  remote_address: string | null;
  suppressed: Generated<number>;
  detail: unknown;
}

/** A waybill (0x0701) or a vendor message kept raw. */
export interface TerminalMessageTable {
  id: Generated<string>;
  terminal_id: number;
  at: Generated<Date>;
  msg_id: number;
  kind: string;
  text: string | null;
  body_hex: string;
  flags: unknown;
}

/** A card inserted into or removed from a vehicle's IC card reader (0x0702), by device time. */
export interface DriverCardEventTable {
  id: Generated<string>;
  terminal_id: number;
  vehicle_id: number;
  at: Timestamp;
  action: 'in' | 'out';
  card_no: string | null;
  read_result: number | null;
  holder_name: string | null;
  issuer: string | null;
  id_number: string | null;
  received_at: Generated<Date>;
}

/** One uploaded photo, recording or clip; its file is DATA_DIR/media/<sha256[0..2]>/<sha256>. */
export interface MediaTable {
  id: Generated<string>;
  terminal_id: number;
  vehicle_id: number | null;
  media_id: string | number;
  type: number;
  format: number;
  event: number;
  channel: number;
  latitude: number | null;
  longitude: number | null;
  taken_at: Date | string | null;
  received_at: Generated<Date>;
  sha256: string;
  bytes: number;
}

/** A 0x9208 the platform sent for one active safety alarm identification (the attachment service). */
export interface AttachmentRequestTable {
  id: Generated<string>;
  alarm_number: string;
  terminal_id: number;
  vehicle_id: number | null;
  alarm_key: string;
  standard: string;
  attachments: number;
  requested_at: Generated<Date>;
  completed_at: Date | string | null;
}

/** One whole file a terminal uploaded for an alarm; its content is in the media store by SHA-256. */
export interface AlarmAttachmentTable {
  id: Generated<string>;
  request_id: string | number;
  terminal_id: number;
  vehicle_id: number | null;
  alarm_key: string;
  file_name: string;
  file_type: number;
  sha256: string;
  bytes: string | number;
  received_at: Generated<Date>;
}

/** One reported position per (terminal, device time). */
export interface PositionTable {
  terminal_id: number;
  device_time: Timestamp;
  vehicle_id: number | null;
  received_at: Generated<Date>;
  latitude: number;
  longitude: number;
  altitude: Generated<number>;
  speed: Generated<number>;
  direction: Generated<number>;
  alarm: Generated<number>;
  status: Generated<number>;
  acc: Generated<boolean>;
  fixed: Generated<boolean>;
  mileage_km: number | null;
  fuel_l: number | null;
  blind: Generated<boolean>;
  extras: unknown;
}

/** The newest position per vehicle, for dashboards. */
export interface VehicleStateTable {
  vehicle_id: number;
  terminal_id: number;
  device_time: Timestamp;
  received_at: Generated<Date>;
  latitude: number;
  longitude: number;
  speed: Generated<number>;
  direction: Generated<number>;
  alarm: Generated<number>;
  status: Generated<number>;
  acc: Generated<boolean>;
  mileage_km: number | null;
  fuel_l: number | null;
  dtcs: string[] | null;
}

/** A command sent down to a terminal and its answer. */
export interface TerminalCommandTable {
  id: Generated<number>;
  terminal_id: number;
  kind: string;
  msg_id: number;
  serial: number | null;
  request: unknown;
  status: Generated<string>;
  result: number | null;
  response: unknown;
  member_id: number | null;
  created_at: Generated<Date>;
  answered_at: Timestamp | null;
}

/** A share ticket of a vehicle's location (only its hash is stored). */
export interface LocationTicketTable {
  id: Generated<number>;
  token_hash: string;
  vehicle_id: number;
  created_by: number | null;
  created_by_name: string;
  created_at: Generated<Date>;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  revoked_by_name: string | null;
}

/** A key of an API user (migration api_key): hashed, scoped, rate-limited, revocable. */
export interface ApiKeyTable {
  id: Generated<number>;
  api_user_id: number;
  name: string;
  prefix: string;
  secret_hash: string;
  org_id: number;
  application: string;
  /** The action codes granted, as a JSON array. */
  codes: string;
  expires_at: Timestamp;
  rate_limit: number | null;
  enabled: Generated<boolean>;
  revoked_at: Timestamp | null;
  revoked_by_name: string | null;
  created_by: number;
  created_by_name: string;
  created_at: Generated<Date>;
  use_count: Generated<number>;
  last_used_at: Timestamp | null;
  last_used_ip: string | null;
  window_start: Timestamp | null;
  window_count: Generated<number>;
}

/** The XML of a configuration parse file, beside its row. */
export interface ConfigParseContentTable {
  file_id: number;
  content: Buffer;
  sha256: string;
  uploaded_at: Generated<Date>;
}

/** A remote upgrade package (0x8108), uploaded and kept in the database (server/telematics/commands/upgradeRoutes.ts). */
export interface UpgradePackageTable {
  id: Generated<number>;
  org_id: number;
  file_name: string;
  upgrade_type: number;
  maker_id: string;
  version: string;
  size: number;
  sha256: string;
  content: Buffer;
  member_id: number | null;
  created_at: Generated<Date>;
}

/** Derivation progress per vehicle (server/intelligence/pipeline.ts). */
export interface DeriveStateTable {
  vehicle_id: number;
  watermark: Timestamp | null;
  /** Passes of the worker that consumed marks (a held window serves the pass after the one that held it). */
  derived_seq: Generated<number>;
  derived_at: Timestamp | null;
  /** The snapshot (`pg_snapshot` as text) of the statement that took the last pass's marks. */
  marks_snapshot: string | null;
  /** The version of the alarms' settings the last pass judged by. */
  alarm_settings: string | null;
  /** Since those last changed, the marks snapshot of the last pass before: what it saw was judged by the old ones. */
  judged_from: string | null;
}

/** What one store commit stored of a vehicle, appended for the next pass (server/intelligence/pipeline.ts). */
export interface DeriveMarkTable {
  vehicle_id: number;
  pending_from: Timestamp;
  pending_to: Timestamp;
}

/** Per settings table the derivers hold between passes, a count of the statements that changed it (triggers; server/intelligence/settingsCache.ts). */
export interface DeriveSettingVersionTable {
  table_name: string;
  version: number;
}

/** Trip detection and cost settings per organisation (nearest ancestor wins). */
export interface TripSettingTable {
  org_id: number;
  stop_minutes: Generated<number>;
  region: string | null;
  updated_at: Generated<Date>;
}

export interface TripTable {
  id: Generated<number>;
  vehicle_id: number;
  begin_time: Timestamp;
  end_time: Timestamp;
  duration_s: number;
  distance_km: number;
  distance_source: string;
  fuel_l: number | null;
  idle_s: number;
  max_speed: number;
  avg_speed: number;
  start_latitude: number;
  start_longitude: number;
  end_latitude: number;
  end_longitude: number;
  open: Generated<boolean>;
}

export interface TripStopTable {
  id: Generated<number>;
  vehicle_id: number;
  begin_time: Timestamp;
  end_time: Timestamp;
  duration_s: number;
  latitude: number;
  longitude: number;
  open: Generated<boolean>;
}

export interface FuelEventTable {
  id: Generated<number>;
  vehicle_id: number;
  kind: 'refuel' | 'drain';
  time: Timestamp;
  amount_l: number;
  level_before_l: number;
  level_after_l: number;
  latitude: number;
  longitude: number;
  /** A drain's: when the run first read as one (fuel.ts); the key of its alarm. Null for refuels. */
  detected_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** One row per vehicle per local day (FLEET_TIMEZONE). `day` is 'YYYY-MM-DD'. */
export interface LedgerDayTable {
  vehicle_id: number;
  day: string;
  org_id: number;
  mileage_km: number;
  /** The part of mileage_km measured from the filtered GNSS track (the rest from the odometer). */
  gnss_km: Generated<number>;
  fuel_l: number;
  refuel_l: number;
  drain_l: number;
  driving_s: number;
  idle_s: number;
  trip_count: number;
  max_speed: number;
  cost: number;
}

/** The replay's pre-decimated levels: one row per vehicle, level (1 or 10 minutes) and UTC bucket with reports (trackMinute deriver). */
export interface TrackMinuteTable {
  vehicle_id: number;
  span_minutes: number;
  minute: Timestamp;
  n: number;
  gnss_km: number;
  odo_first: number | null;
  odo_last: number | null;
  odo_sane: boolean;
  max_speed: number;
  /** `k,ms,lat,lon,speed,direction,acc,…`: the bucket's first, fastest, slowest and last report (each once). */
  points: string;
}

/** Per vehicle, where the levels begin to hold every report. */
export interface TrackMinuteCoverTable {
  vehicle_id: number;
  covered_from: Timestamp;
}

export interface SafetySettingTable {
  org_id: number;
  weights: Generated<unknown>;
  thresholds: Generated<unknown>;
  updated_at: Generated<Date>;
}

export interface BehaviourDayTable {
  vehicle_id: number;
  day: string;
  org_id: number;
  harsh_acceleration: number;
  harsh_braking: number;
  sharp_turn: number;
  speeding_s: number;
  fatigue: number;
  night_s: number;
  sources: string[];
}

export interface BehaviourEventTable {
  vehicle_id: number;
  day: string;
  org_id: number;
  kind: string;
  at: Timestamp;
  latitude: number | null;
  longitude: number | null;
  count: number;
  duration_s: number;
  severity: string | null;
  peak_kmh: number | null;
  limit_kmh: number | null;
  source: string;
}

export interface BehaviourReviewTable {
  vehicle_id: number;
  kind: string;
  at: Timestamp;
  state: 'dismissed' | 'coached';
  note: string;
  reviewed_by: number | null;
  reviewed_at: Generated<Timestamp>;
}

export interface HealthDayTable {
  vehicle_id: number;
  day: string;
  org_id: number;
  health_index: number;
  band: 'healthy' | 'attention' | 'fault';
  faults: unknown;
  min_battery_v: number | null;
  max_coolant_c: number | null;
  alarm_count: number;
}

/** One send of a scheduled report (server/reportMail): scheduled or "send now", what it covered, how it ended. */
export interface ReportSendTable {
  id: Generated<number>;
  schedule_id: number;
  trigger: 'schedule' | 'manual';
  due_at: Timestamp | null;
  attempt: Generated<number>;
  period_begin: string;
  period_end: string;
  recipients: string;
  started_at: Generated<Date>;
  finished_at: Timestamp | null;
  status: Generated<'sending' | 'sent' | 'failed'>;
  error: string | null;
  size_bytes: number | null;
}

/** Columns hand migrations added to entity tables (not in their schemas: never served by the CRUD). */
interface EntityColumnsAdded {
  config_parse_file: { stored_name: string | null };
  inter_member: { password_hash: string | null };
  report_schedule: { due_at: Generated<Date>; attempts: Generated<number>; retry_at: Timestamp | null };
}

type EntityDB = {
  [T in keyof EntityTables]: T extends keyof EntityColumnsAdded ? EntityTables[T] & EntityColumnsAdded[T] : EntityTables[T];
};

export interface DB extends EntityDB {
  organisation: OrganisationTable;
  member: MemberTable;
  session: SessionTable;
  resource: ResourceTable;
  role: RoleTable;
  role_resource: RoleResourceTable;
  member_role: MemberRoleTable;
  member_application: MemberApplicationTable;
  login_throttle: LoginThrottleTable;
  audit_log: AuditLogTable;
  app_setting: AppSettingTable;
  schema_migration: SchemaMigrationTable;
  terminal_link: TerminalLinkTable;
  terminal_identity: TerminalIdentityTable;
  terminal_refusal: TerminalRefusalTable;
  terminal_message: TerminalMessageTable;
  media: MediaTable;
  attachment_request: AttachmentRequestTable;
  alarm_attachment: AlarmAttachmentTable;
  driver_card_event: DriverCardEventTable;
  position: PositionTable;
  vehicle_state: VehicleStateTable;
  terminal_command: TerminalCommandTable;
  location_ticket: LocationTicketTable;
  api_key: ApiKeyTable;
  config_parse_content: ConfigParseContentTable;
  upgrade_package: UpgradePackageTable;
  derive_state: DeriveStateTable;
  derive_mark: DeriveMarkTable;
  derive_setting_version: DeriveSettingVersionTable;
  trip_setting: TripSettingTable;
  trip: TripTable;
  trip_stop: TripStopTable;
  fuel_event: FuelEventTable;
  ledger_day: LedgerDayTable;
  track_minute: TrackMinuteTable;
  track_minute_cover: TrackMinuteCoverTable;
  safety_setting: SafetySettingTable;
  behaviour_day: BehaviourDayTable;
  behaviour_event: BehaviourEventTable;
  behaviour_review: BehaviourReviewTable;
  health_day: HealthDayTable;
  label_override: LabelOverrideTable;
  label_version: LabelVersionTable;
  report_send: ReportSendTable;
}
