import { DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Image, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { commandPhotos, mediaFile, type MediaItem } from '../../services/commands';
import { useT } from '../../session/useT';

/** Asks for the photos every 2 s this many times (a photo every `interval` s comes later: the vehicle's media keep it). */
const TRIES = 30;
const EVERY_MS = 2000;

interface Shown extends MediaItem {
  /** An object URL of the photo's bytes (revoked when the dialog closes). */
  src: string;
}

/**
 * The photos a take-photo command brought, shown as they arrive: the server lists them under the
 * command once the terminal's uploads are stored; each is fetched with the session and shown inline.
 */
export default function TakenPhotos({ terminalId, commandId }: { terminalId: number; commandId: number }) {
  const t = useT();
  const [shown, setShown] = useState<Shown[]>([]);
  const [expected, setExpected] = useState<number | null>(null);
  const [gaveUp, setGaveUp] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    const urls = new Map<number, Shown>();
    (async () => {
      for (let i = 0; live && i < TRIES; i++) {
        if (i > 0) await new Promise((r) => setTimeout(r, EVERY_MS));
        const { data, expected: n } = await commandPhotos(terminalId, commandId);
        for (const m of data) if (!urls.has(m.id)) urls.set(m.id, { ...m, src: URL.createObjectURL(await mediaFile(m.id)) });
        if (!live) return;
        setExpected(n);
        setShown([...urls.values()]);
        if (urls.size >= n) return;
      }
      if (live) setGaveUp(true);
    })().catch(() => live && setFailed(true));
    return () => {
      live = false;
      for (const s of urls.values()) URL.revokeObjectURL(s.src);
    };
  }, [terminalId, commandId]);

  if (failed) return <Alert type="error" showIcon message={t('console.command.photoFailed')} data-testid="photo-failed" />;
  const arrived = shown.length;
  const state =
    expected === null || arrived < expected
      ? gaveUp
        ? t('console.command.photoMissing', { missing: (expected ?? 0) - arrived })
        : t('console.command.photoWaiting', { arrived, expected: expected ?? '…' })
      : t('console.command.photoArrived', { expected });
  return (
    <Space direction="vertical" data-testid="taken-photos" data-arrived={arrived}>
      <Typography.Text type="secondary">{state}</Typography.Text>
      <Space wrap align="start">
        {shown.map((p) => (
          <Space key={p.id} direction="vertical" size={4} data-testid="taken-photo">
            <Image src={p.src} alt={`#${p.mediaId}`} width={200} />
            <Button size="small" icon={<DownloadOutlined />} href={p.src} download={`photo-${p.mediaId}.jpg`}>
              {t('console.command.photoDownload')} · #{p.mediaId}
            </Button>
          </Space>
        ))}
      </Space>
    </Space>
  );
}
