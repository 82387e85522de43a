import type { Translate } from '../../../../schemas/kit/i18n';
import { itemTitle } from '../../../components/schema/labels';
import type { AuditRecord } from '../../../services/passport';

/** `t(key)`, or null where the catalogue has no such key (formatMessage answers the key itself). */
const known = (t: Translate, key: string): string | null => {
  const text = t(key);
  return text === key ? null : text;
};

/** The thing an entry acted on, named: "账号：赵六", "车辆 #12（已删除）", else the target as written. */
export function targetText(r: Pick<AuditRecord, 'target' | 'targetKind' | 'targetName'>, t: Translate): string {
  if (!r.targetKind) return r.target ?? '-';
  const kind = itemTitle(t, r.targetKind);
  if (r.targetName) return t('console.system.log.targetNamed', { kind, name: r.targetName });
  const id = r.target?.includes(':') ? r.target.slice(r.target.lastIndexOf(':') + 1) : r.target;
  return t('console.system.log.targetGone', { kind, id: id ?? '' });
}

/** Free-text details the server writes as one word, with what they mean. */
const REASON_KEYS: Record<string, string> = {
  oldPasswordWrong: 'passport.oldPasswordWrong',
  weakPassword: 'passport.weakPassword',
  'admin command': 'console.system.log.reasons.adminCommand',
};

export interface DetailLine {
  label: string;
  value: string;
}

/** A detail key's label: the target entity's field, then the log's own words, then the account form's. */
function keyLabel(t: Translate, key: string, kind: string | null): string {
  return (
    (kind && known(t, `entity.${kind}.fields.${key}`)) ??
    known(t, `console.system.log.detailKeys.${key}`) ??
    known(t, `passport.fields.${key}`) ??
    key
  );
}

function valueText(t: Translate, v: unknown): string {
  if (v === null || v === undefined || v === '') return '-';
  if (typeof v === 'boolean') return t(v ? 'console.system.log.yes' : 'console.system.log.no');
  if (Array.isArray(v)) return v.length ? v.map((x) => valueText(t, x)).join(t('console.system.log.listSeparator')) : '-';
  if (typeof v === 'object') {
    return Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${k} ${valueText(t, x)}`)
      .join(t('console.system.log.listSeparator'));
  }
  return String(v);
}

/**
 * An entry's details as the log shows them: a JSON object becomes labelled lines (field names in the
 * reader's language, yes/no, lists), a known one-word reason its sentence, other text as written.
 */
export function detailLines(detail: string | null, t: Translate, kind: string | null): DetailLine[] {
  if (!detail) return [];
  if (detail.startsWith('{')) {
    try {
      const parsed = JSON.parse(detail) as Record<string, unknown>;
      return Object.entries(parsed).map(([k, v]) => ({ label: keyLabel(t, k, kind), value: valueText(t, v) }));
    } catch {
      // Not JSON after all: shown as written below.
    }
  }
  const reason = REASON_KEYS[detail];
  return [{ label: '', value: (reason && known(t, reason)) ?? detail }];
}
