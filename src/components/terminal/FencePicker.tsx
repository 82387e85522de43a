import { Radio, Select, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { openFences, type FenceShape } from '../../services/fences';
import { useT } from '../../session/useT';

/** Fence types a terminal holds as its own areas (a district's boundary is too big for it). */
const TERMINAL_TYPES = new Set(['circle', 'rectangle', 'polygon', 'route']);

export interface FenceChoice {
  fenceId: number | null;
  action: 'set' | 'delete';
}

/** Picks one of the caller's open fences and whether to set it on the terminal or delete it there. */
export default function FencePicker({ value, onChange }: { value: FenceChoice; onChange: (v: FenceChoice) => void }) {
  const t = useT();
  const [fences, setFences] = useState<FenceShape[]>([]);
  useEffect(() => {
    let live = true;
    openFences()
      .then((page) => live && setFences(page.data.filter((f) => TERMINAL_TYPES.has(f.fenceType))))
      .catch(() => live && setFences([]));
    return () => {
      live = false;
    };
  }, []);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Text type="secondary">{t('console.command.fenceHint')}</Typography.Text>
      <Select
        showSearch
        optionFilterProp="label"
        style={{ width: '100%' }}
        placeholder={t('console.command.fencePick')}
        value={value.fenceId ?? undefined}
        onChange={(fenceId: number) => onChange({ ...value, fenceId })}
        options={fences.map((f) => ({ value: f.id, label: f.name }))}
        data-testid="fence-pick"
      />
      <Radio.Group value={value.action} onChange={(e) => onChange({ ...value, action: e.target.value })}>
        <Radio value="set">{t('console.command.fenceSet')}</Radio>
        <Radio value="delete">{t('console.command.fenceDelete')}</Radio>
      </Radio.Group>
    </Space>
  );
}
