import { DownloadOutlined, DownOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { useState } from 'react';
import type { EntityPageContext } from '../schema/pageContract';
import { feedback } from '../../services/http/feedback';
import { useT } from '../../shell/useT';
import { exportFileName } from './fileNames';
import { entityTitle } from './labels';
import { downloadSheet, saveBlob } from './sheetApi';
import { exportBody, type ExportMode, type SheetCall } from './sheetCalls';

/**
 * Export (SPEC §9, modes current or all): both are the server's export of the list's criteria and
 * order — "current page" narrowed to the ids on screen — saved under a name in the user's language.
 */
export default function ExportButton({ ctx, call }: { ctx: EntityPageContext; call: SheetCall }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const entity = ctx.schema['x-entity'].name;

  const run = async (mode: ExportMode) => {
    const rows = ctx.rows();
    if (mode === 'current' && !rows.length) {
      void feedback().message.warning(t('console.sheet.nothingToExport'));
      return;
    }
    setBusy(true);
    try {
      const blob = await downloadSheet(call, exportBody(mode, { criteria: ctx.criteria(), order: ctx.order(), rowIds: rows.map((r) => r.id) }));
      saveBlob(blob, exportFileName(t, entityTitle(t, entity), mode, new Date()));
    } catch {
      // downloadSheet has shown the failure (SPEC §8).
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dropdown
      trigger={['click']}
      disabled={busy}
      menu={{
        items: [
          { key: 'current', label: t('console.sheet.exportCurrent'), 'data-testid': 'sheet-export-current' },
          { key: 'all', label: t('console.sheet.exportAll'), 'data-testid': 'sheet-export-all' },
        ],
        onClick: ({ key }) => void run(key as ExportMode),
      }}
    >
      <Button icon={<DownloadOutlined />} loading={busy} data-testid="sheet-export">
        {t('console.sheet.export')} <DownOutlined />
      </Button>
    </Dropdown>
  );
}
