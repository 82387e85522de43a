import { Button, Form, Input, Popover, Space } from 'antd';
import { useState } from 'react';
import { passwordViolations } from '../../../schemas/kit/password';
import { LOGIN_PASSWORD } from '../../../schemas/kit/password';
import { reportFailure } from '../../services/http/config';
import { feedback } from '../../services/http/feedback';
import { failureOf } from '../../services/http/failureOf';
import { changePassword } from '../../services/passport';
import { applyFieldErrors } from '../form/fieldErrors';
import { useT } from '../../session/useT';
import PasswordRules from './PasswordRules';
import StrengthMeter from './StrengthMeter';

interface Values {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export interface ChangePasswordFormProps {
  uid: string;
  /** The weak-password token; the session's otherwise. */
  token?: string;
  /** After the server accepted the change, with its message. */
  onChanged: (message: string) => void;
  onCancel?: () => void;
}

/** Old, new and confirm password (SPEC.md §5), with the rules popover and a live strength meter. */
export default function ChangePasswordForm({ uid, token, onChanged, onCancel }: ChangePasswordFormProps) {
  const t = useT();
  const [form] = Form.useForm<Values>();
  const newPassword = Form.useWatch('newPassword', form) ?? '';
  const [busy, setBusy] = useState(false);
  const label = (k: string) => t(`console.password.${k}`);

  const submit = async (v: Values) => {
    setBusy(true);
    try {
      const r = await changePassword({ oldPassword: v.oldPassword, newPassword: v.newPassword, uid }, token);
      onChanged(r.message);
    } catch (e) {
      const f = failureOf(e);
      if (f.status === 401) reportFailure(e);
      else {
        // A refusal of a field is said once, on its field; only what names no field is a toast.
        const elsewhere = applyFieldErrors(form, f.errors, ['oldPassword', 'newPassword', 'confirmPassword']);
        if (elsewhere.length || f.errors.length === 0) void feedback().message.error(f.message ?? t('console.password.changeFailed'), 5);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form form={form} layout="vertical" onFinish={submit} requiredMark={false} data-testid="change-password-form">
      <Form.Item
        name="oldPassword"
        label={label('oldPassword')}
        rules={[
          { required: true, message: t('validation.required', { field: label('oldPassword') }) },
          { pattern: LOGIN_PASSWORD, message: label('oldLength') },
        ]}
      >
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Popover placement="right" trigger="focus" title={label('rules')} content={<PasswordRules password={newPassword} />}>
        <Form.Item
          name="newPassword"
          label={label('newPassword')}
          extra={<StrengthMeter password={newPassword} />}
          rules={[
            { required: true, message: t('validation.required', { field: label('newPassword') }) },
            {
              validator: (_, v: string | undefined) =>
                !v || passwordViolations(v).length === 0 ? Promise.resolve() : Promise.reject(new Error(t('validation.password.tooWeak'))),
            },
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Popover>
      <Form.Item
        name="confirmPassword"
        label={label('confirmPassword')}
        dependencies={['newPassword']}
        rules={[
          { required: true, message: t('validation.confirmPassword.required') },
          ({ getFieldValue }) => ({
            validator: (_, v: string | undefined) =>
              !v || v === getFieldValue('newPassword')
                ? Promise.resolve()
                : Promise.reject(new Error(t('validation.confirmPassword.mismatch'))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Space style={{ width: '100%', justifyContent: 'flex-end' }}>
        {onCancel && <Button onClick={onCancel}>{label('cancel')}</Button>}
        <Button type="primary" htmlType="submit" loading={busy}>
          {label('submit')}
        </Button>
      </Space>
    </Form>
  );
}
