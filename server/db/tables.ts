import type { ColumnType, Generated } from 'kysely';

/** Hand-written tables. Entity tables of the generic CRUD are addressed dynamically. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface OrganisationTable {
  id: Generated<number>;
  code: string;
  name: string;
  parent_id: number | null;
  path: string;
  type: string;
  status: string;
  contact: string | null;
  phone: string | null;
  address: string | null;
  is_system: boolean;
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
}

export interface AppSettingTable {
  key: string;
  value: string;
}

export interface SchemaMigrationTable {
  name: string;
  applied_at: Generated<Date>;
}

export interface DB {
  organisation: OrganisationTable;
  member: MemberTable;
  session: SessionTable;
  app_setting: AppSettingTable;
  schema_migration: SchemaMigrationTable;
}
