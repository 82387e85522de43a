import { AlertOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import Permission from '../../../session/Permission';
import { useT } from '../../../session/useT';
import { LICENCE_CODE } from '../../../services/fleet';
import LicenceExpiryDialog from './LicenceExpiryDialog';

/** The driver page's toolbar button opening the licence-expiry list, for holders of its code. */
export default function LicenceExpiryButton() {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <Permission code={LICENCE_CODE}>
      <Button icon={<AlertOutlined />} onClick={() => setOpen(true)} data-testid="driver-licences">
        {t('console.driver.licences')}
      </Button>
      {open && <LicenceExpiryDialog onClose={() => setOpen(false)} />}
    </Permission>
  );
}
