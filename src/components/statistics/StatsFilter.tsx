import { DatePicker, Segmented, Space } from 'antd';
import type { ReactNode } from 'react';
import dayjs from 'dayjs';
import { QUICK_DAYS, quickOf, quickRange, type StatsCriteria } from './statsCriteria';
import { useT } from '../../session/useT';
import OrgTreeSelect from '../schema/OrgTreeSelect';
import RefSelect from '../schema/RefSelect';

export interface StatsFilterProps {
  value: StatsCriteria;
  onChange(next: StatsCriteria): void;
  /** Without the vehicle picker (a page of one vehicle). */
  noVehicle?: boolean;
  /** More pickers after the vehicle's (a page's own criteria). */
  children?: ReactNode;
}

/** The statistics pages' filter: quick ranges (7, 30, 90 days), a day range, an organisation, a vehicle. */
export default function StatsFilter({ value, onChange, noVehicle, children }: StatsFilterProps) {
  const t = useT();
  const quick = quickOf(value);
  return (
    <Space wrap size={12} data-testid="stats-filter">
      <Segmented
        value={quick ?? 0}
        onChange={(n) => n && onChange({ ...value, ...quickRange(Number(n)) })}
        options={QUICK_DAYS.map((n) => ({ value: n, label: t('console.statistics.lastDays', { n }) }))}
        data-testid="stats-quick"
      />
      <DatePicker.RangePicker
        allowClear={false}
        value={[dayjs(value.begin), dayjs(value.end)]}
        onChange={(r) => r?.[0] && r[1] && onChange({ ...value, begin: r[0].format('YYYY-MM-DD'), end: r[1].format('YYYY-MM-DD') })}
      />
      <OrgTreeSelect
        style={{ width: 200 }}
        value={value.orgId}
        onChange={(orgId) => onChange({ ...value, orgId })}
        placeholder={t('console.statistics.org')}
      />
      {!noVehicle && (
        <RefSelect
          style={{ width: 180 }}
          entity="vehicle"
          value={value.vehicleId}
          onChange={(vehicleId) => onChange({ ...value, vehicleId })}
          placeholder={t('console.statistics.vehicle')}
        />
      )}
      {children}
    </Space>
  );
}
