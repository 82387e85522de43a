import { useNavigate } from '@umijs/max';
import { Button, Card, Descriptions, Space, Switch, Tag } from 'antd';
import { useEffect, useState } from 'react';
import PlaceText from '../../../components/location/PlaceText';
import ShareLocationButton from '../../../components/location/ShareLocationButton';
import CommandButton from '../../../components/terminal/CommandButton';
import VideoButton from '../../../components/video/VideoButton';
import { vehicleById, type MonitorItem } from '../../../services/monitor';
import { useT } from '../../../session/useT';
import { parseTime } from '../../../utils/formatTime';
import { vehicleDetailPath } from '../vehicle/LicenceCell';
import { statusOf, STATUS_COLOURS } from './monitorModel';
import { useNumberFormat } from '../../../components/charts/useNumberFormat';

export interface VehicleCardProps {
  vehicle: MonitorItem;
  following: boolean;
  onFollow: (on: boolean) => void;
  onClose: () => void;
}

/** The chosen vehicle's state and its quick actions: replay, detail, share, command. */
export default function VehicleCard({ vehicle: v, following, onFollow, onClose }: VehicleCardProps) {
  const t = useT();
  const fmt = useNumberFormat();
  const navigate = useNavigate();
  const [driver, setDriver] = useState<string | null>(null);
  const [terminalId, setTerminalId] = useState<number | null>(null);
  useEffect(() => {
    let live = true;
    setDriver(null);
    setTerminalId(null);
    vehicleById(v.vehicleId).then(
      (row) => {
        if (!live) return;
        setDriver(typeof row.driverName === 'string' ? row.driverName : null);
        setTerminalId(typeof row.terminalId === 'number' ? row.terminalId : null);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [v.vehicleId]);

  const status = statusOf(v);
  const none = t('console.monitor.none');
  const detail = vehicleDetailPath(v.vehicleId);
  return (
    <Card
      size="small"
      data-testid="vehicle-card"
      title={
        <Space>
          <span data-testid="vehicle-card-licence">{v.licence}</span>
          <Tag color={STATUS_COLOURS[status]}>{t(`console.monitor.status.${status}`)}</Tag>
        </Space>
      }
      extra={
        <Button type="text" size="small" onClick={onClose} aria-label={t('console.monitor.close')}>
          ×
        </Button>
      }
      style={{ width: 320, maxWidth: '100%' }}
    >
      <Descriptions
        size="small"
        column={1}
        items={[
          { key: 'org', label: t('console.monitor.org'), children: v.orgName },
          {
            key: 'driver',
            label: t('console.monitor.driver'),
            children: driver ?? none,
          },
          {
            key: 'place',
            label: t('console.monitor.place'),
            children: <PlaceText latitude={v.latitude} longitude={v.longitude} empty={none} />,
          },
          {
            key: 'speed',
            label: t('console.monitor.speed'),
            children: v.speed === null ? none : t('console.monitor.speedValue', { speed: fmt(v.speed, 1) }),
          },
          {
            key: 'acc',
            label: t('console.monitor.acc'),
            children: v.acc === null ? none : t(v.acc ? 'console.monitor.accOn' : 'console.monitor.accOff'),
          },
          {
            key: 'fuel',
            label: t('console.monitor.fuel'),
            children: v.fuelL === null ? none : t('console.monitor.fuelValue', { litres: v.fuelL }),
          },
          {
            key: 'mileage',
            label: t('console.monitor.mileage'),
            children: v.mileageKm === null ? none : t('console.monitor.mileageValue', { km: v.mileageKm }),
          },
          {
            key: 'time',
            label: t('console.monitor.lastReport'),
            children: <span data-testid="vehicle-card-time">{v.time ? parseTime(v.time) : none}</span>,
          },
        ]}
      />
      <Space wrap style={{ marginTop: 8 }}>
        <Switch size="small" checked={following} onChange={onFollow} data-testid="follow-switch" /> {t('console.monitor.follow')}
      </Space>
      <Space wrap style={{ marginTop: 8 }}>
        <Button size="small" onClick={() => navigate(`${detail}?tab=track`)} data-testid="card-replay">
          {t('console.monitor.replay')}
        </Button>
        <Button size="small" onClick={() => navigate(detail)} data-testid="card-detail">
          {t('console.monitor.detail')}
        </Button>
        <ShareLocationButton vehicleId={v.vehicleId} />
        <CommandButton terminalId={terminalId} />
        <VideoButton vehicleId={v.vehicleId} disabled={terminalId === null} />
      </Space>
    </Card>
  );
}
