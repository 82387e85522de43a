import { FieldTimeOutlined, UploadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import type { EntityPageContext } from '../schema/pageContract';
import { useT } from '../../session/useT';
import type { UploadFlow } from './sheetCalls';
import UploadDialog from './UploadDialog';

/** The toolbar button of an import or a renewal, and its dialog. */
export default function UploadButton({ ctx, flow }: { ctx: EntityPageContext; flow: UploadFlow }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const renew = flow.kind === 'renew';
  return (
    <>
      <Button
        icon={renew ? <FieldTimeOutlined /> : <UploadOutlined />}
        onClick={() => setOpen(true)}
        data-testid={renew ? 'sheet-renew' : 'sheet-import'}
      >
        {t(renew ? 'console.sheet.renew' : 'console.sheet.import')}
      </Button>
      <UploadDialog open={open} flow={flow} entity={ctx.schema['x-entity'].name} onClose={() => setOpen(false)} onDone={ctx.reload} />
    </>
  );
}
