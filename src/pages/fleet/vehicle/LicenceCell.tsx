import { Link } from '@umijs/max';
import { theme } from 'antd';
import { useState } from 'react';
import type { EntityPageContext, Row } from '../../../components/schema/pageContract';
import { useT } from '../../../session/useT';
import { rememberLicence } from '../../../session/vehicleLabels';
import ServiceDialog from '../service/ServiceDialog';
import { isExpired, localToday } from '../service/serviceDates';
import ServiceExpiredDialog from './ServiceExpiredDialog';

/** Where a vehicle's licence leads (SPEC §2 "table link cells"). */
export const vehicleDetailPath = (id: number) => `/vehicleDetail/vehicleDetail/${id}`;

/**
 * A vehicle's licence: red when its service ended before today, opening the service-expired
 * dialog (and from there the renewal); otherwise a link to the vehicle's detail.
 */
export default function LicenceCell({ row, ctx }: { row: Row; ctx: EntityPageContext }) {
  const t = useT();
  const { token } = theme.useToken();
  const [dialog, setDialog] = useState<'expired' | 'renew' | null>(null);
  const licence = String(row.licence ?? '');
  if (!isExpired(row.serviceEnd, localToday())) {
    return (
      // The detail's tab is named by the licence from the start, before its page has loaded.
      <Link to={vehicleDetailPath(row.id)} onClick={() => rememberLicence(row.id, licence)} data-testid="licence-link">
        {licence}
      </Link>
    );
  }
  return (
    <>
      <a
        onClick={() => setDialog('expired')}
        style={{ color: token.colorError }}
        title={t('console.vehicle.expiredHint')}
        data-testid="licence-expired"
      >
        {licence}
      </a>
      {dialog === 'expired' && <ServiceExpiredDialog row={row} onClose={() => setDialog(null)} onRenew={() => setDialog('renew')} />}
      {dialog === 'renew' && (
        <ServiceDialog entity="vehicle" row={row} name={licence} onClose={() => setDialog(null)} onSaved={ctx.reload} />
      )}
    </>
  );
}
