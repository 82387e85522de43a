import RjsfForm from '@rjsf/antd';
import type { RJSFSchema, UiSchema, ValidatorType } from '@rjsf/utils';
import { createPrecompiledValidator } from '@rjsf/validator-ajv8';
import type { ErrorObject } from 'ajv';
import { useEffect, useMemo, useRef } from 'react';
import { POLICY_PARAMS_VALIDATORS } from '../../../../schemas/generated/policyParamsValidators';
import { renderFieldError, toFieldErrors } from '../../../../schemas/kit/errors';
import type { Translate } from '../../../../schemas/kit/i18n';
import { policyParamsFormSchema } from '../../../../schemas/kit/policyParams';

export type PolicyParams = Record<string, unknown> | null;

/** Labels of the parameters, as the server names them in its errors. */
const LABELS = 'alarm.params';

/**
 * The schema and precompiled validator (schemas/generated/policyParamsValidators.ts, made at
 * `npm run gen`) of a type's parameters, its errors worded as the server words them; null for a
 * type without parameters. Nothing is compiled here: no eval, so the CSP stands.
 */
export function paramsForm(alarmType: string | undefined, t: Translate): { schema: RJSFSchema; validator: ValidatorType } | null {
  const schema = alarmType ? (policyParamsFormSchema(alarmType) as RJSFSchema | null) : null;
  if (!alarmType || !schema) return null;
  const localize = (errors?: null | ErrorObject[]) => {
    for (const e of errors ?? []) {
      const fe = toFieldErrors([e], LABELS)[0];
      if (fe) e.message = renderFieldError(fe, t);
    }
  };
  return { schema, validator: createPrecompiledValidator(POLICY_PARAMS_VALIDATORS[alarmType], schema, localize) };
}

/** The first error of params against its type's schema, in the server's words; null when they fit. */
export function paramsError(alarmType: string | undefined, params: PolicyParams, t: Translate): string | null {
  const form = paramsForm(alarmType, t);
  if (!form || params === null || params === undefined) return null;
  const { errors } = form.validator.validateFormData(params, form.schema);
  return errors[0]?.message ?? null;
}

interface Props {
  alarmType?: string;
  t: Translate;
  value?: PolicyParams;
  onChange?: (value: PolicyParams) => void;
}

/**
 * A policy's per-type parameters (rjsf with its antd theme) as one form control: the fields of the
 * chosen alarm type, live-checked; switching the type drops the previous type's parameters.
 */
export default function PolicyParamsInput({ alarmType, t, value, onChange }: Props) {
  const form = useMemo(() => paramsForm(alarmType, t), [alarmType, t]);
  const previous = useRef(alarmType);
  useEffect(() => {
    if (previous.current !== alarmType) onChange?.(null);
    previous.current = alarmType;
  }, [alarmType, onChange]);
  const uiSchema = useMemo<UiSchema>(() => {
    const ui: UiSchema = { 'ui:submitButtonOptions': { norender: true }, 'ui:title': t(`${LABELS}.params`) };
    for (const name of Object.keys((form?.schema.properties as Record<string, unknown> | undefined) ?? {}))
      ui[name] = { 'ui:title': t(`${LABELS}.${name}`) };
    return ui;
  }, [form, t]);
  if (!form) return null;
  return (
    <div data-testid="policy-params">
      <RjsfForm
        key={alarmType}
        tagName="div"
        schema={form.schema}
        uiSchema={uiSchema}
        validator={form.validator}
        formData={value ?? undefined}
        liveValidate
        showErrorList={false}
        idPrefix="policy-params"
        onChange={(e) => onChange?.((e.formData as Record<string, unknown> | undefined) ?? null)}
      />
    </div>
  );
}
