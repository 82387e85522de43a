import { UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Input, Select, Space, Table, Tag, Typography, Upload } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { failureOf } from '../../services/http/failureOf';
import {
  UPGRADE_TYPES,
  upgradePackages,
  upgradeResultOf,
  upgradeResults,
  uploadPackage,
  type UpgradePackage,
  type UpgradeResultRow,
  type UpgradeType,
} from '../../services/upgrades';
import { useT } from '../../session/useT';

/**
 * Picks the upgrade package to send, or uploads one (its type, maker id and version, then the
 * file); a refused upload shows the server's reason. Below, each terminal the picked package was
 * sent to and its result, read again when `refresh` changes (a send ended).
 */
export default function UpgradePicker({
  value,
  onChange,
  refresh,
}: {
  value: number | null;
  onChange: (packageId: number | null) => void;
  refresh?: unknown;
}) {
  const t = useT();
  const [packages, setPackages] = useState<UpgradePackage[]>([]);
  const [upgradeType, setUpgradeType] = useState<UpgradeType>(0);
  const [makerId, setMakerId] = useState('');
  const [version, setVersion] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => upgradePackages().then(setPackages, () => setPackages([])), []);
  useEffect(() => void load(), [load]);
  const [results, setResults] = useState<UpgradeResultRow[]>([]);
  useEffect(() => {
    let live = true;
    if (value === null) setResults([]);
    else
      upgradeResults(value).then(
        (r) => live && setResults(r),
        () => live && setResults([]),
      );
    return () => {
      live = false;
    };
  }, [value, refresh]);

  const upload = async (file: File) => {
    setBusy(true);
    setError(null);
    try {
      const p = await uploadPackage(file, file.name, { upgradeType, makerId: makerId.trim(), version: version.trim() });
      await load();
      onChange(p.id);
    } catch (e) {
      setError(failureOf(e).message || t('console.command.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Text type="secondary">{t('console.command.upgradeHint')}</Typography.Text>
      <Select
        style={{ width: '100%' }}
        placeholder={t('console.command.upgradePick')}
        value={value ?? undefined}
        onChange={(id: number) => onChange(id)}
        options={packages.map((p) => ({ value: p.id, label: `${p.version} · ${p.fileName} (${p.makerId})` }))}
        data-testid="upgrade-pick"
      />
      <Space wrap>
        <Select
          style={{ minWidth: 160 }}
          value={upgradeType}
          onChange={(v: UpgradeType) => setUpgradeType(v)}
          options={UPGRADE_TYPES.map((v) => ({ value: v, label: t(`console.command.upgradeTypes.${v}`) }))}
          aria-label={t('console.command.upgradeType')}
        />
        <Input
          style={{ width: 120 }}
          maxLength={5}
          placeholder={t('console.command.upgradeMakerId')}
          value={makerId}
          onChange={(e) => setMakerId(e.target.value)}
          data-testid="upgrade-maker"
        />
        <Input
          style={{ width: 140 }}
          maxLength={64}
          placeholder={t('console.command.upgradeVersion')}
          value={version}
          onChange={(e) => setVersion(e.target.value)}
          data-testid="upgrade-version"
        />
        <Upload
          showUploadList={false}
          disabled={!makerId.trim() || !version.trim()}
          // Sent by hand (not by Upload's own XHR) so the console's headers and messages apply.
          beforeUpload={(file) => {
            void upload(file);
            return Upload.LIST_IGNORE;
          }}
        >
          <Button icon={<UploadOutlined />} loading={busy} disabled={!makerId.trim() || !version.trim()} data-testid="upgrade-upload">
            {t('console.command.upgradeUpload')}
          </Button>
        </Upload>
      </Space>
      {error && <Alert type="error" showIcon message={error} />}
      {results.length > 0 && (
        <Table<UpgradeResultRow>
          size="small"
          rowKey="commandId"
          pagination={{ pageSize: 5, hideOnSinglePage: true }}
          dataSource={results}
          data-testid="upgrade-results"
          title={() => t('console.command.upgradeResultsTitle')}
          columns={[
            { title: t('console.command.upgradeTerminal'), dataIndex: 'terminalNo' },
            {
              title: t('console.command.status'),
              dataIndex: 'status',
              render: (_, r) => {
                const done = upgradeResultOf(r.response);
                return <Tag>{done ? t(`console.command.upgradeResults.${done}`) : t(`console.command.statuses.${r.status}`)}</Tag>;
              },
            },
          ]}
        />
      )}
    </Space>
  );
}
