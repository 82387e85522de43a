import { useIntl } from '@umijs/max';
import { Alert, Modal, Spin, Tag, Tree } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import type { Catalogue } from '../../../../schemas/kit/i18n';
import { showCallFailure } from '../../../components/system/submitFailure';
import { feedback } from '../../../services/http/feedback';
import { allResources, assignableResources, authorizeRole, type Application, type Role } from '../../../services/passport';
import { menuTitles } from '../../../session/menuTitles';
import { useT } from '../../../session/useT';
import { grantsToSave, grantTree, idsOf, shownChecks, toggleGrant, type GrantNode } from './grantTree';

export interface AuthorizeDialogProps {
  application: Application;
  role: Role;
  onClose: () => void;
}

type Loaded = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; tree: GrantNode[] };

/** Grant a role the menus and actions of its application that the caller may grant (SPEC.md §6). */
export default function AuthorizeDialog({ application, role, onClose }: AuthorizeDialogProps) {
  const t = useT();
  const intl = useIntl();
  const titleOf = useMemo(() => menuTitles(intl.messages as Catalogue), [intl.messages]);
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [granted, setGranted] = useState<Set<number>>(new Set());
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    Promise.all([allResources(application), assignableResources(application, role.id)])
      .then(([all, assignable]) => {
        if (!live) return;
        setLoaded({ status: 'ready', tree: grantTree(all, new Set(idsOf(assignable.resources)), titleOf) });
        setGranted(new Set(assignable.granted));
      })
      .catch(() => live && setLoaded({ status: 'failed' }));
    return () => {
      live = false;
    };
  }, [application, role.id, titleOf]);

  const save = async () => {
    setSaving(true);
    try {
      await authorizeRole(application, role.id, grantsToSave(granted));
      void feedback().message.success(t('console.system.role.authorizeSaved'));
      onClose();
    } catch (e) {
      showCallFailure(e, t('console.system.role.authorizeFailed'));
    } finally {
      setSaving(false);
    }
  };

  const tree = loaded.status === 'ready' ? loaded.tree : [];
  return (
    <Modal
      open
      title={t('console.system.role.authorizeTitle', { name: role.name })}
      width={640}
      onCancel={onClose}
      onOk={save}
      okButtonProps={{ disabled: loaded.status !== 'ready', loading: saving }}
      okText={t('console.system.actions.save')}
      cancelText={t('console.system.actions.cancel')}
      styles={{ body: { maxHeight: '60vh', overflowY: 'auto' } }}
    >
      <div data-testid="authorize-dialog">
        {loaded.status === 'loading' && <Spin style={{ display: 'block', margin: '32px auto' }} />}
        {loaded.status === 'failed' && <Alert type="error" showIcon message={t('console.system.messages.loadFailed')} />}
        {loaded.status === 'ready' && (
          <>
            <Alert type="info" showIcon style={{ marginBottom: 12 }} message={t('console.system.role.authorizeHint')} />
            <Tree<GrantNode>
              checkable
              checkStrictly
              selectable={false}
              defaultExpandAll
              treeData={tree}
              checkedKeys={shownChecks(tree, granted)}
              onCheck={(_, info) => setGranted((g) => toggleGrant(g, info.node, info.checked))}
              titleRender={(n) => (
                <span data-code={n.code}>
                  {n.title} <span style={{ color: '#999', fontSize: 12 }}>{n.code}</span>
                  {n.kind === 'Action' && (
                    <Tag bordered={false} style={{ marginInlineStart: 6 }}>
                      {t('console.system.kinds.Action')}
                    </Tag>
                  )}
                </span>
              )}
            />
          </>
        )}
      </div>
    </Modal>
  );
}
