import PlaceText from '../../components/location/PlaceText';
import { DownloadOutlined, MutedOutlined, SoundOutlined } from '@ant-design/icons';
import { useLocation } from '@umijs/max';
import {
  App,
  Button,
  Card,
  DatePicker,
  Form,
  Input,
  Modal,
  notification,
  Select,
  Space,
  Switch,
  Table,
  Tabs,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { useState } from 'react';
import { UNHANDLED_CURRENT_HOURS } from '../../../schemas/kit/alarmCurrent';
import { useNumberFormat } from '../../components/charts/useNumberFormat';
import OrgTreeSelect from '../../components/schema/OrgTreeSelect';
import RefSelect from '../../components/schema/RefSelect';
import { exportAlarms, handleAlarm, type AlarmCategory, type AlarmRow } from '../../services/alarms';
import DownloadStatus from '../../components/sheet/DownloadStatus';
import { useDownload } from '../../components/sheet/useDownload';
import Permission from '../../session/Permission';
import { useT } from '../../session/useT';
import { parseTime } from '../../utils/formatTime';
import { alarmValueText, LEVEL_COLOURS, mayHaveEvidence, typesOf } from './alarmModel';
import AlarmEvidence from './AlarmEvidence';
import VideoButton from '../../components/video/VideoButton';
import { NO_FILTERS, useAlarmList, type AlarmFilters, type AlarmView } from './useAlarmList';
import { useAlarmToasts } from './useAlarmToasts';

export const ALARM_HANDLE = 'alarm-handle';

/** What later data made of an alarm that is no longer current: withdrawn, or superseded with a link to its successor. */
function StateMark({ alarm, follow }: { alarm: AlarmRow; follow: (id: number) => void }) {
  const t = useT();
  if (alarm.state === 'withdrawn')
    return (
      <Tooltip title={t('console.alarm.withdrawnHelp')}>
        <Tag data-testid="alarm-state">{t('console.alarm.stateWithdrawn')}</Tag>
      </Tooltip>
    );
  if (alarm.state !== 'superseded') return null;
  const next = alarm.supersededBy;
  return (
    <Tooltip title={t('console.alarm.supersededHelp')}>
      <Tag data-testid="alarm-state">{t('console.alarm.stateSuperseded')}</Tag>
      {next !== null && (
        <Typography.Link onClick={() => follow(next)} data-testid="alarm-successor">
          {t('console.alarm.supersededBy', { id: next })}
        </Typography.Link>
      )}
    </Tooltip>
  );
}

/**
 * One list of the alarm centre: a category's alarms (or all, terminal ones included), current or
 * history, filtered, each handled with a note; `shownId` lists one alarm alone (a link to it).
 */
function AlarmTable({
  category,
  view,
  testId,
  shownId = null,
}: {
  category: AlarmCategory | null;
  view: AlarmView;
  testId: string;
  shownId?: number | null;
}) {
  const t = useT();
  const fmt = useNumberFormat();
  const { message } = App.useApp();
  const [filters, setFilters] = useState<AlarmFilters>({ ...NO_FILTERS, id: shownId });
  const list = useAlarmList(category, view, filters);
  const [handling, setHandling] = useState<AlarmRow | null>(null);
  const [form] = Form.useForm<{ note: string }>();
  const set = (patch: Partial<AlarmFilters>) => setFilters((f) => ({ ...f, ...patch }));
  const download = useDownload();
  const doExport = () =>
    void download.start(
      (watch) => exportAlarms(list.criteria, watch),
      () => `${t('console.alarm.all')}.xlsx`,
    );

  const columns: ColumnsType<AlarmRow> = [
    { key: 'begin', title: t('alarm.fields.begin'), render: (_, a) => parseTime(a.begin), width: 170 },
    {
      key: 'end',
      title: t('alarm.fields.end'),
      render: (_, a) => (
        <Space size={4} wrap>
          {a.end ? parseTime(a.end) : a.state === 'current' ? <Tag color="red">{t('console.alarm.ongoing')}</Tag> : null}
          <StateMark alarm={a} follow={(id) => setFilters({ ...NO_FILTERS, id })} />
        </Space>
      ),
      width: 170,
    },
    { key: 'licence', title: t('alarm.fields.vehicleId'), dataIndex: 'licence' },
    { key: 'type', title: t('alarm.fields.type'), render: (_, a) => t(`alarm.types.${a.type}`) },
    ...(category
      ? []
      : [{ key: 'category', title: t('alarm.fields.category'), render: (_: unknown, a: AlarmRow) => t(`alarm.categories.${a.category}`) }]),
    ...(category === 'fence'
      ? [
          {
            key: 'fence',
            title: t('alarm.fields.fenceId'),
            render: (_: unknown, a: AlarmRow) => (a.detail?.fenceName as string | undefined) ?? a.fenceName ?? '',
          },
        ]
      : []),
    {
      key: 'level',
      title: t('console.alarm.level'),
      render: (_, a) => <Tag color={LEVEL_COLOURS[a.level] ?? 'default'}>{t(`alarm.levels.${a.level}`)}</Tag>,
    },
    {
      key: 'value',
      title: t('console.alarm.value'),
      align: 'right',
      render: (_, a) => <span data-testid="alarm-value">{alarmValueText(a, fmt, t)}</span>,
    },
    {
      key: 'place',
      title: t('console.alarm.place'),
      render: (_, a) => <PlaceText latitude={a.latitude} longitude={a.longitude} empty="" />,
    },
    {
      key: 'video',
      title: t('console.video.open'),
      // A current alarm opens the camera live; a past one its recording at the alarm's time.
      render: (_, a) => (
        <VideoButton vehicleId={a.vehicleId} playbackAt={a.status === 'open' && a.end === null ? null : a.begin} testId="alarm-video" />
      ),
    },
    {
      key: 'handled',
      title: t('alarm.fields.handled'),
      render: (_, a) =>
        a.handled ? (
          <Tooltip title={`${a.handledBy ?? ''} ${a.handledAt ? parseTime(a.handledAt) : ''}`}>
            <Typography.Text>{a.note}</Typography.Text>
          </Tooltip>
        ) : (
          <Permission code={ALARM_HANDLE}>
            <Typography.Link onClick={() => setHandling(a)} data-testid="alarm-handle">
              {t('console.alarm.handle')}
            </Typography.Link>
          </Permission>
        ),
    },
  ];

  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }}>
      <Space wrap size={12}>
        {filters.id !== null && (
          <Tag closable onClose={() => set({ id: null })} data-testid="alarm-shown">
            {t('console.alarm.shownAlarm', { id: filters.id })}
          </Tag>
        )}
        <Select
          allowClear
          style={{ width: 160 }}
          placeholder={t('alarm.fields.type')}
          value={filters.type ?? undefined}
          onChange={(v) => set({ type: v ?? null })}
          options={typesOf(category).map((ty) => ({ value: ty, label: t(`alarm.types.${ty}`) }))}
        />
        <Select
          allowClear
          style={{ width: 120 }}
          placeholder={t('alarm.fields.status')}
          value={filters.status ?? undefined}
          onChange={(v) => set({ status: v ?? null })}
          options={[
            { value: 'open', label: t('console.alarm.ongoing') },
            { value: 'closed', label: t('console.alarm.ended') },
          ]}
        />
        <Select
          allowClear
          style={{ width: 120 }}
          placeholder={t('alarm.fields.handled')}
          value={filters.handled === null ? undefined : String(filters.handled)}
          onChange={(v) => set({ handled: v === undefined ? null : v === 'true' })}
          options={[
            { value: 'true', label: t('console.alarm.handledYes') },
            { value: 'false', label: t('console.alarm.handledNo') },
          ]}
        />
        <DatePicker.RangePicker
          value={filters.begin && filters.end ? [dayjs(filters.begin), dayjs(filters.end)] : null}
          onChange={(r) => set({ begin: r?.[0]?.format('YYYY-MM-DD') ?? null, end: r?.[1]?.format('YYYY-MM-DD') ?? null })}
        />
        <OrgTreeSelect
          style={{ width: 200 }}
          value={filters.orgId}
          onChange={(orgId) => set({ orgId })}
          placeholder={t('alarm.fields.orgId')}
        />
        <RefSelect
          style={{ width: 180 }}
          entity="vehicle"
          value={filters.vehicleId}
          onChange={(vehicleId) => set({ vehicleId })}
          placeholder={t('alarm.fields.vehicleId')}
        />
        <Button
          icon={<DownloadOutlined />}
          loading={download.progress !== null}
          disabled={!list.total}
          onClick={doExport}
          data-testid="alarm-export"
        >
          {t('console.alarm.export')}
        </Button>
        <DownloadStatus download={download} />
      </Space>
      <Table<AlarmRow>
        size="small"
        rowKey="id"
        data-testid={testId}
        columns={columns}
        dataSource={list.rows}
        loading={list.loading}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('console.alarm.empty') }}
        // An active safety alarm opens on the photos and clips its terminal uploaded.
        expandable={{ rowExpandable: (a) => mayHaveEvidence(a.category), expandedRowRender: (a) => <AlarmEvidence alarmId={a.id} /> }}
        pagination={{
          current: list.page.index,
          pageSize: list.page.size,
          total: list.total,
          showSizeChanger: true,
          onChange: list.setPage,
          showTotal: (n) => t('console.statistics.rows', { n: fmt(n) }),
        }}
      />
      <Modal
        open={!!handling}
        title={handling ? t('console.alarm.handleTitle', { licence: handling.licence, type: t(`alarm.types.${handling.type}`) }) : ''}
        onCancel={() => setHandling(null)}
        destroyOnClose
        okText={t('console.alarm.handle')}
        onOk={async () => {
          const { note } = await form.validateFields();
          const done = await handleAlarm(handling!.id, note.trim());
          setHandling(null);
          void message.success(t('console.alarm.handledOk', { licence: done.licence, type: t(`alarm.types.${done.type}`) }));
          list.reload();
        }}
      >
        <Form form={form} layout="vertical" preserve={false}>
          <Form.Item
            name="note"
            label={t('alarm.fields.note')}
            rules={[
              { required: true, whitespace: true, message: t('alarm.noteRequired') },
              { max: 500, message: t('alarm.noteTooLong') },
            ]}
          >
            <Input.TextArea rows={4} maxLength={500} showCount data-testid="alarm-note" />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}

/**
 * An alarm centre page: current and history tabs of its category (every category when null), the
 * all-alarms view where asked, and a live toast (with a chime that can be muted) for each new
 * alarm. `?alarmId=` (the dashboard's link to an alarm) opens the history tab on that alarm alone,
 * whatever its state, so the alarm a link names is always listed.
 */
export default function AlarmCentre({ category, withAll }: { category: AlarmCategory | null; withAll?: boolean }) {
  const t = useT();
  const { search } = useLocation();
  const shownId = Number(new URLSearchParams(search).get('alarmId')) || null;
  const [tab, setTab] = useState<string | null>(null);
  const active = tab ?? (shownId ? 'history' : 'current');
  const name = category ?? 'all';
  const [api, holder] = notification.useNotification();
  const toasts = useAlarmToasts((a) =>
    api.warning({
      message: `${a.licence} · ${t(`alarm.types.${a.type}`)}`,
      description: `${t(`alarm.categories.${a.category}`)} · ${parseTime(a.begin)}`,
      placement: 'bottomRight',
    }),
  );
  const items = [
    {
      key: 'current',
      label: t('console.alarm.current'),
      children: <AlarmTable category={category} view="current" testId={`alarm-${name}-current`} />,
    },
    {
      key: 'history',
      label: t('console.alarm.history'),
      children: <AlarmTable key={shownId ?? 0} category={category} view="history" testId={`alarm-${name}-history`} shownId={shownId} />,
    },
    ...(withAll
      ? [{ key: 'all', label: t('console.alarm.all'), children: <AlarmTable category={null} view="history" testId="alarm-all" /> }]
      : []),
  ];
  return (
    <Card data-testid={`alarm-page-${name}`}>
      {holder}
      <Typography.Paragraph type="secondary" data-testid="alarm-current-help">
        {t('console.alarm.currentHelp', { hours: UNHANDLED_CURRENT_HOURS })}
      </Typography.Paragraph>
      <Tabs
        destroyInactiveTabPane
        activeKey={active}
        onChange={setTab}
        items={items}
        tabBarExtraContent={
          <Space>
            {toasts.muted ? <MutedOutlined /> : <SoundOutlined />}
            <Tooltip title={t('console.alarm.soundHelp')}>
              <Switch size="small" checked={!toasts.muted} onChange={(on) => toasts.setMuted(!on)} data-testid="alarm-sound" />
            </Tooltip>
          </Space>
        }
      />
    </Card>
  );
}
