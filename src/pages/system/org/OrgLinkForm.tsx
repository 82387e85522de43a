import { ModalForm, ProFormText } from '@ant-design/pro-components';
import { Form } from 'antd';
import { submitModal } from '../../../components/system/formSave';
import { externalLinkRule, maxLength } from '../../../components/system/rules';
import { feedback } from '../../../services/http/feedback';
import { editOrgLink, type Org } from '../../../services/passport';
import { useT } from '../../../session/useT';

/** An organisation's external link (`PUT /org/editLink/{id}`); empty removes it. */
export default function OrgLinkForm({ org, onClose, onSaved }: { org: Org; onClose: () => void; onSaved: () => void }) {
  const t = useT();
  const [form] = Form.useForm<{ link: string }>();
  const submit = ({ link }: { link?: string }) =>
    submitModal(form, ['link'], t('console.system.messages.saveFailed'), async () => {
      await editOrgLink(org.id, link?.trim() || null);
      void feedback().message.success(t('passport.updated'));
      onSaved();
    });
  return (
    <ModalForm<{ link: string }>
      title={t('console.system.org.linkTitle', { name: org.name })}
      open
      form={form}
      width={520}
      initialValues={{ link: org.link ?? '' }}
      onOpenChange={(open) => !open && onClose()}
      onFinish={submit}
    >
      <ProFormText
        name="link"
        label={t('org.fields.link')}
        placeholder="https://"
        rules={[externalLinkRule(t, t('org.fields.link')), maxLength(t, t('org.fields.link'), 512)]}
      />
    </ModalForm>
  );
}
