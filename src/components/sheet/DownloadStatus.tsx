import { Button, Progress, Space, Typography } from 'antd';
import { useNumberFormat } from '../charts/useNumberFormat';
import { useT } from '../../session/useT';
import type { Download } from './useDownload';

/**
 * A download under way: the rows the server has written so far out of all (once it has said; else
 * the rows the caller knows the file holds), how much has arrived (a bar when the size is known),
 * and a button that cancels it. Nothing while idle.
 */
export default function DownloadStatus({ download, rows }: { download: Download; rows?: number | null }) {
  const t = useT();
  const fmt = useNumberFormat();
  const p = download.progress;
  if (!p) return null;
  const mb = fmt(p.loaded / 1_048_576, 1);
  const r = download.rows;
  const text =
    r && r.total !== null
      ? t('console.sheet.progressRowsOf', { done: fmt(r.done), total: fmt(r.total), mb })
      : rows != null
        ? t('console.sheet.progressRows', { rows: fmt(rows), mb })
        : t('console.sheet.progress', { mb });
  return (
    <Space size={8} data-testid="download-status">
      {r?.total ? (
        <Progress type="circle" size={22} percent={Math.floor((r.done / r.total) * 100)} />
      ) : p.total ? (
        <Progress type="circle" size={22} percent={Math.floor((p.loaded / p.total) * 100)} />
      ) : null}
      <Typography.Text type="secondary" data-testid="download-progress" data-done={r?.done} data-total={r?.total ?? undefined}>
        {text}
      </Typography.Text>
      <Button size="small" onClick={download.cancel} data-testid="download-cancel">
        {t('console.sheet.cancel')}
      </Button>
    </Space>
  );
}
