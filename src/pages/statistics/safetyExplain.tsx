import { useLocation, useNavigate } from '@umijs/max';
import { Button, Card, Descriptions, Empty, Form, Input, Modal, Radio, Segmented, Skeleton, Space, Statistic, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useNumberFormat } from '../../components/charts/useNumberFormat';
import { useMapConfig } from '../../components/map/useMapConfig';
import RefSelect from '../../components/schema/RefSelect';
import { reviewSafetyEvent, type ReviewState, type SafetyEvent } from '../../services/behaviour';
import Permission from '../../session/Permission';
import { useT } from '../../session/useT';
import { parseTime } from '../../utils/formatTime';
import { driverText } from './driverModel';
import SafetyEventMap from './SafetyEventMap';
import {
  DEFAULT_WINDOW_WEEKS,
  eventKey,
  KIND_COLOURS,
  normalisedKey,
  vehicleIdOf,
  weightLabelKey,
  WINDOW_WEEKS,
} from './safetyExplainModel';
import { useSafetyExplanation } from './useSafetyExplanation';

const REVIEW_CODE = 'safetyEvent-review';

/** Why a vehicle's safety score is what it is: each event on the map and in a table with its weight, share and review. */
export default function SafetyExplainPage() {
  const t = useT();
  const fmt = useNumberFormat();
  const navigate = useNavigate();
  const { search } = useLocation();
  const vehicleId = vehicleIdOf(search);
  const [weeks, setWeeks] = useState<number>(DEFAULT_WINDOW_WEEKS);
  const { data, loading, reload } = useSafetyExplanation(vehicleId, weeks);
  const config = useMapConfig();
  const [picked, setPicked] = useState<string | null>(null);
  const [reviewing, setReviewing] = useState<SafetyEvent | null>(null);
  const [form] = Form.useForm<{ state: ReviewState; note: string }>();
  const [saving, setSaving] = useState(false);

  const kindText = (e: SafetyEvent) => t(weightLabelKey(e));
  const labelOf = (e: SafetyEvent) => `${kindText(e)} · ${parseTime(e.at) ?? ''}`;
  const points = (n: number) => t('console.statistics.safetyExplain.points', { n: fmt(n, 2) });

  const save = async () => {
    if (!reviewing || !data) return;
    // A field left wrong is shown under it by the form; nothing is sent.
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setSaving(true);
    try {
      await reviewSafetyEvent({ vehicleId: data.vehicleId, kind: reviewing.kind, at: reviewing.at, ...values });
      setReviewing(null);
      reload();
    } catch {
      // The request layer has shown the server's message; the dialog stays open to correct it.
    } finally {
      setSaving(false);
    }
  };

  const columns: ColumnsType<SafetyEvent> = [
    { key: 'at', title: t('console.statistics.safetyExplain.time'), render: (_, e) => parseTime(e.at) ?? '' },
    { key: 'driver', title: t('console.vehicleDetail.driver'), render: (_, e) => driverText(e.driver, t) },
    {
      key: 'kind',
      title: t('console.statistics.safetyExplain.kind'),
      render: (_, e) => (
        <Tag color={KIND_COLOURS[e.kind]} data-testid="safety-explain-kind">
          {kindText(e)}
        </Tag>
      ),
    },
    {
      key: 'measure',
      title: t('console.statistics.safetyExplain.measure'),
      render: (_, e) =>
        e.kind === 'speeding' || e.kind === 'night'
          ? t('console.statistics.safetyExplain.duration', { n: fmt(e.durationS / 60, 1) }) +
            (e.peakKmh !== null && e.limitKmh !== null
              ? ` · ${t('console.statistics.safetyExplain.peak', { peak: fmt(e.peakKmh, 0), limit: fmt(e.limitKmh, 0) })}`
              : '')
          : t('console.statistics.safetyExplain.count', { n: fmt(e.count) }),
    },
    {
      key: 'weight',
      title: t('console.statistics.safetyExplain.weight'),
      align: 'right',
      render: (_, e) => `${fmt(e.weight, 1)} · ${t(normalisedKey(e))}`,
    },
    {
      key: 'share',
      title: t('console.statistics.safetyExplain.share'),
      align: 'right',
      render: (_, e) => <span data-testid="safety-explain-share">{points(e.share)}</span>,
      sorter: (a, b) => a.share - b.share,
    },
    {
      key: 'review',
      title: t('console.statistics.safetyExplain.review'),
      render: (_, e) =>
        e.review ? (
          <Space direction="vertical" size={0}>
            <Tag color={e.review.state === 'dismissed' ? 'default' : 'green'}>
              {t(`console.statistics.safetyExplain.state.${e.review.state}`)}
            </Tag>
            <span>{e.review.note}</span>
          </Space>
        ) : null,
    },
    {
      key: 'action',
      title: '',
      render: (_, e) => (
        <Permission code={REVIEW_CODE}>
          <Button
            size="small"
            data-testid="safety-explain-review"
            onClick={(ev) => {
              ev.stopPropagation();
              form.setFieldsValue({ state: e.review?.state ?? 'dismissed', note: e.review?.note ?? '' });
              setReviewing(e);
            }}
          >
            {t('console.statistics.safetyExplain.reviewAction')}
          </Button>
        </Permission>
      ),
    },
  ];

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="statistics-safetyExplain">
      <Card size="small">
        <Space wrap size={12}>
          <RefSelect
            style={{ width: 200 }}
            entity="vehicle"
            value={vehicleId}
            onChange={(id) => navigate(id ? `/statistics/safetyExplain?vehicleId=${id}` : '/statistics/safetyExplain')}
            placeholder={t('console.statistics.vehicle')}
          />
          <Segmented
            value={weeks}
            onChange={(n) => setWeeks(Number(n))}
            options={WINDOW_WEEKS.map((n) => ({ value: n, label: t('console.statistics.safetyExplain.weeks', { n }) }))}
            data-testid="safety-explain-weeks"
          />
        </Space>
      </Card>
      {vehicleId === null ? (
        <Card size="small">
          <Empty description={t('console.statistics.safetyExplain.pickVehicle')} />
        </Card>
      ) : !data ? (
        <Skeleton active={loading} />
      ) : (
        <>
          <Card
            size="small"
            title={t('console.statistics.safetyExplain.title', { licence: data.licence })}
            data-testid="safety-explain-summary"
          >
            <Space wrap size={32}>
              <Statistic
                title={t('reports.columns.score')}
                value={data.score === null ? '—' : fmt(data.score, 1)}
                data-testid="safety-explain-score"
              />
              <Statistic
                title={t('console.statistics.safetyExplain.percentile')}
                value={data.percentile === null ? '—' : fmt(data.percentile, 0)}
                suffix={data.percentile === null ? undefined : '%'}
              />
            </Space>
            <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }} style={{ marginTop: 12 }}>
              <Descriptions.Item label={t('console.statistics.safetyExplain.window')}>{`${data.begin} ~ ${data.end}`}</Descriptions.Item>
              <Descriptions.Item label={t('reports.ledger.mileageKm')}>{fmt(data.distanceKm, 1)}</Descriptions.Item>
              <Descriptions.Item label={t('reports.ledger.drivingH')}>{fmt(data.drivingS / 3600, 2)}</Descriptions.Item>
              <Descriptions.Item label={t('console.statistics.safetyExplain.peers')}>
                {data.peers
                  ? t('console.statistics.safetyExplain.peersText', { n: fmt(data.peers), org: data.orgName })
                  : t('console.statistics.safetyExplain.noPeers')}
              </Descriptions.Item>
              <Descriptions.Item label={t('console.statistics.safetyExplain.weightsFrom')}>
                {data.weightsFrom === null
                  ? t('console.statistics.safetyExplain.defaults')
                  : data.weightsFrom === data.orgId
                    ? data.orgName
                    : t('console.statistics.safetyExplain.ancestor')}
              </Descriptions.Item>
            </Descriptions>
            <div style={{ color: '#8c8c8c' }}>{t('console.statistics.safetyExplain.formula')}</div>
          </Card>
          <Card size="small" title={t('console.statistics.safetyExplain.map')}>
            {config ? (
              <SafetyEventMap config={config} events={data.events} labelOf={labelOf} picked={picked} onPick={setPicked} />
            ) : (
              <Skeleton active />
            )}
          </Card>
          <Card size="small" title={t('console.statistics.safetyExplain.events')}>
            <Table<SafetyEvent>
              size="small"
              rowKey={eventKey}
              columns={columns}
              dataSource={data.events}
              loading={loading}
              scroll={{ x: 'max-content' }}
              locale={{ emptyText: t('console.statistics.safetyExplain.noEvents') }}
              rowClassName={(e) => (eventKey(e) === picked ? 'ant-table-row-selected' : '')}
              onRow={(e) => ({ onClick: () => setPicked(eventKey(e)) })}
              pagination={{ defaultPageSize: 20, showTotal: (n) => t('console.statistics.rows', { n: fmt(n) }) }}
              data-testid="safety-explain-events"
            />
          </Card>
        </>
      )}
      <Modal
        open={reviewing !== null}
        title={
          reviewing
            ? t('console.statistics.safetyExplain.reviewTitle', { kind: kindText(reviewing), at: parseTime(reviewing.at) ?? '' })
            : ''
        }
        okText={t('console.statistics.safetyExplain.save')}
        cancelText={t('console.statistics.safetyExplain.cancel')}
        confirmLoading={saving}
        onOk={save}
        onCancel={() => setReviewing(null)}
        destroyOnClose
      >
        <Form form={form} layout="vertical" data-testid="safety-explain-review-form">
          <Form.Item name="state" label={t('behaviour.fields.state')} rules={[{ required: true }]}>
            <Radio.Group>
              <Radio value="dismissed">{t('console.statistics.safetyExplain.state.dismissed')}</Radio>
              <Radio value="coached">{t('console.statistics.safetyExplain.state.coached')}</Radio>
            </Radio.Group>
          </Form.Item>
          <Form.Item
            name="note"
            label={t('behaviour.fields.note')}
            rules={[{ required: true, whitespace: true, message: t('console.statistics.safetyExplain.noteRequired') }, { max: 500 }]}
          >
            <Input.TextArea rows={3} maxLength={500} showCount />
          </Form.Item>
          <div style={{ color: '#8c8c8c' }}>{t('console.statistics.safetyExplain.reviewHelp')}</div>
        </Form>
      </Modal>
    </Space>
  );
}
