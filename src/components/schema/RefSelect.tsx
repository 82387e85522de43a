import type { CSSProperties } from 'react';
import { Select, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { entities, type EntityName } from '../../../schemas/generated/registry';
import { loadOptions, type Option } from '../../services/entity';

/** One id, or (`multiple`: an id array's input) several: value and onChange hand arrays. */
export type RefSelectProps = RefSelectCommon &
  (
    | { multiple?: false; value?: number | null; onChange?: (value: number | null) => void }
    | { multiple: true; value?: number[]; onChange?: (value: number[]) => void }
  );

interface RefSelectCommon {
  /** The referenced entity (`x-ref.entity`). */
  entity: string;
  /** With `multiple`: the labels of the ids the row holds, in their order, shown before any option is loaded. */
  initialLabels?: readonly string[];
  initialValues?: readonly number[];
  /** The label of the current value (the row's `x-ref.as`), shown before any option is loaded. */
  initialLabel?: string | null;
  placeholder?: string;
  id?: string;
  /** Outside a form item (a filter bar), its width. */
  style?: CSSProperties;
  /** `<entity>.<property>`: offer only rows nothing uses through it (`x-ref.free`); the current value stays. */
  unusedBy?: string;
}

const SEARCH_DELAY_MS = 300;

/** What a choice reads as: its label (a row without one, its id), with its detail where it has one. */
const optionText = (o: Option): string => {
  const label = o.label ?? `#${o.value}`;
  return o.detail ? `${label}（${o.detail}）` : label;
};

/**
 * A relation's input: a searchable select over the referenced entity's `options` route, loaded when
 * it first opens and again, filtered on the server, as the person types.
 */
export default function RefSelect(props: RefSelectProps) {
  const { entity, multiple, value, initialLabel, initialLabels, initialValues, placeholder, id, style, unusedBy } = props;
  // One handler for both shapes: the select hands what its mode makes.
  const onChange = props.onChange as ((v: number | number[] | null) => void) | undefined;
  const schema = entities[entity as EntityName];
  const [options, setOptions] = useState<Option[]>(() => {
    if (multiple) return (initialValues ?? []).flatMap((v, i) => (initialLabels?.[i] ? [{ value: v, label: initialLabels[i] }] : []));
    return typeof value === 'number' && initialLabel ? [{ value, label: initialLabel }] : [];
  });
  const chosen = (o: Option) => (Array.isArray(value) ? value.includes(o.value) : o.value === value);
  const [loading, setLoading] = useState(false);
  const loaded = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const latest = useRef(0);

  const load = (q: string) => {
    if (!schema) return;
    const ticket = ++latest.current;
    setLoading(true);
    loadOptions(schema, q, unusedBy)
      .then((items) => {
        // Only the answer to the latest search counts (answers can arrive out of order); the chosen options stay, since free-only
        // answers (unusedBy) leave out what this very row already uses.
        if (ticket === latest.current)
          setOptions((prev) => [...items, ...prev.filter((o) => chosen(o) && !items.some((i) => i.value === o.value))]);
      })
      .catch(() => undefined) // the request config already showed the failure
      .finally(() => ticket === latest.current && setLoading(false));
  };

  useEffect(() => () => clearTimeout(timer.current), []);

  return (
    <Select<number | number[] | null>
      id={id}
      style={style}
      showSearch
      allowClear
      {...(multiple ? { mode: 'multiple' as const } : {})}
      filterOption={false}
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? (multiple ? [] : null))}
      // Rows of one label (three drivers named 刘明) are told apart by their detail.
      options={options.map((o) => ({ value: o.value, label: optionText(o) }))}
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
        // Until the server answers, only what already matches stays: Enter never picks a stale match.
        const typed = q.trim();
        const matches = (o: Option) => `${o.label ?? ''}${o.detail ?? ''}`.includes(typed);
        // The current values stay (last) so the field keeps their labels; Enter takes the first match.
        setOptions((prev) => [...prev.filter(matches), ...prev.filter((o) => chosen(o) && !matches(o))]);
        timer.current = setTimeout(() => load(q.trim()), SEARCH_DELAY_MS);
      }}
      data-testid={`ref-select-${entity}`}
    />
  );
}
