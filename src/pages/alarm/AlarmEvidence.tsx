import { DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Empty, Image, Space, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { alarmEvidence, evidenceFile, type AlarmEvidence as Evidence } from '../../services/alarms';
import { useT } from '../../session/useT';

interface Shown extends Evidence {
  /** An object URL of the file's bytes (fetched with the session, revoked when the panel closes). */
  src: string;
}

/** Whether this browser plays a clip or sound of this content type (else it is offered as a download). */
function playable(kind: Evidence['kind'], contentType: string): boolean {
  if (kind !== 'video' && kind !== 'audio') return false;
  const probe = document.createElement(kind);
  return typeof probe.canPlayType === 'function' && probe.canPlayType(contentType) !== '';
}

/**
 * An alarm's evidence, in its expanded row: the active safety attachments and the photos and clips
 * the terminal took for the alarm (the server decides which belong), in one display: photos inline,
 * clips and sounds played when the browser can play their format, every file downloadable.
 */
export default function AlarmEvidence({ alarmId }: { alarmId: number }) {
  const t = useT();
  const [files, setFiles] = useState<Shown[] | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    const urls: string[] = [];
    (async () => {
      const { data } = await alarmEvidence(alarmId);
      const shown = await Promise.all(
        data.map(async (f) => {
          const src = URL.createObjectURL(await evidenceFile(f));
          urls.push(src);
          return { ...f, src };
        }),
      );
      if (live) setFiles(shown);
    })().catch(() => live && setFailed(true));
    return () => {
      live = false;
      for (const u of urls) URL.revokeObjectURL(u);
    };
  }, [alarmId]);

  if (failed) return <Alert type="error" showIcon message={t('console.alarm.evidenceFailed')} data-testid="alarm-evidence-failed" />;
  if (!files) return <Spin data-testid="alarm-evidence-loading" />;
  if (!files.length)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('console.alarm.evidenceNone')} data-testid="alarm-evidence-none" />;
  return (
    <Space direction="vertical" data-testid="alarm-evidence">
      <Typography.Text strong>{t('console.alarm.evidence')}</Typography.Text>
      <Space wrap align="start">
        {files.map((f) => (
          <Space key={`${f.source}/${f.id}`} direction="vertical" size={4} data-testid="alarm-evidence-file" data-source={f.source}>
            {f.kind === 'picture' ? (
              <Image src={f.src} alt={f.name} width={240} />
            ) : playable(f.kind, f.contentType) ? (
              f.kind === 'video' ? (
                <video src={f.src} controls width={320} aria-label={f.name} />
              ) : (
                <audio src={f.src} controls aria-label={f.name} />
              )
            ) : (
              f.kind !== 'text' &&
              f.kind !== 'other' && <Typography.Text type="secondary">{t('console.alarm.evidenceUnplayable')}</Typography.Text>
            )}
            <Button size="small" icon={<DownloadOutlined />} href={f.src} download={f.name}>
              {t('console.alarm.evidenceDownload')} · {f.name}
            </Button>
          </Space>
        ))}
      </Space>
    </Space>
  );
}
