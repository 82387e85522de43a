import { DatePicker, Input, InputNumber, Select, Switch } from 'antd';
import type { ReactElement } from 'react';
import type { FieldDescriptor } from './formFields';
import OrgTreeSelect from './OrgTreeSelect';
import RefSelect from './RefSelect';

export interface FieldInputProps {
  field: FieldDescriptor;
  /** The row being edited, for the labels of its relations. */
  row?: Readonly<Record<string, unknown>>;
}

/**
 * The input of one form field by its widget. Bounds and lengths are not enforced by the inputs: the
 * validator reports them in the server's words instead of the input silently clamping the value.
 * (Form.Item injects value and onChange.)
 */
export function fieldInput({ field, row }: FieldInputProps): ReactElement {
  const label = field.ref ? (row?.[field.ref.as] as string | null | undefined) : undefined;
  switch (field.widget) {
    case 'textarea':
      return <Input.TextArea rows={3} />;
    case 'json':
      return <Input.TextArea rows={4} style={{ fontFamily: 'monospace' }} />;
    case 'password':
      return <Input.Password autoComplete="new-password" />;
    case 'number':
      return <InputNumber style={{ width: '100%' }} precision={field.integer ? 0 : undefined} />;
    case 'switch':
      return <Switch />;
    case 'date':
      return <DatePicker style={{ width: '100%' }} />;
    case 'dateTime':
      return <DatePicker showTime style={{ width: '100%' }} />;
    case 'dateRange':
      return <DatePicker.RangePicker style={{ width: '100%' }} />;
    case 'treeSelect':
      return field.ref?.entity === 'organisation' ? <OrgTreeSelect initialLabel={label} /> : <RefSelect entity={field.ref?.entity ?? ''} initialLabel={label} />;
    case 'select':
      if (field.ref) return <RefSelect entity={field.ref.entity} initialLabel={label} />;
      return <Select allowClear options={(field.options ?? []).map((o) => ({ value: o.value as string | number, label: o.label }))} />;
    // `upload` holds the stored file's link; sending a file is a page extension's job (e.g. the XML upload row action).
    case 'upload':
    case 'text':
    default:
      return <Input />;
  }
}
