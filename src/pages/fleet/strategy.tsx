import { ProForm } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import { Form } from 'antd';
import type { FormInstance } from 'antd';
import { translator } from '../../../schemas/kit/catalogue';
import { DEFAULT_LANGUAGE, matchLanguage } from '../../../schemas/kit/i18n';
import { entityPage } from '../../components/schema/EntityPage';
import PolicyParamsInput, { paramsError, type PolicyParams } from './strategy/PolicyParamsInput';

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

/**
 * Strategies (page key `fleet/strategy`): the schema page, its dialog extended with the per-type
 * parameters (one JSON Schema per alarm type, schemas/kit/policyParams.ts, rendered by rjsf).
 */
export default entityPage('policy', {
  formSection: { fields: ['params'], render: ({ form }) => <ParamsSection form={form} /> },
});
