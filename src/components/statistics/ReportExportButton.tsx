import { DownloadOutlined } from '@ant-design/icons';
import { Button, Space, Tooltip } from 'antd';
import { NONE } from '../../../schemas/kit/authority';
import { downloadSheet } from '../../services/sheet';
import { useT } from '../../session/useT';
import DownloadStatus from '../sheet/DownloadStatus';
import { useDownload } from '../sheet/useDownload';

export interface ReportExportButtonProps {
  /** The export route under the API base (`…/export`); it takes the report's own body. */
  url: string;
  body: () => unknown;
  fileName: () => string;
  /** The rows the file will hold, shown while it downloads. */
  rows: number | null;
  testId: string;
}

/** A report's xlsx export of exactly what the table shows, with its progress and a cancel while it downloads. */
export default function ReportExportButton({ url, body, fileName, rows, testId }: ReportExportButtonProps) {
  const t = useT();
  const download = useDownload();
  return (
    <Space size={8}>
      <Tooltip placement="bottom" title={t('console.statistics.exportHelp')}>
        <Button
          icon={<DownloadOutlined />}
          loading={download.progress !== null}
          disabled={!rows}
          onClick={() => void download.start((watch) => downloadSheet({ method: 'POST', url, authority: NONE }, body(), watch), fileName)}
          data-testid={testId}
        >
          {t('console.statistics.export')}
        </Button>
      </Tooltip>
      <DownloadStatus download={download} rows={rows} />
    </Space>
  );
}
