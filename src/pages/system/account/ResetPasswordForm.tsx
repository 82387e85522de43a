import { ProForm, ProFormText } from '@ant-design/pro-components';
import PasswordInput from '../../../components/password/PasswordInput';
import { Form } from 'antd';
import DialogForm from '../../../components/system/DialogForm';
import { submitModal } from '../../../components/system/formSave';
import { accountPasswordRule, confirmRule, required } from '../../../components/system/rules';
import { feedback } from '../../../services/http/feedback';
import { resetPassword, type Member } from '../../../services/passport';
import { useT } from '../../../session/useT';

type Values = { password: string; confirmPassword: string };

/** A new password for an account (`PUT member/reset-password`); it must be changed at the next sign-in. */
export default function ResetPasswordForm({ member, onClose }: { member: Member; onClose: () => void }) {
  const t = useT();
  const [form] = Form.useForm<Values>();
  const submit = ({ password }: Values) =>
    submitModal(form, ['password'], t('console.system.account.resetFailed'), async () => {
      const r = await resetPassword(member.id, password);
      void feedback().message.success(r.message || t('console.system.account.resetSuccess'));
    });
  return (
    <DialogForm<Values>
      title={t('console.system.account.resetTitle', { name: member.name })}
      form={form}
      width={440}
      onClose={onClose}
      onFinish={submit}
    >
      <ProForm.Item
        name="password"
        label={t('passport.fields.newPassword')}
        rules={[required(t, t('passport.fields.newPassword')), accountPasswordRule(t)]}
      >
        <PasswordInput />
      </ProForm.Item>
      <ProFormText.Password
        name="confirmPassword"
        label={t('passport.fields.confirmPassword')}
        dependencies={['password']}
        rules={[{ required: true, message: t('validation.confirmPassword.required') }, confirmRule(t, 'password')]}
        fieldProps={{ autoComplete: 'new-password' }}
      />
    </DialogForm>
  );
}
