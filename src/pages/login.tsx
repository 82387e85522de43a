import { history, useLocation } from '@umijs/max';
import { Alert, Button, Card, Checkbox, Form, Input, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { LOGIN_PASSWORD } from '../../schemas/kit/password';
import { failureOf } from '../services/http/failureOf';
import { forgetLoginName, rememberedLoginName, rememberLoginName } from '../session/session';
import { safeRedirect } from '../session/guard';
import { takePendingLogin } from '../session/pendingLogin';
import { signIn } from '../session/signIn';
import { LOGIN_THEME_COLOR } from '../session/theme';
import { useT } from '../session/useT';

interface Values {
  loginName: string;
  password: string;
  remember: boolean;
}

/** Login (SPEC.md §5): the shared rules and messages; the password is never stored. */
export default function LoginPage() {
  const t = useT();
  const { search } = useLocation();
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (values: Partial<Values>) => {
    const body = { loginName: (values.loginName ?? '').trim(), password: values.password ?? '' };
    setBusy(true);
    setError(undefined);
    try {
      const outcome = await signIn(body.loginName, body.password);
      if (values.remember === false) forgetLoginName();
      else rememberLoginName(body.loginName);
      if (outcome.kind === 'weakPassword') history.replace('/password/weak');
      else history.replace(safeRedirect(new URLSearchParams(search).get('redirect')));
    } catch (e) {
      setError(failureOf(e).message ?? (e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  // Credentials handed over by /login/{userName}/{password}: sign in straight away.
  useEffect(() => {
    const pending = takePendingLogin();
    if (pending) {
      form.setFieldsValue({ loginName: pending.loginName });
      void submit({ ...pending, remember: false });
    }
    // Once, on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <div style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', background: LOGIN_THEME_COLOR }}>
      <Card style={{ width: 380 }}>
        <Typography.Title level={3} style={{ marginBottom: 0 }}>
          {t('console.login.title')}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t('console.login.subtitle')}</Typography.Paragraph>
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="login-error" />}
        <Form
          form={form}
          layout="vertical"
          onFinish={submit}
          requiredMark={false}
          initialValues={{ loginName: rememberedLoginName(), remember: true }}
        >
          <Form.Item
            name="loginName"
            label={t('console.login.loginName')}
            rules={[{ required: true, whitespace: true, message: t('console.login.loginNameRequired') }]}
          >
            <Input autoComplete="username" autoFocus />
          </Form.Item>
          {/* SPEC.md §5, with the kit's pattern the server's login schema uses. (The console runs
              under a CSP without eval, so it checks with patterns rather than compiling ajv.) */}
          <Form.Item
            name="password"
            label={t('console.login.password')}
            rules={[
              { required: true, message: t('validation.loginPassword.required') },
              { pattern: LOGIN_PASSWORD, message: t('validation.loginPassword.format') },
            ]}
          >
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Form.Item name="remember" valuePropName="checked">
            <Checkbox>{t('console.login.rememberName')}</Checkbox>
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy}>
            {t(busy ? 'console.login.signingIn' : 'console.login.submit')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
