import { Alert, Button, Modal, Popconfirm, Typography } from 'antd';
import { useState } from 'react';
import { entityPage } from '../../components/schema/EntityPage';
import type { Row } from '../../components/schema/pageContract';
import CopyField from '../../components/secret/CopyField';
import { INTER_MEMBER_RESET_CODE as RESET_CODE, resetInterMemberPassword as resetPassword, type ResetAnswer } from '../../services/fleet';
import Permission from '../../session/Permission';
import { useT } from '../../session/useT';

/** Resets a member's password after confirmation, then shows the new one once, with copy. */
function ResetAction({ row }: { row: Row }) {
  const t = useT();
  const [answer, setAnswer] = useState<ResetAnswer | null>(null);
  const name = String(row.name ?? '');

  const reset = async () => {
    try {
      setAnswer(await resetPassword(row.id));
    } catch {
      // the request layer showed the failure
    }
  };

  return (
    <>
      <Popconfirm title={t('console.interMember.resetConfirm', { name })} okText={t('console.interMember.reset')} onConfirm={reset}>
        <a data-testid="row-reset-password">{t('console.interMember.resetAction')}</a>
      </Popconfirm>
      {answer && (
        // Closing forgets the password: it cannot be shown again.
        <Modal
          open
          title={t('console.interMember.resetTitle', { name })}
          onCancel={() => setAnswer(null)}
          footer={<Button onClick={() => setAnswer(null)}>{t('console.interMember.close')}</Button>}
          destroyOnHidden
        >
          <div data-testid="reset-password-result">
            <Typography.Paragraph>{answer.message}</Typography.Paragraph>
            <Typography.Text strong>{t('console.interMember.password')}</Typography.Text>
            <CopyField
              value={answer.password}
              monospace
              style={{ margin: '4px 0 12px' }}
              testId="reset-password-value"
              copyTestId="reset-password-copy"
            />
            <Alert type="warning" showIcon message={t('console.interMember.once')} />
          </div>
        </Modal>
      )}
    </>
  );
}

/**
 * International members (page key `system/interMember`): the schema page, with a password reset per
 * row for holders of interMember-reset.
 */
export default entityPage('interMember', {
  rowActions: (row) => [
    <Permission key="reset" code={RESET_CODE}>
      <ResetAction row={row} />
    </Permission>,
  ],
});
