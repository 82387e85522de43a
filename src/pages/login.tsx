import { history, useIntl } from '@umijs/max';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { createAjv } from '../../schemas/kit/ajv';
import { renderFieldError, toFieldErrors } from '../../schemas/kit/errors';
import { loginBodySchema } from '../../schemas/kit/loginSchema';
import { login, type ApiError } from '../services/api';
import { saveSession } from '../services/session';

const validateLogin = createAjv().compile(loginBodySchema);

export default function LoginPage() {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number | undefined>) => intl.formatMessage({ id }, values);
  const [form] = Form.useForm<{ loginName: string; password: string }>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (values: { loginName?: string; password?: string }) => {
    const body = { loginName: values.loginName ?? '', password: values.password ?? '' };
    // The same schema and messages as the server's check.
    if (!validateLogin(body)) {
      const fes = toFieldErrors(validateLogin.errors, 'login.fields');
      form.setFields(fes.map((fe) => ({ name: fe.field as 'loginName' | 'password', errors: [renderFieldError(fe, t)] })));
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const r = await login(body.loginName, body.password);
      saveSession({ ...r.object, loginName: body.loginName });
      history.replace('/');
    } catch (e) {
      setError((e as ApiError).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', background: '#0c3467' }}>
      <Card style={{ width: 380 }}>
        <Typography.Title level={3} style={{ marginBottom: 0 }}>
          {t('console.login.title')}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t('console.login.subtitle')}</Typography.Paragraph>
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
        <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
          <Form.Item name="loginName" label={t('console.login.loginName')}>
            <Input autoComplete="username" autoFocus />
          </Form.Item>
          <Form.Item name="password" label={t('console.login.password')}>
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy}>
            {t('console.login.submit')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
