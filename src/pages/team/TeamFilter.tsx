import RefSelect from '../../components/schema/RefSelect';
import StatsFilter from '../../components/statistics/StatsFilter';
import { useT } from '../../session/useT';
import type { TeamFilter as Criteria } from './useTeamReport';

/** The statistics filter with a driver picker. */
export default function TeamFilter({ value, onChange }: { value: Criteria; onChange(c: Criteria): void }) {
  const t = useT();
  return (
    <StatsFilter value={value} onChange={(c) => onChange({ ...value, ...c })}>
      <RefSelect
        style={{ width: 160 }}
        entity="driver"
        value={value.driverId}
        onChange={(driverId) => onChange({ ...value, driverId })}
        placeholder={t('reports.columns.driver')}
      />
    </StatsFilter>
  );
}
