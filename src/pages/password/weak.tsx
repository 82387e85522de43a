import { history, Navigate } from '@umijs/max';
import { Alert, Button, Card, Typography } from 'antd';
import ChangePasswordForm from '../../components/password/ChangePasswordForm';
import { feedback } from '../../services/http/feedback';
import { clearWeakLogin, loadWeakLogin } from '../../session/session';
import { LOGIN_THEME_COLOR } from '../../session/theme';
import { useT } from '../../session/useT';

/** /password/weak: a login refused for a weak password changes it here with its one-purpose token. */
export default function WeakPasswordPage() {
  const t = useT();
  const weak = loadWeakLogin();
  if (!weak) return <Navigate to="/login" replace />;
  const back = () => {
    clearWeakLogin();
    history.replace('/login');
  };
  return (
    <div style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', background: LOGIN_THEME_COLOR }}>
      <Card
        style={{ width: 440 }}
        title={t('console.password.title')}
        extra={
          <Button type="link" onClick={back}>
            {t('console.password.backToLogin')}
          </Button>
        }
      >
        <Alert
          type="warning"
          showIcon
          message={t('console.password.weakTitle')}
          description={t('console.password.weakHint')}
          style={{ marginBottom: 16 }}
        />
        <Typography.Paragraph type="secondary">{weak.loginName}</Typography.Paragraph>
        <ChangePasswordForm
          uid={weak.uid}
          token={weak.token}
          onChanged={(message) => {
            void feedback().message.success(message);
            back();
          }}
        />
      </Card>
    </div>
  );
}
