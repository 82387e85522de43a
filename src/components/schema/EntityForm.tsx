import { DrawerForm, ModalForm, ProForm } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import { Form, type FormInstance } from 'antd';
import type { RuleObject } from 'antd/es/form';
import { useMemo } from 'react';
import type { EntityName } from '../../../schemas/generated/registry';
import { translator } from '../../../schemas/kit/catalogue';
import type { EntitySchema } from '../../../schemas/kit/entity';
import { DEFAULT_LANGUAGE, matchLanguage } from '../../../schemas/kit/i18n';
import { failureOf } from '../../services/http/failureOf';
import { useT } from '../../shell/useT';
import { applyFieldErrors } from '../form/fieldErrors';
import { callEntity } from './entityApi';
import { fieldInput } from './FieldInput';
import { LONG_FORM_FIELDS, toFormFields } from './formFields';
import { toBody, toFormValues } from './formValues';
import { titleKey } from './labels';
import type { Row } from './pageContract';
import { validateBody } from './validation';

export interface EntityFormProps {
  entity: EntityName;
  schema: EntitySchema;
  /** The row to edit; none to create. */
  row?: Row;
  onClose: () => void;
  /** After the server stored the row. */
  onSaved: () => void;
}

/**
 * The create or edit form of an entity, in a dialog (a drawer for long forms). Every field is checked
 * in the browser by the entity's precompiled validator, in the server's words, before any call; the
 * server's 400 field errors land on their fields, and its 406 message is the request config's toast.
 */
export default function EntityForm({ entity, schema, row, onClose, onSaved }: EntityFormProps) {
  const t = useT();
  const { locale } = useIntl();
  const [form] = Form.useForm();
  const mode = row ? 'update' : 'create';
  const fields = useMemo(() => toFormFields(entity, schema, t), [entity, schema, t]);
  // An edit form holds every field, so the create body's checks (required ones included) apply to it
  // unless a required field is not in the form.
  const kind = mode === 'create' || (schema.required ?? []).every((r) => schema.properties[r]?.readOnly || fields.some((f) => f.name === r)) ? 'create' : 'update';
  const messages = translator(matchLanguage(locale) ?? DEFAULT_LANGUAGE);
  const initialValues = useMemo(
    () => (row ? toFormValues(fields, row) : Object.fromEntries(fields.filter((f) => f.defaultValue !== undefined).map((f) => [f.name, f.defaultValue]))),
    [fields, row],
  );

  const errorsOf = (f: FormInstance) => validateBody(entity, schema, kind, toBody(fields, f.getFieldsValue(true), mode), messages);
  const ruleOf =
    (name: string, required: boolean) =>
    (f: FormInstance): RuleObject => ({
      required,
      validator: async () => {
        const message = errorsOf(f).get(name);
        if (message) throw new Error(message);
      },
    });

  const submit = async (): Promise<boolean> => {
    const body = toBody(fields, form.getFieldsValue(true), mode);
    try {
      await callEntity(schema, mode, { id: row?.id, data: body });
    } catch (e) {
      const failure = failureOf(e);
      // The request config has shown the message (400 and 406 alike); a 400's fields get theirs.
      if (failure.status === 400) applyFieldErrors(form, failure.errors, fields.map((f) => f.name));
      return false;
    }
    onSaved();
    return true;
  };

  const title = t(mode === 'create' ? 'console.schema.createTitle' : 'console.schema.editTitle', { title: t(titleKey(entity)) });
  const items = fields.map((f) => (
    <ProForm.Item key={f.name} name={f.name} label={f.label} required={f.required} rules={[ruleOf(f.name, f.required)]} valuePropName={f.widget === 'switch' ? 'checked' : 'value'}>
      {fieldInput({ field: f, row })}
    </ProForm.Item>
  ));
  const common = {
    title,
    form,
    // Field ids become `<entity>-form_<field>`, apart from the search form's ids for the same fields.
    name: `${entity}-form`,
    open: true,
    initialValues,
    onFinish: submit,
    onOpenChange: (open: boolean) => !open && onClose(),
    layout: 'vertical' as const,
  };
  return fields.length > LONG_FORM_FIELDS ? (
    <DrawerForm {...common} width={560} drawerProps={{ maskClosable: false }}>
      {items}
    </DrawerForm>
  ) : (
    <ModalForm {...common} width={560} modalProps={{ maskClosable: false }}>
      {items}
    </ModalForm>
  );
}
