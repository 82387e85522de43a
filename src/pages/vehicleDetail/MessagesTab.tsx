import PlaceText from '../../components/location/PlaceText';
import { Segmented, Space, Table, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { auditEvent } from '../../services/audit';
import { queryMessages, type MessageKind, type ObdMessage, type PositionMessage, type Range } from '../../services/vehicleDetail';
import { useT } from '../../session/useT';
import { parseTime } from '../../utils/formatTime';
import { useNumberFormat } from '../../components/charts/useNumberFormat';
import { bitLabels, obdContent, subtypeLabel } from './messageText';

type Loaded<T> = { data: T[]; total: number } | null;

/** The vehicle's stored reports, newest first and paged: positions with their bits by name, or OBD records. */
export function MessagesTab({ vehicleId, range }: { vehicleId: number; range: Range }) {
  const t = useT();
  const fmt = useNumberFormat();
  const [kind, setKind] = useState<MessageKind>('position');
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<Loaded<PositionMessage | ObdMessage>>(null);
  // Reading a vehicle's raw reports is a sensitive act: the audit log keeps who opened whose.
  useEffect(() => auditEvent('vehicleMessages', `vehicle:${vehicleId}`), [vehicleId]);
  useEffect(() => {
    let live = true;
    setRows(null);
    queryMessages(vehicleId, kind, range, page, 20).then(
      (p) => live && setRows(p),
      () => live && setRows({ data: [], total: 0 }),
    );
    return () => {
      live = false;
    };
  }, [vehicleId, kind, range, page]);
  const pagination = { current: page, pageSize: 20, total: rows?.total ?? 0, onChange: setPage, showSizeChanger: false };
  const time = { title: t('console.vehicleDetail.messages.time'), dataIndex: 'time', render: (v: string) => parseTime(v) };
  const place = {
    title: t('console.vehicleDetail.messages.place'),
    key: 'place',
    render: (_: unknown, r: { latitude: number | null; longitude: number | null }) => (
      <PlaceText latitude={r.latitude} longitude={r.longitude} />
    ),
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="detail-messages">
      <Segmented<MessageKind>
        value={kind}
        onChange={(k) => {
          setKind(k);
          setPage(1);
        }}
        options={[
          { value: 'position', label: t('console.vehicleDetail.messages.positions') },
          { value: 'obd', label: t('console.vehicleDetail.messages.obd') },
        ]}
      />
      {kind === 'position' ? (
        <Table<PositionMessage>
          size="small"
          rowKey="time"
          loading={!rows}
          dataSource={(rows?.data ?? []) as PositionMessage[]}
          pagination={pagination}
          columns={[
            time,
            place,
            {
              title: t('console.monitor.speed'),
              dataIndex: 'speed',
              render: (v: number) => t('console.monitor.speedValue', { speed: fmt(v, 1) }),
            },
            {
              title: t('console.monitor.acc'),
              dataIndex: 'acc',
              render: (v: boolean) => t(v ? 'console.monitor.accOn' : 'console.monitor.accOff'),
            },
            {
              title: t('console.vehicleDetail.messages.alarms'),
              dataIndex: 'alarms',
              render: (v: string[]) =>
                bitLabels(t, 'alarm', v).map((a) => (
                  <Tag key={a} color="red">
                    {a}
                  </Tag>
                )),
            },
            {
              title: t('console.vehicleDetail.messages.status'),
              dataIndex: 'statusBits',
              render: (v: string[]) => (
                <Typography.Text type="secondary">{bitLabels(t, 'status', v).join(t('common.listSeparator'))}</Typography.Text>
              ),
            },
            {
              title: t('console.vehicleDetail.messages.blind'),
              dataIndex: 'blind',
              render: (v: boolean) => (v ? <Tag>{t('console.vehicleDetail.messages.blind')}</Tag> : null),
            },
          ]}
          data-testid="detail-positions"
        />
      ) : (
        <Table<ObdMessage>
          size="small"
          rowKey={(r) => `${r.time}/${r.subtype}`}
          loading={!rows}
          dataSource={(rows?.data ?? []) as ObdMessage[]}
          pagination={pagination}
          columns={[
            time,
            { title: t('console.vehicleDetail.messages.subtype'), dataIndex: 'subtype', render: (v: number) => subtypeLabel(t, v) },
            place,
            {
              title: t('console.vehicleDetail.messages.readings'),
              key: 'readings',
              render: (_: unknown, r: ObdMessage) => obdContent(t, fmt, r).join(t('common.listSeparator')) || '—',
            },
            { title: t('console.vehicleDetail.messages.dtcs'), dataIndex: 'dtcCount' },
          ]}
          data-testid="detail-obd"
        />
      )}
    </Space>
  );
}
