import { DrawerForm, ModalForm, ProForm } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import { Form, type FormInstance } from 'antd';
import type { RuleObject } from 'antd/es/form';
import { useMemo, useRef } from 'react';
import type { SchemaName } from '../../../schemas/generated/registry';
import { translator } from '../../../schemas/kit/catalogueStore';
import type { EntitySchema } from '../../../schemas/kit/entity';
import { DEFAULT_LANGUAGE, matchLanguage } from '../../../schemas/kit/i18n';
import { failureOf } from '../../services/http/failureOf';
import { useT } from '../../session/useT';
import { applyFieldErrors } from '../form/fieldErrors';
import { entityCaller, type EntityCaller } from '../../services/entity';
import { sameValue } from '../system/changes';
import { fieldInput } from './FieldInput';
import { LONG_FORM_FIELDS, toFormFields } from './formFields';
import { toBody, toFormValues } from './formValues';
import { feedback } from '../../services/http/feedback';
import { itemTitle } from './labels';
import type { EntityPageExtensions, FormExtensions, FormSection, Row } from './pageContract';
import { validateBody } from './validation';

export interface EntityFormProps {
  entity: SchemaName;
  schema: EntitySchema;
  /** The row to edit; none to create. */
  row?: Row;
  onClose: () => void;
  /** After the server stored the row: its id (unknown after a refusal the page recovered from). */
  onSaved: (id?: number) => void;
  /** The page's own section of the dialog, after the schema's fields. */
  section?: FormSection;
  /** Values a new row starts with besides the schema's defaults (a child's parent). */
  values?: Record<string, unknown>;
  /** How the page calls the entity (headers, action codes); the schema's own by default. */
  caller?: EntityCaller;
  /** Catalogue keys of the dialog's titles, replacing "新增{title}" and "编辑{title}". */
  titles?: EntityPageExtensions['labels'];
  /** The page's inputs, help, hidden fields and refusal handling. */
  extensions?: FormExtensions;
}

/**
 * The create or edit form of an entity, in a dialog (a drawer for long forms). Every field is checked
 * in the browser by the entity's precompiled validator, in the server's words, before any call; the
 * server's 400 field errors land on their fields, and its 406 message is the request config's toast.
 */
export default function EntityForm({
  entity,
  schema,
  row,
  onClose,
  onSaved,
  section,
  values: startValues,
  caller: given,
  titles,
  extensions: ext = {},
}: EntityFormProps) {
  const t = useT();
  const { locale } = useIntl();
  const [form] = Form.useForm();
  const mode = row ? 'update' : 'create';
  const caller = useMemo(() => given ?? entityCaller(schema), [given, schema]);
  const hiddenKey = (ext.useHidden?.(mode, row, form) ?? []).join(',');
  const requiredKey = (mode === 'create' ? (ext.requiredOnCreate ?? []) : []).join(',');
  const fields = useMemo(() => {
    const hidden = new Set(hiddenKey.split(','));
    const required = new Set(requiredKey.split(','));
    return (
      toFormFields(entity, schema, t)
        // A write-only property (a password) is set when creating only: the update body has none.
        .filter((f) => !hidden.has(f.name) && !(mode === 'update' && schema.properties[f.name]?.writeOnly))
        .map((f) => (required.has(f.name) ? { ...f, required: true } : f))
    );
  }, [entity, schema, t, hiddenKey, requiredKey, mode]);
  // An edit form holds every field, so the create body's checks (required ones included) apply to it
  // unless a required field is not in the form, or the row has none (the top organisation's parent).
  const kind =
    mode === 'create' ||
    (schema.required ?? []).every((r) => schema.properties[r]?.readOnly || (fields.some((f) => f.name === r) && row?.[r] != null))
      ? 'create'
      : 'update';
  const messages = translator(matchLanguage(locale) ?? DEFAULT_LANGUAGE);
  const initialValues = useMemo(() => {
    const values = row
      ? toFormValues(fields, row)
      : {
          ...Object.fromEntries(fields.filter((f) => f.defaultValue !== undefined).map((f) => [f.name, f.defaultValue])),
          ...toFormValues(fields, startValues ?? {}),
        };
    for (const name of section?.fields ?? []) if (row && row[name] !== undefined) values[name] = row[name];
    return values;
  }, [fields, row, section, startValues]);
  /** The body: the schema's fields, then the section's as they are (unless they only check the form). */
  const bodyOf = (values: Record<string, unknown>) => {
    const body = toBody(fields, values, mode);
    if (!section?.local) for (const name of section?.fields ?? []) if (values[name] !== undefined) body[name] = values[name];
    return body;
  };
  /** An edit sends only what changed, where the page asks so; nothing changed, nothing is sent. */
  const changeOf = (body: Record<string, unknown>) => {
    if (!row || !ext.changesOnly) return body;
    return Object.fromEntries(Object.entries(body).filter(([k, v]) => !sameValue(row[k], v)));
  };

  const errorsOf = (f: FormInstance) => validateBody(entity, schema, kind, toBody(fields, f.getFieldsValue(true), mode), messages);
  const blank = (v: unknown) =>
    v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);
  const ruleOf =
    (name: string, label: string, required: boolean, pageRequired: boolean) =>
    (f: FormInstance): RuleObject => ({
      required,
      validator: async () => {
        // A field the page requires beyond the schema (an expiry on registration) says so like the schema's.
        if (pageRequired && blank(f.getFieldValue(name))) throw new Error(t('validation.required', { field: label }));
        const message = errorsOf(f).get(name);
        if (message) throw new Error(message);
      },
    });

  const saved = useRef(false);
  const finish = (id?: number) => {
    saved.current = true;
    // Edits toast like creates (the server answers 200 to an edit, which the request layer leaves quiet).
    if (mode === 'update') void feedback().message.success(t('console.schema.saved'));
    onSaved(id);
    return true;
  };
  const submit = async (): Promise<boolean> => {
    const body = bodyOf(form.getFieldsValue(true));
    const sent = changeOf(body);
    let stored: Row | undefined;
    try {
      if (mode === 'create' || Object.keys(sent).length) stored = await caller.call<Row>(mode, { id: row?.id, data: sent });
    } catch (e) {
      const answer = ext.recover?.({ error: e, body, mode, t });
      if (answer) {
        if (!(await answer)) return false;
        saved.current = true;
        onSaved();
        return true;
      }
      const failure = failureOf(e);
      // A refusal naming fields (400 invalid, 406 duplicate or bound elsewhere) lands on them, and the
      // form scrolls to the first; the request config's toast says it too.
      const names = [...fields.map((f) => f.name), ...(section?.fields ?? [])];
      if (failure.status === 400 || failure.status === 406) {
        applyFieldErrors(form, failure.errors, names);
        const first = failure.errors.find((fe) => names.includes(fe.field));
        if (first) form.scrollToField(first.field, { block: 'center' });
      }
      return false;
    }
    return finish(typeof stored?.id === 'number' ? stored.id : typeof row?.id === 'number' ? row.id : undefined);
  };

  // Esc, the close button or the mask after typing: ask before throwing the input away.
  const close = () => {
    if (saved.current || !form.isFieldsTouched()) return onClose();
    feedback().modal.confirm({
      title: t('console.schema.discardTitle'),
      content: t('console.schema.discardContent'),
      okText: t('console.schema.discard'),
      cancelText: t('console.schema.keepEditing'),
      okButtonProps: { danger: true },
      onOk: onClose,
    });
  };

  const ownTitle = mode === 'create' ? titles?.createTitle : titles?.editTitle;
  const title = ownTitle
    ? t(ownTitle)
    : t(mode === 'create' ? 'console.schema.createTitle' : 'console.schema.editTitle', { title: itemTitle(t, entity) });
  const items = fields.map((f) => {
    const own = ext.inputs?.[f.name];
    const help = ext.help?.[f.name];
    return (
      <ProForm.Item
        key={f.name}
        name={f.name}
        label={f.label}
        required={f.required}
        rules={[ruleOf(f.name, f.label, f.required, mode === 'create' && !!ext.requiredOnCreate?.includes(f.name))]}
        valuePropName={f.widget === 'switch' ? 'checked' : 'value'}
        {...(help ? { extra: t(help) } : {})}
      >
        {own ? own({ form, row }) : fieldInput({ field: f, row, entity })}
      </ProForm.Item>
    );
  });
  if (section) items.push(<div key="section">{section.render({ form, row })}</div>);
  const common = {
    title,
    form,
    // Field ids become `<entity>-form_<field>`, apart from the search form's ids for the same fields.
    name: `${entity}-form`,
    open: true,
    initialValues,
    onFinish: submit,
    onOpenChange: (open: boolean) => !open && close(),
    layout: 'vertical' as const,
  };
  return fields.length > LONG_FORM_FIELDS && !ext.modal ? (
    <DrawerForm {...common} width={560} drawerProps={{ maskClosable: false }}>
      {items}
    </DrawerForm>
  ) : (
    <ModalForm {...common} width={560} modalProps={{ maskClosable: false }}>
      {items}
    </ModalForm>
  );
}
