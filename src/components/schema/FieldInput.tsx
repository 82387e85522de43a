import { Checkbox, DatePicker, Input, Select, Switch } from 'antd';
import type { ReactElement } from 'react';
import type { FieldDescriptor } from './formFields';
import OrgTreeSelect from './OrgTreeSelect';
import RefSelect from './RefSelect';

export interface FieldInputProps {
  field: FieldDescriptor;
  /** The row being edited, for the labels of its relations. */
  row?: Readonly<Record<string, unknown>>;
  entity?: string;
}

/**
 * The input of one form field by its widget. Bounds and lengths are not enforced by the inputs: the
 * validator reports them in the server's words instead of the input silently clamping the value.
 * (Form.Item injects value and onChange.)
 */
export function fieldInput({ field, row }: FieldInputProps): ReactElement {
  const label = field.ref ? (row?.[field.ref.as] as string | null | undefined) : undefined;
  switch (field.widget) {
    case 'multiSelect':
      // The ids' labels (`x-ref.as`, e.g. roleNames) in the same order as the ids.
      return (
        <RefSelect
          multiple
          entity={field.ref?.entity ?? ''}
          initialLabels={Array.isArray(row?.[field.ref?.as ?? '']) ? (row?.[field.ref?.as ?? ''] as string[]) : undefined}
          initialValues={row?.[field.name] as number[] | undefined}
        />
      );
    case 'checkboxes':
      return <Checkbox.Group options={(field.options ?? []).map((o) => ({ value: o.value as string, label: o.label }))} />;
    case 'textarea':
      return <Input.TextArea rows={3} />;
    case 'json':
      return <Input.TextArea rows={4} style={{ fontFamily: 'monospace' }} />;
    case 'password':
      return <Input.Password autoComplete="new-password" />;
    case 'number':
      // Plain text, turned into a number by toBody: a number input silently drops "abc" or
      // "1e9999", and the save would go ahead without them; text reaches the validator instead.
      return <Input inputMode={field.integer ? 'numeric' : 'decimal'} />;
    case 'switch':
      return <Switch />;
    case 'date':
      return <DatePicker style={{ width: '100%' }} />;
    case 'dateTime':
      return <DatePicker showTime style={{ width: '100%' }} />;
    case 'dateRange':
      return <DatePicker.RangePicker style={{ width: '100%' }} />;
    case 'treeSelect':
      return field.ref?.entity === 'organisation' ? (
        <OrgTreeSelect initialLabel={label} />
      ) : (
        <RefSelect entity={field.ref?.entity ?? ''} initialLabel={label} />
      );
    case 'select':
      if (field.ref) return <RefSelect entity={field.ref.entity} initialLabel={label} unusedBy={field.ref.unusedBy} />;
      return <Select allowClear options={(field.options ?? []).map((o) => ({ value: o.value as string | number, label: o.label }))} />;
    // `upload` holds the stored file's link; sending a file is a page extension's job (e.g. the XML upload row action).
    case 'upload':
    case 'text':
    default:
      return <Input />;
  }
}
