import { useNavigate } from '@umijs/max';
import { Select } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { findVehicles, VEHICLE_QUERY_MAX, type VehicleMatch } from '../../services/fleet';
import { useT } from '../../session/useT';
import { vehicleDetailPath } from '../fleet/vehicle/LicenceCell';

const SEARCH_DELAY_MS = 250;

/**
 * Another vehicle's detail, found by part of its licence or VIN (`vehicle/query/{x}`, those
 * starting with the text first): choosing one opens its detail tab.
 */
export default function VehicleFinder({ current }: { current: number }) {
  const t = useT();
  const navigate = useNavigate();
  const [options, setOptions] = useState<VehicleMatch[]>([]);
  const [hint, setHint] = useState(t('console.vehicleDetail.findHint'));
  const [searching, setSearching] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const latest = useRef('');

  useEffect(() => () => clearTimeout(timer.current), []);

  const search = (typed: string) => {
    const q = typed.trim();
    latest.current = q;
    clearTimeout(timer.current);
    if (!q || q.length > VEHICLE_QUERY_MAX) {
      // Nothing to ask the server: it would only refuse the text.
      setOptions([]);
      setHint(q ? t('console.vehicleDetail.findTooLong', { max: VEHICLE_QUERY_MAX }) : t('console.vehicleDetail.findHint'));
      return;
    }
    timer.current = setTimeout(async () => {
      setSearching(true);
      try {
        const found = await findVehicles(q);
        if (latest.current !== q) return; // a later search has started
        setOptions(found);
        setHint(t('console.vehicleDetail.findNone'));
      } catch {
        // the request config showed the failure
      } finally {
        setSearching(false);
      }
    }, SEARCH_DELAY_MS);
  };

  return (
    <Select<number>
      showSearch
      style={{ width: 260 }}
      data-testid="detail-find"
      placeholder={t('console.vehicleDetail.find')}
      filterOption={false}
      onSearch={search}
      loading={searching}
      notFoundContent={hint}
      value={null}
      onChange={(id) => id !== current && navigate(vehicleDetailPath(id))}
      options={options.map((v) => ({
        value: v.value,
        label: v.vin ? t('console.vehicleDetail.findOption', { licence: v.label, vin: v.vin }) : v.label,
      }))}
    />
  );
}
