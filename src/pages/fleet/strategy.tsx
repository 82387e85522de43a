import { ProForm } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import { Form } from 'antd';
import type { FormInstance } from 'antd';
import { useState } from 'react';
import { translator } from '../../../schemas/kit/catalogueStore';
import { DEFAULT_LANGUAGE, matchLanguage } from '../../../schemas/kit/i18n';
import { EntityPage } from '../../components/schema/EntityPage';
import PolicyParamsInput, { paramsError, type PolicyParams } from './strategy/PolicyParamsInput';
import RederiveDialog from './strategy/RederiveDialog';

/** The policy dialog's parameters: the fields of the chosen alarm type, checked before any call. */
function ParamsSection({ form }: { form: FormInstance }) {
  const { locale } = useIntl();
  const t = translator(matchLanguage(locale) ?? DEFAULT_LANGUAGE);
  const alarmType = Form.useWatch('alarmType', form) as string | undefined;
  return (
    <ProForm.Item
      name="params"
      rules={[
        {
          validator: async (_rule: unknown, value: PolicyParams) => {
            const message = paramsError(alarmType, value, t);
            if (message) throw new Error(message);
          },
        },
      ]}
    >
      <PolicyParamsInput alarmType={alarmType} t={t} />
    </ProForm.Item>
  );
}

const formSection = { fields: ['params'], render: ({ form }: { form: FormInstance }) => <ParamsSection form={form} /> };

/**
 * Strategies (page key `fleet/strategy`): the schema page, its dialog extended with the per-type
 * parameters (one JSON Schema per alarm type, schemas/kit/policyParams.ts, rendered by rjsf). A
 * saved policy asks how it applies: from now on, or re-derived from a day (RederiveDialog).
 */
export default function StrategyPage() {
  const [saved, setSaved] = useState<number | null>(null);
  return (
    <>
      <EntityPage entity="policy" formSection={formSection} onSaved={(id) => id !== undefined && setSaved(id)} />
      {saved !== null && <RederiveDialog policyId={saved} onClose={() => setSaved(null)} />}
    </>
  );
}
