import type { EntitySchema, PropertySchema, Widget } from '../../../schemas/kit/entity';
import type { Translate } from '../../../schemas/kit/i18n';
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

/**
 * Form widgets: the schema's (`x-ui.widget`) plus a date-time picker, a JSON text for objects, a
 * multi-select for an array of ids (`items['x-ref']`) and check boxes for an array of enum values.
 */
export type FormWidget = Widget | 'dateTime' | 'json' | 'multiSelect' | 'checkboxes';

export interface FieldOption {
  value: string | number | boolean;
  label: string;
}

/** One form field as the form renders it: pure data derived from one schema property. */
export interface FieldDescriptor {
  name: string;
  label: string;
  widget: FormWidget;
  required: boolean;
  /** Enum values with their labels in the chosen language. */
  options?: FieldOption[];
  /**
   * A relation (of each item, for an array of ids): options come from the referenced entity's
   * `options` route (or the organisation tree); `unusedBy` (`x-ref.free`) offers only rows nothing
   * uses through this property yet.
   */
  ref?: { entity: string; as: string; unusedBy?: string };
  /** Number bounds and whether only integers are allowed. */
  min?: number;
  max?: number;
  integer?: boolean;
  maxLength?: number;
  /** The schema's `default`, the initial value of a create form. */
  defaultValue?: unknown;
}

function widgetOf(p: PropertySchema): FormWidget {
  const ref = p['x-ref'];
  const w = p['x-ui']?.widget;
  if (ref) return ref.entity === 'organisation' ? 'treeSelect' : w === 'treeSelect' ? 'treeSelect' : 'select';
  // A date widget on a date-time property picks the time too.
  if ((w === 'date' || !w) && isDateTime(p)) return 'dateTime';
  if (w) return w;
  if (p.enum) return 'select';
  if (baseType(p) === 'boolean') return 'switch';
  if (isNumeric(p)) return 'number';
  if (isDate(p)) return 'date';
  if (baseType(p) === 'array' && p.items?.['x-ref']) return 'multiSelect';
  if (baseType(p) === 'array' && p.items?.enum) return 'checkboxes';
  if (baseType(p) === 'object' || baseType(p) === 'array') return 'json';
  if (p.format === 'login-password' || p.format === 'strong-password') return 'password';
  return 'text';
}

/**
 * The create/edit form of an entity: every writable property (not read-only, not a relation label,
 * not `x-ui.hideInForm`) in `x-ui.order`, labelled in the chosen language, required as the schema says.
 */
export function toFormFields(entity: string, schema: EntitySchema, t: Translate): FieldDescriptor[] {
  const labels = relationLabels(schema);
  const required = new Set(schema.required ?? []);
  return orderedProperties(schema)
    .filter(([name, p]) => !p.readOnly && !labels.has(name) && !p['x-ui']?.hideInForm)
    .map(([name, p]) => {
      const f: FieldDescriptor = { name, label: t(fieldLabelKey(entity, name)), widget: widgetOf(p), required: required.has(name) };
      const values = p.enum ? p : p.items?.enum ? p.items : undefined;
      if (values) f.options = enumValues(values).map((v) => ({ value: v, label: t(enumLabelKey(entity, name, v)) }));
      const ref = p['x-ref'] ?? p.items?.['x-ref'];
      if (ref) f.ref = { entity: ref.entity, as: ref.as, ...(ref.free ? { unusedBy: `${entity}.${name}` } : {}) };
      if (p.minimum !== undefined) f.min = p.minimum;
      if (p.maximum !== undefined) f.max = p.maximum;
      if (isNumeric(p)) f.integer = baseType(p) === 'integer';
      if (p.maxLength !== undefined) f.maxLength = p.maxLength;
      if (p.default !== undefined) f.defaultValue = p.default;
      return f;
    });
}

/** Long forms open in a drawer, short ones in a dialog. */
export const LONG_FORM_FIELDS = 8;
