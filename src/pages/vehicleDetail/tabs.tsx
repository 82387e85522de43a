import { Alert, Card, Descriptions, Empty, List, Space, Table, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import type { Row } from '../../services/entity';
import {
  monthLedger,
  queryAlarms,
  queryPolicies,
  queryTrips,
  runAndStop,
  type AlarmRow,
  type LedgerFigures,
  type Range,
  type Segment,
  type Trip,
  type VehicleReport,
} from '../../services/vehicleDetail';
import { useT } from '../../session/useT';
import { parseTime } from '../../utils/formatTime';
import { formatDuration } from '../../utils/duration';
import { statusOf } from '../fleet/monitor/monitorModel';
import { policyThresholdText } from '../alarm/alarmModel';
import { driverText } from '../statistics/driverModel';
import LedgerChart from './LedgerChart';
import { newestFirst, policiesFor } from './detailModel';
import { faultTitle } from './messageText';
import { useNumberFormat } from '../../components/charts/useNumberFormat';

/** Trips of a range, paged, and the range's run and stop segments. */
export function HistoryTab({ vehicleId, range, onReplay }: { vehicleId: number; range: Range; onReplay: (r: Range) => void }) {
  const t = useT();
  const fmt = useNumberFormat();
  const [page, setPage] = useState(1);
  const [trips, setTrips] = useState<{ data: Trip[]; total: number } | null>(null);
  const [segments, setSegments] = useState<Segment[] | null>(null);
  useEffect(() => {
    let live = true;
    queryTrips(vehicleId, range, page, 10).then(
      (p) => live && setTrips(p),
      () => live && setTrips({ data: [], total: 0 }),
    );
    return () => {
      live = false;
    };
  }, [vehicleId, range, page]);
  useEffect(() => {
    let live = true;
    runAndStop(vehicleId, range).then(
      (r) => live && setSegments(newestFirst(r.segments)),
      () => live && setSegments([]),
    );
    return () => {
      live = false;
    };
  }, [vehicleId, range]);
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="detail-history">
      <Table<Trip>
        size="small"
        rowKey="id"
        loading={!trips}
        dataSource={trips?.data ?? []}
        pagination={{ current: page, pageSize: 10, total: trips?.total ?? 0, onChange: setPage, showSizeChanger: false }}
        columns={[
          { title: t('console.vehicleDetail.begin'), dataIndex: 'begin', render: (v: string) => parseTime(v) },
          { title: t('console.vehicleDetail.end'), dataIndex: 'end', render: (v: string) => parseTime(v) },
          {
            title: t('console.vehicleDetail.distance'),
            dataIndex: 'distanceKm',
            render: (v: number) => t('console.monitor.mileageValue', { km: v.toFixed(1) }),
          },
          { title: t('console.vehicleDetail.duration'), dataIndex: 'durationS', render: (v: number) => formatDuration(v, t) },
          { title: t('console.vehicleDetail.driver'), key: 'driver', render: (_: unknown, trip: Trip) => driverText(trip.driver, t) },
          {
            title: t('console.vehicleDetail.maxSpeed'),
            dataIndex: 'maxSpeed',
            render: (v: number) => t('console.monitor.speedValue', { speed: fmt(v, 1) }),
          },
          {
            title: t('console.vehicleDetail.fuelUsed'),
            dataIndex: 'fuelL',
            render: (v: number | null) => (v === null ? '—' : t('console.monitor.fuelValue', { litres: v.toFixed(1) })),
          },
          {
            title: '',
            key: 'replay',
            render: (_: unknown, trip: Trip) => (
              <Typography.Link onClick={() => onReplay({ begin: trip.begin, end: trip.end })} data-testid="trip-replay">
                {t('console.monitor.replay')}
              </Typography.Link>
            ),
          },
        ]}
        data-testid="detail-trips"
      />
      <Card size="small" title={t('console.vehicleDetail.runAndStop')}>
        <List
          size="small"
          loading={!segments}
          dataSource={segments ?? []}
          locale={{ emptyText: t('console.vehicleDetail.noTrips') }}
          renderItem={(s) => (
            <List.Item>
              <Tag color={s.kind === 'run' ? 'green' : 'purple'}>{t(`console.vehicleDetail.segment.${s.kind}`)}</Tag>
              {parseTime(s.begin)} – {parseTime(s.end)} · {formatDuration(s.durationS, t)}
              {s.kind === 'run' && s.distanceKm !== undefined
                ? ` · ${t('console.monitor.mileageValue', { km: s.distanceKm.toFixed(1) })}`
                : ''}
            </List.Item>
          )}
        />
      </Card>
    </Space>
  );
}

/** The ledger by month (charts) and the policies that apply to the vehicle. */
export function StatisticsTab({ vehicleId, orgId, orgPath }: { vehicleId: number; orgId: number; orgPath: readonly number[] }) {
  const t = useT();
  const fmt = useNumberFormat();
  const [months, setMonths] = useState<(LedgerFigures & { month: string })[] | null>(null);
  const [policies, setPolicies] = useState<Row[] | null>(null);
  useEffect(() => {
    let live = true;
    monthLedger(vehicleId).then(
      (r) => live && setMonths(r),
      () => live && setMonths([]),
    );
    queryPolicies().then(
      (p) => live && setPolicies(p.data),
      () => live && setPolicies([]),
    );
    return () => {
      live = false;
    };
  }, [vehicleId]);
  const chart = useMemo(
    () =>
      months && {
        months: months.map((m) => m.month),
        series: [
          { name: t('console.vehicleDetail.mileage'), type: 'bar' as const, values: months.map((m) => m.mileageKm) },
          { name: t('console.vehicleDetail.fuel'), type: 'line' as const, values: months.map((m) => m.fuelL) },
        ],
      },
    [months, t],
  );
  const applying = useMemo(() => (policies ? policiesFor(policies, orgPath.length ? orgPath : [orgId]) : []), [policies, orgPath, orgId]);
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="detail-statistics">
      <Card size="small" title={t('console.vehicleDetail.ledgerByMonth')}>
        {chart && chart.months.length ? <LedgerChart months={chart.months} series={chart.series} /> : <Empty />}
      </Card>
      <Card size="small" title={t('console.vehicleDetail.policies')}>
        <List
          size="small"
          dataSource={applying}
          locale={{ emptyText: t('console.vehicleDetail.noPolicies') }}
          renderItem={(p) => (
            <List.Item data-testid="detail-policy">
              <Space>
                <Typography.Text strong>{String(p.name)}</Typography.Text>
                <Tag>{t(`alarm.types.${String(p.alarmType)}`)}</Tag>
                {p.threshold !== null && p.threshold !== undefined && (
                  <span>
                    {t('console.vehicleDetail.threshold', { value: policyThresholdText(String(p.alarmType), Number(p.threshold), fmt, t) })}
                  </span>
                )}
                {p.durationMinutes !== null && p.durationMinutes !== undefined && (
                  <span>{t('console.vehicleDetail.minutes', { minutes: String(p.durationMinutes) })}</span>
                )}
              </Space>
            </List.Item>
          )}
        />
      </Card>
    </Space>
  );
}

/** The latest state, today's and this month's figures, the open faults with their remedy. */
export function ConditionTab({ vehicleId, report }: { vehicleId: number; report: VehicleReport }) {
  const t = useT();
  const fmt = useNumberFormat();
  const [faults, setFaults] = useState<AlarmRow[] | null>(null);
  useEffect(() => {
    let live = true;
    queryAlarms({ vehicleId, status: 'open' }, 100).then(
      (p) => live && setFaults(p.data),
      () => live && setFaults([]),
    );
    return () => {
      live = false;
    };
  }, [vehicleId]);
  const s = report.state;
  const status = s ? statusOf(s) : 'offline';
  const none = t('console.monitor.none');
  const obd = faults?.filter((f) => f.category === 'obd' || f.type === 'Fault') ?? [];
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="detail-condition">
      <Card size="small" title={t('console.vehicleDetail.latest')}>
        {s ? (
          <Descriptions
            size="small"
            column={3}
            items={[
              { key: 'status', label: t('console.vehicleDetail.status'), children: t(`console.monitor.status.${status}`) },
              { key: 'time', label: t('console.monitor.lastReport'), children: s.time ? parseTime(s.time) : none },
              {
                key: 'speed',
                label: t('console.monitor.speed'),
                children: s.speed === null ? none : t('console.monitor.speedValue', { speed: fmt(s.speed, 1) }),
              },
              {
                key: 'acc',
                label: t('console.monitor.acc'),
                children: s.acc === null ? none : t(s.acc ? 'console.monitor.accOn' : 'console.monitor.accOff'),
              },
              {
                key: 'fuel',
                label: t('console.monitor.fuel'),
                children: s.fuelL === null ? none : t('console.monitor.fuelValue', { litres: fmt(s.fuelL, 1) }),
              },
              {
                key: 'mileage',
                label: t('console.monitor.mileage'),
                children: s.mileageKm === null ? none : t('console.monitor.mileageValue', { km: fmt(s.mileageKm, 1) }),
              },
            ]}
          />
        ) : (
          <Empty description={t('console.vehicleDetail.noState')} />
        )}
      </Card>
      <Card size="small" title={t('console.vehicleDetail.figures')}>
        <Descriptions
          size="small"
          column={2}
          items={[
            {
              key: 'today',
              label: t('console.vehicleDetail.today'),
              children: t('console.vehicleDetail.figureLine', {
                km: report.today.mileageKm.toFixed(1),
                fuel: report.today.fuelL.toFixed(1),
                trips: report.today.tripCount,
              }),
            },
            {
              key: 'month',
              label: t('console.vehicleDetail.thisMonth'),
              children: t('console.vehicleDetail.figureLine', {
                km: report.month.mileageKm.toFixed(1),
                fuel: report.month.fuelL.toFixed(1),
                trips: report.month.tripCount,
              }),
            },
          ]}
        />
      </Card>
      <Card size="small" title={t('console.vehicleDetail.openFaults')}>
        {faults && obd.length === 0 && <Alert type="success" showIcon message={t('console.vehicleDetail.noFaults')} />}
        <List
          size="small"
          loading={!faults}
          dataSource={obd}
          renderItem={(f) => (
            <List.Item data-testid="detail-fault">
              <Space direction="vertical" size={0}>
                <Space>
                  <Tag color="red">{t(`alarm.levels.${f.level}`)}</Tag>
                  <Typography.Text strong>{faultTitle(t, f)}</Typography.Text>
                  <Typography.Text type="secondary">{parseTime(f.begin)}</Typography.Text>
                </Space>
                {f.detail?.resolvent !== undefined && (
                  <Typography.Text>{t('console.vehicleDetail.remedy', { text: String(f.detail.resolvent) })}</Typography.Text>
                )}
              </Space>
            </List.Item>
          )}
        />
      </Card>
    </Space>
  );
}
