import { Select, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { entities, type EntityName } from '../../../schemas/generated/registry';
import { loadOptions, type Option } from './entityApi';

export interface RefSelectProps {
  /** The referenced entity (`x-ref.entity`). */
  entity: string;
  value?: number | null;
  onChange?: (value: number | null) => void;
  /** The label of the current value (the row's `x-ref.as`), shown before any option is loaded. */
  initialLabel?: string | null;
  placeholder?: string;
  id?: string;
}

const SEARCH_DELAY_MS = 300;

/**
 * A relation's input: a searchable select over the referenced entity's `options` route, loaded when
 * it first opens and again, filtered on the server, as the person types.
 */
export default function RefSelect({ entity, value, onChange, initialLabel, placeholder, id }: RefSelectProps) {
  const schema = entities[entity as EntityName];
  const [options, setOptions] = useState<Option[]>(() => (value != null && initialLabel ? [{ value, label: initialLabel }] : []));
  const [loading, setLoading] = useState(false);
  const loaded = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const latest = useRef(0);

  const load = (q: string) => {
    if (!schema) return;
    const ticket = ++latest.current;
    setLoading(true);
    loadOptions(schema, q)
      .then((items) => {
        // Only the answer to the latest search counts (answers can arrive out of order).
        if (ticket === latest.current) setOptions(items);
      })
      .catch(() => undefined) // the request config already showed the failure
      .finally(() => ticket === latest.current && setLoading(false));
  };

  useEffect(() => () => clearTimeout(timer.current), []);

  return (
    <Select<number | null>
      id={id}
      showSearch
      allowClear
      filterOption={false}
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      options={options}
      placeholder={placeholder}
      loading={loading}
      notFoundContent={loading ? <Spin size="small" /> : undefined}
      onOpenChange={(open) => {
        if (open && !loaded.current) {
          loaded.current = true;
          load('');
        }
      }}
      onSearch={(q) => {
        clearTimeout(timer.current);
        timer.current = setTimeout(() => load(q.trim()), SEARCH_DELAY_MS);
      }}
      data-testid={`ref-select-${entity}`}
    />
  );
}
