import { Progress, Space, Typography } from 'antd';
import { passwordStrength, type PasswordStrength } from '../../../schemas/kit/password';
import { useT } from '../../session/useT';

const LEVEL: Record<PasswordStrength, { steps: number; color: string }> = {
  weak: { steps: 1, color: '#f5222d' },
  medium: { steps: 2, color: '#faad14' },
  strong: { steps: 3, color: '#52c41a' },
};

/** Live strength of the new password (the shared kit's rules: weak / medium / strong). */
export default function StrengthMeter({ password }: { password: string }) {
  const t = useT();
  if (!password) return null;
  const level = passwordStrength(password);
  return (
    <Space size={8} data-testid="strength-meter" data-strength={level}>
      <Typography.Text type="secondary">{t('console.password.strength')}</Typography.Text>
      <Progress steps={3} percent={(LEVEL[level].steps / 3) * 100} strokeColor={LEVEL[level].color} showInfo={false} size={[32, 6]} />
      <Typography.Text style={{ color: LEVEL[level].color }}>{t(`validation.password.strength.${level}`)}</Typography.Text>
    </Space>
  );
}
