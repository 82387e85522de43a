import { useState } from 'react';
import { initialCriteria, type StatsCriteria } from '../../components/statistics/statsCriteria';
import type { TeamAnswer, TeamCriteria } from '../../services/team';
import { useCriteriaData } from '../statistics/useCriteriaData';

export type TeamFilter = StatsCriteria & { driverId: number | null };

export const teamCriteriaOf = (c: TeamFilter): TeamCriteria => ({
  begin: c.begin,
  end: c.end,
  orgId: c.orgId,
  vehicleId: c.vehicleId,
  driverId: c.driverId,
});

/** A team page's criteria (the statistics ones and a driver) and its answer for them. */
export function useTeamReport<R>(load: (c: TeamCriteria) => Promise<TeamAnswer<R>>, days: 7 | 30 = 7) {
  const [criteria, setCriteria] = useState<TeamFilter>(() => ({ ...initialCriteria(days), driverId: null }));
  const answer = useCriteriaData(criteria, (c) => load(teamCriteriaOf(c)), { rows: [], truncated: false });
  return { criteria, setCriteria, answer };
}
