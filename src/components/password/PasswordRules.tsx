import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import { Space } from 'antd';
import { PASSWORD_RULES, passwordViolations } from '../../../schemas/kit/password';
import { useT } from '../../session/useT';

/** The password rules, each marked kept or broken by the password typed so far. */
export default function PasswordRules({ password }: { password: string }) {
  const t = useT();
  const broken = new Set(passwordViolations(password));
  return (
    <Space direction="vertical" size={2} data-testid="password-rules">
      {PASSWORD_RULES.map((rule) => {
        const ok = password !== '' && !broken.has(rule);
        return (
          <span key={rule} data-rule={rule} data-ok={ok}>
            {ok ? (
              <CheckCircleFilled style={{ color: '#52c41a' }} />
            ) : (
              <CloseCircleFilled style={{ color: password ? '#f5222d' : '#bfbfbf' }} />
            )}{' '}
            {t(`validation.password.rules.${rule}`)}
          </span>
        );
      })}
    </Space>
  );
}
