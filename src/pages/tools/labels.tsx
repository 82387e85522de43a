import { Button, Card, Col, Input, Popconfirm, Row, Segmented, Select, Space, Table, Tabs, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { schemaEntities } from '../../../schemas/generated/registry';
import { getLocale } from '@umijs/max';
import { DEFAULT_LANGUAGE, LANGUAGES, matchLanguage, type Language } from '../../../schemas/kit/i18n';
import { feedback } from '../../services/http/feedback';
import { LABEL_EDIT } from '../../services/labels';
import Permission from '../../session/Permission';
import { useT } from '../../session/useT';
import { saveBlob } from '../../utils/saveBlob';
import EditDialog from './labels/EditDialog';
import LabelPreview from './labels/LabelPreview';
import { groupKeys, labelRows, previewTranslator, type LabelGroup, type LabelRow } from './labels/rows';
import { useLabelStudio } from './labels/useLabelStudio';

const SCHEMAS: Record<string, (typeof schemaEntities)[keyof typeof schemaEntities]> = schemaEntities;

/**
 * Labels and messages analysts edit (issue 17): an entity's field and value labels, or the
 * validation messages, in four languages side by side; drafts published when all four are done;
 * reset; a live preview of the entity's form; the published edits exported as a patch of the
 * locale files for developers to commit.
 */
export default function LabelsPage() {
  const t = useT();
  const studio = useLabelStudio();
  const [entity, setEntity] = useState('vehicleBrand');
  const [tab, setTab] = useState<'fields' | 'messages'>('fields');
  const [query, setQuery] = useState('');
  const [editing, setEditing] = useState<LabelRow | null>(null);
  const [previewLang, setPreviewLang] = useState<Language>(() => matchLanguage(getLocale()) ?? DEFAULT_LANGUAGE);

  const group = useMemo<LabelGroup>(() => (tab === 'fields' ? { kind: 'entity', entity } : { kind: 'messages' }), [tab, entity]);
  const rows = useMemo(
    () => labelRows(groupKeys(group), studio.effective, studio.overrides, query),
    [group, studio.effective, studio.overrides, query],
  );
  const previewT = useMemo(
    () => previewTranslator(previewLang, studio.effective, studio.overrides),
    [previewLang, studio.effective, studio.overrides],
  );
  const entityOptions = useMemo(
    () =>
      Object.keys(SCHEMAS)
        .map((name) => ({ value: name, label: `${t(`entity.${name}.title`)} (${name})` }))
        .sort((a, b) => a.label.localeCompare(b.label)),
    [t],
  );

  const done = (key: string) => () => void feedback().message.success(t(key));
  const columns: ColumnsType<LabelRow> = [
    { title: t('labels.fields.key'), dataIndex: 'key', width: 220, render: (key: string) => <Typography.Text code>{key}</Typography.Text> },
    ...LANGUAGES.map((l) => ({
      title: t(`labels.language.${l}`),
      key: l,
      render: (_: unknown, row: LabelRow) => (
        <Space direction="vertical" size={2}>
          <span data-testid={`labels-text-${l}`}>{row.texts[l]}</span>
          {row.drafts[l] !== undefined && (
            <Typography.Text type="warning" data-testid={`labels-draft-${l}`}>
              <Tag color="orange">{t('console.labels.draftTag')}</Tag>
              {row.drafts[l]}
            </Typography.Text>
          )}
        </Space>
      ),
    })),
    {
      title: t('console.labels.status'),
      key: 'status',
      width: 170,
      render: (_: unknown, row: LabelRow) => (
        <Space direction="vertical" size={2}>
          {Object.keys(row.published).length > 0 && <Tag color="blue">{t('console.labels.edited')}</Tag>}
          {Object.keys(row.drafts).length > 0 && (
            <Tag color="orange">{t('console.labels.draft', { count: Object.keys(row.drafts).length })}</Tag>
          )}
          {row.missing.length > 0 && (
            <Typography.Text type="secondary" data-testid="labels-missing">
              {t('console.labels.missing', { languages: row.missing.map((l) => t(`labels.language.${l}`)).join('、') })}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: t('console.labels.actions'),
      key: 'actions',
      width: 200,
      render: (_: unknown, row: LabelRow) => (
        <Permission code={LABEL_EDIT}>
          <Space size={4} wrap>
            <Button size="small" type="link" onClick={() => setEditing(row)} data-testid="labels-edit">
              {t('console.labels.edit')}
            </Button>
            {Object.keys(row.drafts).length > 0 && (
              <Tooltip
                title={
                  row.missing.length
                    ? t('console.labels.missing', { languages: row.missing.map((l) => t(`labels.language.${l}`)).join('、') })
                    : undefined
                }
              >
                <Button
                  size="small"
                  type="link"
                  disabled={row.missing.length > 0}
                  onClick={() => studio.publish(row.key).then(done('console.labels.published'), () => undefined)}
                  data-testid="labels-publish"
                >
                  {t('console.labels.publish')}
                </Button>
              </Tooltip>
            )}
            {(Object.keys(row.drafts).length > 0 || Object.keys(row.published).length > 0) && (
              <Popconfirm
                title={t('console.labels.resetConfirm', { key: row.key })}
                onConfirm={() => studio.reset(row.key).then(done('console.labels.resetDone'), () => undefined)}
              >
                <Button size="small" type="link" danger data-testid="labels-reset">
                  {t('console.labels.reset')}
                </Button>
              </Popconfirm>
            )}
          </Space>
        </Permission>
      ),
    },
  ];

  const exportPatch = async () => {
    const patch = await studio.exportPatch();
    if (!patch) return void feedback().message.warning(t('console.labels.exportEmpty'));
    saveBlob(new Blob([patch], { type: 'text/x-diff' }), 'labels.patch');
  };

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="labels-page">
      <Card
        title={t('console.labels.title')}
        extra={
          <Button onClick={() => void exportPatch().catch(() => undefined)} data-testid="labels-export">
            {t('console.labels.exportPatch')}
          </Button>
        }
      >
        <Space wrap style={{ marginBottom: 12 }}>
          <Select
            showSearch
            optionFilterProp="label"
            style={{ width: 280 }}
            value={entity}
            onChange={setEntity}
            options={entityOptions}
            aria-label={t('console.labels.entity')}
            data-testid="labels-entity"
          />
          <Input.Search
            allowClear
            style={{ width: 260 }}
            placeholder={t('console.labels.search')}
            onChange={(e) => setQuery(e.target.value)}
            data-testid="labels-search"
          />
        </Space>
        <Tabs
          activeKey={tab}
          onChange={(k) => setTab(k as 'fields' | 'messages')}
          items={[
            { key: 'fields', label: t('console.labels.tabFields') },
            { key: 'messages', label: t('console.labels.tabMessages') },
          ]}
        />
        <Table<LabelRow>
          rowKey="key"
          size="small"
          loading={studio.loading}
          columns={columns}
          dataSource={rows}
          pagination={{ pageSize: 20, showSizeChanger: false }}
          scroll={{ x: 1100 }}
          data-testid="labels-table"
        />
      </Card>
      <Card
        title={t('console.labels.preview')}
        extra={
          <Segmented
            value={previewLang}
            onChange={(v) => setPreviewLang(v as Language)}
            options={LANGUAGES.map((l) => ({ value: l, label: t(`labels.language.${l}`) }))}
            aria-label={t('console.labels.previewLanguage')}
            data-testid="labels-preview-language"
          />
        }
      >
        <Row>
          <Col span={24}>
            <Typography.Paragraph type="secondary">{t('console.labels.previewHelp')}</Typography.Paragraph>
            <LabelPreview key={`${entity}-${previewLang}`} entity={entity} schema={SCHEMAS[entity]} t={previewT} />
          </Col>
        </Row>
      </Card>
      {editing && (
        <EditDialog
          row={editing}
          t={t}
          onCancel={() => setEditing(null)}
          onSave={async (values, publish) => {
            await studio.save(editing.key, values, publish);
            setEditing(null);
            void feedback().message.success(t(publish ? 'console.labels.published' : 'console.labels.saved'));
          }}
        />
      )}
    </Space>
  );
}
