import RjsfForm from '@rjsf/antd';
import type { RJSFSchema, UiSchema, ValidatorType } from '@rjsf/utils';
import { createPrecompiledValidator } from '@rjsf/validator-ajv8';
import type { ErrorObject } from 'ajv';
import { useMemo } from 'react';
import { LABEL_PREVIEW_VALIDATORS } from '../../../../schemas/generated/labelPreviewValidators';
import type { EntitySchema, PropertySchema } from '../../../../schemas/kit/entity';
import { renderFieldError, toFieldErrors } from '../../../../schemas/kit/errors';
import type { Translate } from '../../../../schemas/kit/i18n';
import { errorSample, previewFormSchema } from '../../../../schemas/kit/labelPreview';

/**
 * The schema, precompiled validator (schemas/generated/labelPreviewValidators.ts, made at
 * `npm run gen`: nothing is compiled here, so no eval and the CSP stands) and labels of an entity's
 * preview form, every text from `t` (drafts over what users see now).
 */
export function previewForm(
  entity: string,
  schema: EntitySchema,
  t: Translate,
): { schema: RJSFSchema; validator: ValidatorType; uiSchema: UiSchema } {
  const form = previewFormSchema(entity, schema) as RJSFSchema;
  const prefix = `entity.${entity}.fields`;
  const localize = (errors?: null | ErrorObject[]) => {
    for (const e of errors ?? []) {
      const fe = toFieldErrors([e], prefix)[0];
      if (fe) e.message = renderFieldError(fe, t);
    }
  };
  const uiSchema: UiSchema = { 'ui:submitButtonOptions': { norender: true }, 'ui:title': t(`entity.${entity}.title`) };
  for (const [name, p] of Object.entries((form.properties ?? {}) as Record<string, PropertySchema>)) {
    const ui: Record<string, unknown> = { 'ui:title': t(`${prefix}.${name}`) };
    if (p.enum) ui['ui:enumNames'] = p.enum.map((v) => (v === null ? '' : t(`entity.${entity}.enums.${name}.${String(v)}`)));
    if (p.writeOnly) ui['ui:widget'] = 'password';
    uiSchema[name] = ui;
  }
  return { schema: form, validator: createPrecompiledValidator(LABEL_PREVIEW_VALIDATORS[entity], form, localize), uiSchema };
}

interface Props {
  entity: string;
  schema: EntitySchema;
  t: Translate;
}

/** The entity's form rendered by rjsf (antd theme) on a sample with errors, live-validated. */
export default function LabelPreview({ entity, schema, t }: Props) {
  const form = useMemo(() => previewForm(entity, schema, t), [entity, schema, t]);
  const sample = useMemo(() => errorSample(form.schema as Record<string, unknown>), [form.schema]);
  return (
    <div data-testid="labels-preview">
      <RjsfForm
        // A new entity or new words: a fresh form on the sample, validated at once.
        key={`${entity}`}
        tagName="div"
        schema={form.schema}
        uiSchema={form.uiSchema}
        validator={form.validator}
        formData={sample}
        liveValidate
        showErrorList={false}
        idPrefix="labels-preview"
      />
    </div>
  );
}
