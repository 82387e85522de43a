import type { ProColumns } from '@ant-design/pro-components';
import { Space, Tag } from 'antd';
import { createElement, type ReactNode } from 'react';
import type { EntitySchema, PropertySchema, XRef } from '../../../schemas/kit/entity';
import type { Translate } from '../../../schemas/kit/i18n';
import type { Row } from './pageContract';
import {
  baseType,
  enumLabelKey,
  enumValues,
  fieldLabelKey,
  isDate,
  isDateTime,
  isNumeric,
  orderedProperties,
  relationLabels,
} from './labels';

/** The search inputs a column mapper cannot build from value types alone (they load their options). */
export interface SearchWidgets {
  /** A select over the referenced entity's `options` route, loaded on demand. */
  ref: (prop: string, ref: XRef) => ReactNode;
  /** The caller's organisation tree. */
  org: () => ReactNode;
}

type ValueEnum = Record<string, { text: string }>;

/** Labels of an enum (or yes/no of a boolean) keyed by the value as text, as ProTable wants them. */
export function valueEnumOf(entity: string, name: string, p: PropertySchema, t: Translate): ValueEnum | undefined {
  if (p.enum) return Object.fromEntries(enumValues(p).map((v) => [String(v), { text: t(enumLabelKey(entity, name, v)) }]));
  if (baseType(p) === 'boolean') return { true: { text: t('common.yes') }, false: { text: t('common.no') } };
  return undefined;
}

const shown = (v: unknown): ReactNode =>
  v === null || v === undefined || v === '' ? '-' : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** An array cell: enum values by their labels, other values (the names of a row's roles) as tags. */
function listed(entity: string, name: string, p: PropertySchema, v: unknown, t: Translate): ReactNode {
  if (!Array.isArray(v) || !v.length) return '-';
  if (p.items?.enum) return v.map((x) => t(enumLabelKey(entity, name, x as string))).join(' / ');
  if (v.some((x) => typeof x === 'object')) return JSON.stringify(v);
  return createElement(
    Space,
    { size: [0, 4], wrap: true },
    ...v.map((x, i) => createElement(Tag, { key: `${String(x)}-${i}` }, String(x))),
  );
}

/** How a property looks in a table cell. */
function tableColumn(entity: string, name: string, p: PropertySchema, t: Translate): ProColumns<Row> {
  // Keyed by the property: ProTable finds a column's sort order by its key.
  const col: ProColumns<Row> = {
    dataIndex: name,
    key: name,
    title: t(fieldLabelKey(entity, name)),
    search: false,
    sorter: !!p['x-ui']?.sort,
  };
  const ref = p['x-ref'];
  const valueEnum = valueEnumOf(entity, name, p, t);
  if (ref) col.render = (_dom, row) => shown(row[ref.as]);
  else if (valueEnum) Object.assign(col, { valueType: 'select', valueEnum });
  else if (isDateTime(p)) col.valueType = 'dateTime';
  else if (isDate(p)) col.valueType = 'date';
  // Numbers as stored (codes such as SPN must not get thousands separators); objects as JSON.
  else if (baseType(p) === 'array') col.render = (_dom, row) => listed(entity, name, p, row[name], t);
  else if (isNumeric(p) || baseType(p) === 'object') col.render = (_dom, row) => shown(row[name]);
  return col;
}

/**
 * A column that is only a search input: its own key (the table column of the property has the
 * property's), and `name`, which the search form names its field by before the key.
 */
export type SearchColumn = ProColumns<Row> & { name: string };

/** The search-form input of a searchable property (`x-ui.search`); its value goes through `toCriteria`. */
function searchColumn(entity: string, name: string, p: PropertySchema, t: Translate, widgets: SearchWidgets): SearchColumn {
  const mode = p['x-ui']!.search!;
  const col: SearchColumn = { dataIndex: name, key: `search.${name}`, name, title: t(fieldLabelKey(entity, name)), hideInTable: true };
  const ref = p['x-ref'];
  const valueEnum = valueEnumOf(entity, name, p, t);
  if (ref) col.renderFormItem = () => (ref.entity === 'organisation' ? widgets.org() : widgets.ref(name, ref));
  else if (mode === 'range') col.valueType = isDate(p) || isDateTime(p) ? 'dateRange' : 'digitRange';
  else if (valueEnum) Object.assign(col, { valueType: 'select', valueEnum });
  else if (isDate(p) || isDateTime(p)) col.valueType = 'date';
  else if (isNumeric(p)) col.valueType = 'digit';
  else col.valueType = 'text';
  return col;
}

/**
 * The ProTable columns of an entity: one per shown property (`x-ui.column` not false), in `x-ui.order`,
 * titled by the entity's field labels, sortable where `x-ui.sort`; relations show their read-only
 * label (`x-ref.as`); then one search-form input per `x-ui.search` property (hidden in the table).
 */
export function toColumns(entity: string, schema: EntitySchema, t: Translate, widgets: SearchWidgets): Array<ProColumns<Row>> {
  const labels = relationLabels(schema);
  const props = orderedProperties(schema).filter(([name]) => !labels.has(name));
  const table = props.filter(([, p]) => p['x-ui']?.column !== false).map(([name, p]) => tableColumn(entity, name, p, t));
  const search = props.filter(([, p]) => p['x-ui']?.search).map(([name, p]) => searchColumn(entity, name, p, t, widgets));
  return [...table, ...search];
}
