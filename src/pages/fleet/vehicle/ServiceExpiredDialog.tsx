import { Alert, Button, Descriptions, Modal } from 'antd';
import type { Row } from '../../../components/schema/pageContract';
import { usePermission } from '../../../session/navigationStore';
import { useT } from '../../../session/useT';
import { SERVICE_CODE } from '../../../services/fleet';
import { daysExpired, localToday } from '../service/serviceDates';

interface Props {
  row: Row;
  onClose: () => void;
  /** Opens the renewal form (only offered to members who may renew). */
  onRenew: () => void;
}

const text = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : String(v));

/**
 * SPEC §2's service-expired handler: which vehicle, since when its service has lapsed, what it is
 * bound to and who drives it — and the renewal, for members holding `vehicle-editService`.
 */
export default function ServiceExpiredDialog({ row, onClose, onRenew }: Props) {
  const t = useT();
  const canRenew = usePermission(SERVICE_CODE.vehicle);
  const label = (field: string) => t(['entity', 'vehicle', 'fields', field].join('.'));
  const end = String(row.serviceEnd ?? '').slice(0, 10);
  const fields = ['licence', 'orgName', 'terminalNo', 'driverName', 'customer', 'serviceStart', 'serviceEnd'];
  return (
    <Modal
      open
      title={t('console.vehicle.expiredTitle')}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="close" onClick={onClose}>
          {t('console.vehicle.close')}
        </Button>,
        canRenew && (
          <Button key="renew" type="primary" onClick={onRenew} data-testid="expired-renew">
            {t('console.vehicle.renewService')}
          </Button>
        ),
      ]}
    >
      <Alert
        type="error"
        showIcon
        data-testid="expired-message"
        message={t('console.vehicle.expiredMessage', { licence: text(row.licence), date: end, days: daysExpired(end, localToday()) })}
        description={canRenew ? undefined : t('console.vehicle.askToRenew')}
        style={{ marginBottom: 16 }}
      />
      <Descriptions size="small" column={1} bordered items={fields.map((f) => ({ key: f, label: label(f), children: text(row[f]) }))} />
    </Modal>
  );
}
