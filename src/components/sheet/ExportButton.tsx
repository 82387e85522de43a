import { DownloadOutlined, DownOutlined } from '@ant-design/icons';
import { Button, Dropdown, Space } from 'antd';
import type { EntityPageContext } from '../schema/pageContract';
import { feedback } from '../../services/http/feedback';
import { useT } from '../../session/useT';
import { exportFileName } from './fileNames';
import { entityTitle } from './labels';
import { auditEvent } from '../../services/audit';
import { downloadSheet } from '../../services/sheet';
import DownloadStatus from './DownloadStatus';
import { useDownload } from './useDownload';
import { exportBody, type ExportMode, type SheetCall } from './sheetCalls';

/**
 * Export (SPEC §9, modes current or all): both are the server's export of the list's criteria and
 * order — "current page" narrowed to the ids on screen — saved under a name in the user's language.
 * While it streams, what has arrived shows beside the button with a cancel (an export of 100,000
 * rows takes a while).
 */
export default function ExportButton({ ctx, call }: { ctx: EntityPageContext; call: SheetCall }) {
  const t = useT();
  const entity = ctx.schema['x-entity'].name;
  const download = useDownload();
  const busy = download.progress !== null;

  const run = async (mode: ExportMode) => {
    const rows = ctx.rows();
    if (mode === 'current' && !rows.length) {
      void feedback().message.warning(t('console.sheet.nothingToExport'));
      return;
    }
    const body = exportBody(mode, { criteria: ctx.criteria(), order: ctx.order(), rowIds: rows.map((r) => r.id) });
    const saved = await download.start(
      (watch) => downloadSheet(call, body, watch),
      () => exportFileName(t, entityTitle(t, entity), mode, new Date()),
    );
    if (saved) auditEvent('export', entity, mode);
  };

  return (
    <Space size={8}>
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
      <DownloadStatus download={download} />
    </Space>
  );
}
