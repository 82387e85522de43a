import { Button, Modal, Popconfirm, Select, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import type { PickOption } from '../../../services/fleet';
import { useT } from '../../../session/useT';

export interface PickDialogProps {
  title: string;
  hint: string;
  placeholder: string;
  /** The select's test id (the dialog's buttons are `${testId}-save` and `${testId}-clear`). */
  testId: string;
  /** The current choice, shown chosen before any search. */
  current?: PickOption | null;
  search: (q: string) => Promise<PickOption[]>;
  /** Stores the choice (0 clears it); a refusal rejects, the request config having shown it. */
  save: (id: number) => Promise<void>;
  clearLabel: string;
  clearConfirm: string;
  /** Offer clearing the link; by default only when there is a current choice. */
  clearable?: boolean;
  onClose: () => void;
}

const SEARCH_DELAY_MS = 250;

/**
 * Points one of a row's links at another row: a searchable select over the server's candidates
 * (the first ones as soon as it opens), save, or clear the link after a confirmation. A refusal
 * keeps the dialog open with the server's message shown by the console's usual handling.
 */
export default function PickDialog({
  title,
  hint,
  placeholder,
  testId,
  current,
  search,
  save,
  clearLabel,
  clearConfirm,
  clearable,
  onClose,
}: PickDialogProps) {
  const t = useT();
  const [options, setOptions] = useState<PickOption[]>(current ? [current] : []);
  const [chosen, setChosen] = useState<number | undefined>(current?.value);
  const [searching, setSearching] = useState(false);
  const [saving, setSaving] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const latest = useRef(0);

  const load = (q: string) => {
    const ticket = ++latest.current;
    setSearching(true);
    search(q)
      .then((found) => {
        // Only the latest search counts (answers may arrive out of order); the current choice stays listed.
        if (ticket !== latest.current) return;
        setOptions(current && !found.some((o) => o.value === current.value) ? [...found, current] : found);
      })
      .catch(() => undefined) // the request config showed the failure
      .finally(() => ticket === latest.current && setSearching(false));
  };

  useEffect(() => {
    load('');
    return () => clearTimeout(timer.current);
    // Once, on opening: later loads follow what is typed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onSearch = (typed: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => load(typed.trim()), SEARCH_DELAY_MS);
  };

  const store = async (id: number) => {
    setSaving(true);
    try {
      await save(id);
      onClose();
    } catch {
      // the request config showed the refusal; the dialog stays for another choice
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={title}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        (clearable ?? !!current) ? (
          <Popconfirm
            key="clear"
            title={clearConfirm}
            okText={clearLabel}
            cancelText={t('console.sheet.cancel')}
            onConfirm={() => store(0)}
          >
            <Button danger disabled={saving} data-testid={`${testId}-clear`}>
              {clearLabel}
            </Button>
          </Popconfirm>
        ) : null,
        <Button key="cancel" onClick={onClose}>
          {t('console.sheet.cancel')}
        </Button>,
        <Button
          key="save"
          type="primary"
          loading={saving}
          disabled={!chosen || chosen === current?.value}
          data-testid={`${testId}-save`}
          onClick={() => chosen && void store(chosen)}
        >
          {t('console.vehicle.pickSave')}
        </Button>,
      ]}
    >
      <Typography.Paragraph type="secondary">{hint}</Typography.Paragraph>
      <Select<number>
        showSearch
        style={{ width: '100%' }}
        data-testid={testId}
        placeholder={placeholder}
        filterOption={false}
        onSearch={onSearch}
        loading={searching}
        notFoundContent={t('console.vehicle.pickNone')}
        value={chosen}
        onChange={setChosen}
        options={options}
      />
    </Modal>
  );
}
