import { Alert, Card, Space } from 'antd';
import { BREAK_RULE_COLUMNS, type BreakRuleRow } from '../../../schemas/kit/reportColumns';
import ReportExportButton from '../../components/statistics/ReportExportButton';
import ReportTable from '../../components/statistics/ReportTable';
import { BREAK_RULES_EXPORT, breakRules } from '../../services/team';
import { useT } from '../../session/useT';
import TeamFilter from './TeamFilter';
import { teamCriteriaOf, useTeamReport } from './useTeamReport';

/** Violations: each driver's overspeed, fatigue and harsh events per day, through the schedule. */
export default function BreakRulesPage() {
  const t = useT();
  const { criteria, setCriteria, answer } = useTeamReport(breakRules);
  return (
    <Card data-testid="team-breakRules">
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
          <TeamFilter value={criteria} onChange={setCriteria} />
          <ReportExportButton
            url={BREAK_RULES_EXPORT}
            body={() => ({ criteria: teamCriteriaOf(criteria) })}
            fileName={() => `${t('reports.sheets.breakRules')} ${criteria.begin}_${criteria.end}.xlsx`}
            rows={answer?.rows.length ?? null}
            testId="breakRules-export"
          />
        </Space>
        <Alert type="info" showIcon message={t('console.team.breakRulesHelp')} />
        {answer?.truncated && <Alert type="warning" showIcon message={t('console.team.truncated', { n: answer.rows.length })} />}
        <ReportTable<BreakRuleRow>
          columns={BREAK_RULE_COLUMNS}
          rows={answer?.rows ?? null}
          rowKey={(r) => `${r.date}-${r.vehicleId}-${r.driverId ?? 0}`}
          testId="breakRules-table"
        />
      </Space>
    </Card>
  );
}
