import { Checkbox, Form, Select, Typography } from 'antd';
import type { EntityPageExtensions } from '../../../components/schema/pageContract';
import { parseTime } from '../../../utils/formatTime';
import type { FieldContext } from '../../../components/schema/pageContract';
import { MEMBER_TYPE_KEYS, optionsOf } from '../../../components/system/labels';
import { useApplications } from '../../../components/system/useApplications';
import { lineageOf, useOrgOptions } from '../../../components/system/useOrgOptions';
import { useRoleOptions } from '../../../components/system/useRoleOptions';
import { APPLICATIONS, type Application } from '../../../services/passport';
import { loadSession } from '../../../session/session';
import { useT } from '../../../session/useT';

/** What Form.Item injects into an input besides the page's field context. */
type Injected<V> = { value?: V; onChange?: (v: V) => void; id?: string };

/**
 * An account's roles: the web and App roles of its organisation or one above it (none chosen: the
 * caller's own, the tree's top), grouped by application; the server refuses any other.
 */
export function MemberRoles({ form, row, value, onChange, id }: FieldContext & Injected<number[]>) {
  const tree = useOrgOptions();
  const orgId = (Form.useWatch('orgId', form) as number | undefined) ?? (row?.orgId as number | undefined) ?? tree[0]?.value;
  const groups = useRoleOptions(APPLICATIONS, orgId === undefined ? [] : lineageOf(tree, orgId));
  return (
    <Select
      id={id}
      mode="multiple"
      optionFilterProp="label"
      options={groups}
      value={value}
      onChange={onChange}
      data-testid="member-roles"
    />
  );
}

/** An App account's roles: only the vehicle-app ones are shown and changed; its web roles are left alone by the server. */
export function AppMemberRoles({ value, onChange, id }: FieldContext & Injected<number[]>) {
  const groups = useRoleOptions(APP_ONLY);
  const appRoles = new Set(groups.flatMap((g) => g.options.map((o) => o.value)));
  // Until the App roles are known, none of the account's roles can be told to be one.
  const shown = (value ?? []).filter((v) => appRoles.has(v));
  return (
    <Select
      id={id}
      mode="multiple"
      optionFilterProp="label"
      options={groups}
      value={shown}
      onChange={onChange}
      data-testid="app-member-roles"
    />
  );
}
const APP_ONLY: readonly Application[] = ['vehicle-app'];

/** The applications the caller may open for an account, named by the server. */
export function MemberApplications({ value, onChange }: FieldContext & Injected<Application[]>) {
  const applications = useApplications();
  return <Checkbox.Group options={applications} value={value} onChange={(v) => onChange?.(v as Application[])} />;
}

/** Only administrators make administrators; an administrator's own type stays shown when edited. */
export function MemberTypes({ row, value, onChange, id }: FieldContext & Injected<string>) {
  const t = useT();
  const mayMakeAdmin = loadSession()?.memberType === 'administrator' || row?.memberType === 'administrator';
  const options = optionsOf(MEMBER_TYPE_KEYS, t).filter((o) => o.value !== 'administrator' || mayMakeAdmin);
  return <Select id={id} options={options} value={value} onChange={onChange} />;
}

const StatusCell = ({ value }: { value: unknown }) => {
  const t = useT();
  return (
    <Typography.Text type={value === 'enabled' ? undefined : 'danger'}>{t(`entity.member.enums.status.${String(value)}`)}</Typography.Text>
  );
};

/** The cells both account pages show the same way: status in red unless enabled, the last sign-in as a time. */
export const memberCells: EntityPageExtensions['cells'] = {
  status: (value) => <StatusCell value={value} />,
  lastSignIn: (value) => (typeof value === 'string' ? parseTime(value) : '-'),
};
