import { Form, Input, InputNumber, Typography, type FormInstance } from 'antd';
import { paramProblem, TERMINAL_PARAMS } from '../../../schemas/kit/terminalParams';
import { useT } from '../../session/useT';

export type ParamsValues = Record<string, number | string | null | undefined>;

/**
 * The terminal parameters (0x8103) as a form: one field per named parameter, all optional, each
 * checked against its bounds with the catalogue's validation messages; the caller sends the
 * filled-in ones.
 */
export default function ParamsForm({ form }: { form: FormInstance<ParamsValues> }) {
  const t = useT();
  return (
    <Form form={form} layout="horizontal" labelCol={{ span: 10 }} wrapperCol={{ span: 14 }} size="small" data-testid="params-form">
      <Typography.Paragraph type="secondary">{t('console.command.paramsHint')}</Typography.Paragraph>
      {TERMINAL_PARAMS.map((def) => {
        const label = t(`console.command.param.${def.name}`);
        return (
          <Form.Item
            key={def.name}
            name={def.name}
            label={label}
            style={{ marginBottom: 8 }}
            rules={[
              {
                validator: async (_, value: number | string | null | undefined) => {
                  if (value === undefined || value === null || value === '') return;
                  const problem = paramProblem(def, value);
                  if (problem) throw new Error(t(problem.key, { field: label, ...problem.params }));
                },
              },
            ]}
          >
            {def.type === 'string' ? (
              <Input allowClear data-testid={`param-${def.name}`} />
            ) : (
              <InputNumber style={{ width: '100%' }} data-testid={`param-${def.name}`} />
            )}
          </Form.Item>
        );
      })}
    </Form>
  );
}
