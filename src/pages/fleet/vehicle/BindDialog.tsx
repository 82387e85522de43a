import { Modal, Select, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import type { Row } from '../../../components/schema/pageContract';
import { feedback } from '../../../services/http/feedback';
import { useT } from '../../../session/useT';
import { isSuggestQuery } from '../../../../schemas/kit/terminalSuggestion';
import { bindTerminal, replaceTerminal, suggestTerminals, type TerminalSuggestion } from '../../../services/fleet';

interface Props {
  row: Row;
  /** `replace`: the vehicle has a terminal, and the chosen one takes its place in one step (`reset/{a}/{b}`). */
  mode?: 'bind' | 'replace';
  onClose: () => void;
  onBound: () => void;
}

const SEARCH_DELAY_MS = 250;

/**
 * Binds a free terminal to a vehicle, or replaces its terminal by a free one: a search over the
 * terminals of the member's organisation subtree that no vehicle uses, by number or SIM (the
 * suggest route), then the bind (or reset) call. A refusal (406: bound meanwhile) is shown by the
 * console's usual handling and the dialog stays.
 */
export default function BindDialog({ row, mode = 'bind', onClose, onBound }: Props) {
  const t = useT();
  const [options, setOptions] = useState<TerminalSuggestion[]>([]);
  const [hint, setHint] = useState(t('console.vehicle.searchHint'));
  const [searching, setSearching] = useState(false);
  const [chosen, setChosen] = useState<TerminalSuggestion | null>(null);
  const [saving, setSaving] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const latest = useRef('');
  const licence = String(row.licence ?? '');
  const replacing = mode === 'replace';
  const names = { licence, old: String(row.terminalNo ?? '') };

  useEffect(() => () => clearTimeout(timer.current), []);

  const search = (typed: string) => {
    const q = typed.trim();
    latest.current = q;
    clearTimeout(timer.current);
    if (!isSuggestQuery(q)) {
      // Nothing to ask the server: it would only refuse the text.
      setOptions([]);
      setHint(t(q ? 'console.vehicle.searchInvalid' : 'console.vehicle.searchHint'));
      return;
    }
    timer.current = setTimeout(async () => {
      setSearching(true);
      try {
        const found = await suggestTerminals(q);
        if (latest.current !== q) return; // a later search has started
        setOptions(found);
        setHint(t('console.vehicle.noFreeTerminal'));
      } catch {
        // the request config showed the failure
      } finally {
        setSearching(false);
      }
    }, SEARCH_DELAY_MS);
  };

  const bind = async () => {
    if (!chosen) return;
    setSaving(true);
    try {
      await (replacing ? replaceTerminal : bindTerminal)(row.id, chosen.value);
      void feedback().message.success(
        t(replacing ? 'console.vehicle.replaced' : 'console.vehicle.bound', { ...names, terminalNo: chosen.terminalNo }),
      );
      onBound();
      onClose();
    } catch {
      // the request config showed the refusal (e.g. 406 the terminal is bound elsewhere)
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={t(replacing ? 'console.vehicle.replaceTitle' : 'console.vehicle.bindTitle', names)}
      okText={t(replacing ? 'console.vehicle.replace' : 'console.vehicle.bind')}
      cancelText={t('console.sheet.cancel')}
      okButtonProps={{ disabled: !chosen }}
      confirmLoading={saving}
      onOk={() => void bind()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        {t(replacing ? 'console.vehicle.replaceHint' : 'console.vehicle.bindHint', names)}
      </Typography.Paragraph>
      <Select<number>
        showSearch
        style={{ width: '100%' }}
        data-testid="bind-terminal"
        placeholder={t('console.vehicle.terminalSearch')}
        filterOption={false}
        onSearch={search}
        loading={searching}
        notFoundContent={hint}
        value={chosen?.value}
        onChange={(v) => setChosen(options.find((o) => o.value === v) ?? null)}
        options={options.map((o) => ({
          value: o.value,
          label: t('console.vehicle.terminalOption', { terminalNo: o.terminalNo, sim: o.sim }),
        }))}
      />
    </Modal>
  );
}
