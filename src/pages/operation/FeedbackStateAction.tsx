import { Select } from 'antd';
import { useState } from 'react';
import { enumLabelKey } from '../../components/schema/labels';
import type { EntityPageContext, Row } from '../../components/schema/pageContract';
import { FEEDBACK_STATES, setFeedbackState, type FeedbackState } from '../../services/fleet';
import { feedback as notice } from '../../services/http/feedback';
import { useT } from '../../session/useT';

/**
 * A feedback's state, changed in place (`feedback/{id}/{state}`): the select shows the stored state
 * and goes back to it when the server refuses (its message shown by the console's usual handling).
 */
export default function FeedbackStateAction({ row, ctx }: { row: Row; ctx: EntityPageContext }) {
  const t = useT();
  const [saving, setSaving] = useState(false);
  const change = async (state: FeedbackState) => {
    setSaving(true);
    try {
      await setFeedbackState(row.id, state);
      void notice().message.success(
        t('console.feedback.stateChanged', { title: String(row.title ?? ''), state: t(enumLabelKey('feedback', 'status', state)) }),
      );
      ctx.reload();
    } catch {
      // the request config showed the refusal; the select still shows the stored state
    } finally {
      setSaving(false);
    }
  };
  return (
    <Select<FeedbackState>
      size="small"
      style={{ width: 110 }}
      data-testid="row-feedback-state"
      aria-label={t('console.feedback.state')}
      value={row.status as FeedbackState}
      loading={saving}
      disabled={saving}
      onChange={(v) => void change(v)}
      options={FEEDBACK_STATES.map((s) => ({ value: s, label: t(enumLabelKey('feedback', 'status', s)) }))}
    />
  );
}
