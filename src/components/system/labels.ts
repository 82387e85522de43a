import type { Translate } from '../../../schemas/kit/i18n';
import type { Application, MemberType, OrgType, ResourceKind, Status } from '../../services/passport';

/**
 * Message keys of the passport's enumerated values (SPEC.md §3), one table each, so selects,
 * table cells and search filters name them the same way in every language.
 */
export const MEMBER_TYPE_KEYS: Readonly<Record<MemberType, string>> = {
  administrator: 'console.system.memberTypes.administrator',
  orgUser: 'console.system.memberTypes.orgUser',
  serviceUser: 'console.system.memberTypes.serviceUser',
  externalUser: 'console.system.memberTypes.externalUser',
};

export const ORG_TYPE_KEYS: Readonly<Record<OrgType, string>> = {
  factory: 'console.system.orgTypes.factory',
  inPlant: 'console.system.orgTypes.inPlant',
  service: 'console.system.orgTypes.service',
  client: 'console.system.orgTypes.client',
  serviceTeam: 'console.system.orgTypes.serviceTeam',
};

export const STATUS_KEYS: Readonly<Record<Status, string>> = {
  enabled: 'console.system.status.enabled',
  disabled: 'console.system.status.disabled',
};

export const KIND_KEYS: Readonly<Record<ResourceKind, string>> = {
  Menu: 'console.system.kinds.Menu',
  Action: 'console.system.kinds.Action',
};

export const APPLICATION_KEYS: Readonly<Record<Application, string>> = {
  'obd-web': 'passport.applications.obd-web',
  'vehicle-app': 'passport.applications.vehicle-app',
};

/** Every table above, for the test that checks each language has them. */
export const ENUM_KEY_TABLES = { MEMBER_TYPE_KEYS, ORG_TYPE_KEYS, STATUS_KEYS, KIND_KEYS, APPLICATION_KEYS } as const;

/** `{value, label}` options of a table, in its order. */
export const optionsOf = <V extends string>(keys: Readonly<Record<V, string>>, t: Translate) =>
  (Object.keys(keys) as V[]).map((value) => ({ value, label: t(keys[value]) }));

/** A ProTable `valueEnum` of a table (search select and cell text). */
export const valueEnumOf = <V extends string>(keys: Readonly<Record<V, string>>, t: Translate) =>
  Object.fromEntries((Object.keys(keys) as V[]).map((value) => [value, { text: t(keys[value]) }])) as Record<V, { text: string }>;

/** The label of a value, or the value itself when the table does not know it. */
export const labelOf = <V extends string>(keys: Readonly<Record<V, string>>, t: Translate, value: string | null | undefined) =>
  value ? (value in keys ? t(keys[value as V]) : value) : '';
