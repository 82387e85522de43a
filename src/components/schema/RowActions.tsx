import { MoreOutlined } from '@ant-design/icons';
import { Dropdown } from 'antd';
import type { ReactNode } from 'react';
import { useT } from '../../session/useT';

const MENU_STYLE = {
  background: '#fff',
  borderRadius: 8,
  boxShadow: '0 6px 16px rgba(0, 0, 0, 0.12)',
  padding: '8px 16px',
  display: 'flex',
  flexDirection: 'column' as const,
  gap: 10,
};

/**
 * A row's actions: side by side on a wide screen; on a phone one "actions" link opening them in a
 * menu, so the plate and the row's figures keep the width. The actions stay the same components
 * (confirmations and dialogs included), only where they sit changes.
 */
export function rowActions(actions: ReactNode[], menu: boolean): ReactNode[] {
  if (!menu || actions.length === 0) return actions;
  return [<ActionsMenu key="menu" actions={actions} />];
}

function ActionsMenu({ actions }: { actions: ReactNode[] }) {
  const t = useT();
  return (
    <Dropdown
      trigger={['click']}
      popupRender={() => (
        <div style={MENU_STYLE} data-testid="row-menu">
          {actions}
        </div>
      )}
    >
      <a data-testid="row-more" aria-label={t('console.schema.actions')}>
        {t('console.schema.actions')} <MoreOutlined />
      </a>
    </Dropdown>
  );
}
