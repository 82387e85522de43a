import type { ColumnType, Generated } from 'kysely';

/** Hand-written tables. Entity tables of the generic CRUD are addressed dynamically. */
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
export interface TerminalLinkTable {
  terminal_id: number;
  auth_code: string;
  registered_at: Generated<Date>;
  online: Generated<boolean>;
  protocol: number | null;
  remote_address: string | null;
  connected_at: Timestamp | null;
  disconnected_at: Timestamp | null;
  last_seen_at: Timestamp | null;
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

export interface DB {
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
  position: PositionTable;
  vehicle_state: VehicleStateTable;
  terminal_command: TerminalCommandTable;
}
