import { Alert, Modal } from 'antd';
import { loadSession } from '../../session/session';
import { feedback } from '../../services/http/feedback';
import { forgetSession } from '../../session/logout';
import { closePasswordDialog, usePasswordDialog } from '../../session/passwordDialogStore';
import { useT } from '../../session/useT';
import ChangePasswordForm from './ChangePasswordForm';
import { history } from '@umijs/max';

/**
 * "Change password" (SPEC.md §2 calls it 重置密码; the menu entry that opens it says 修改密码, and so does its title). On a first sign-in it cannot be dismissed and says why. A change
 * revokes every session of the member on the server, so success ends with logging out.
 */
export default function ChangePasswordDialog() {
  const t = useT();
  const { open, forced } = usePasswordDialog();
  const session = loadSession();
  if (!session) return null;
  return (
    <Modal
      open={open}
      title={t('console.password.title')}
      footer={null}
      closable={!forced}
      maskClosable={!forced}
      keyboard={!forced}
      onCancel={closePasswordDialog}
      destroyOnHidden
      width={460}
    >
      {forced && <Alert type="warning" showIcon message={t('console.password.firstSign')} style={{ marginBottom: 16 }} />}
      <ChangePasswordForm
        uid={session.uid}
        onCancel={forced ? undefined : closePasswordDialog}
        onChanged={(message) => {
          void feedback().message.success(message);
          closePasswordDialog();
          forgetSession();
          history.replace('/login');
        }}
      />
    </Modal>
  );
}
