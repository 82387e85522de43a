import { Alert, Button, Form, Input, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { defaultCatalogues } from '../../../../schemas/kit/catalogue';
import { LANGUAGES, type Language, type Translate } from '../../../../schemas/kit/i18n';
import { LABEL_VALUE_MAX, placeholderProblem, placeholders } from '../../../../schemas/kit/labelRules';
import type { LabelRow } from './rows';

interface Props {
  row: LabelRow;
  t: Translate;
  onCancel: () => void;
  onSave: (values: Partial<Record<Language, string>>, publish: boolean) => Promise<void>;
}

/**
 * One key in four languages. Each language's field holds its draft (empty when it has none); the
 * current text is shown beside it and can be kept with one click, so publishing, which needs all
 * four, asks the analyst to look at every language. Placeholders are checked as the server checks them.
 */
export default function EditDialog({ row, t, onCancel, onSave }: Props) {
  const [form] = Form.useForm<Partial<Record<Language, string>>>();
  const [busy, setBusy] = useState<'draft' | 'publish' | null>(null);
  const hint = placeholders(defaultCatalogues['zh-CN'][row.key] ?? '');

  const submit = async (publish: boolean) => {
    let values: Partial<Record<Language, string>>;
    try {
      values = await form.validateFields();
    } catch {
      return; // the fields show what is wrong
    }
    setBusy(publish ? 'publish' : 'draft');
    try {
      await onSave(values, publish);
    } catch {
      // The request layer has shown the server's message (SPEC.md §8); the dialog stays open.
    } finally {
      setBusy(null);
    }
  };

  return (
    <Modal
      open
      width={720}
      title={t('console.labels.editTitle', { key: row.key })}
      onCancel={onCancel}
      footer={
        <Space>
          <Button onClick={onCancel}>{t('console.labels.cancel')}</Button>
          <Button loading={busy === 'draft'} onClick={() => void submit(false)} data-testid="labels-save-draft">
            {t('console.labels.saveDraft')}
          </Button>
          <Button type="primary" loading={busy === 'publish'} onClick={() => void submit(true)} data-testid="labels-save-publish">
            {t('console.labels.saveAndPublish')}
          </Button>
        </Space>
      }
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Alert
          type="info"
          showIcon
          message={t('console.labels.editHelp')}
          description={
            hint.length ? t('console.labels.placeholdersHint', { placeholders: hint.map((p) => `{${p}}`).join(' ') }) : undefined
          }
        />
        <Form form={form} layout="vertical" initialValues={row.drafts}>
          {LANGUAGES.map((l) => (
            <Form.Item
              key={l}
              name={l}
              label={t(`labels.language.${l}`)}
              extra={
                <Space size={8} wrap>
                  <Typography.Text type="secondary">{t('console.labels.current', { text: row.texts[l] })}</Typography.Text>
                  <Typography.Link onClick={() => form.setFieldValue(l, row.texts[l])} data-testid={`labels-keep-${l}`}>
                    {t('console.labels.useCurrent')}
                  </Typography.Link>
                </Space>
              }
              rules={[
                {
                  validator: async (_, value?: string) => {
                    if (!value) return;
                    const problem = placeholderProblem(defaultCatalogues[l][row.key] ?? '', value);
                    if (problem) throw new Error(t(problem.key, { ...problem.params, field: t('labels.fields.value') }));
                  },
                },
              ]}
            >
              <Input.TextArea
                autoSize={{ minRows: 1, maxRows: 4 }}
                maxLength={LABEL_VALUE_MAX}
                placeholder={row.texts[l]}
                data-testid={`labels-input-${l}`}
              />
            </Form.Item>
          ))}
        </Form>
      </Space>
    </Modal>
  );
}
