import { Modal, Tabs } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { Me } from '../../../domain/api-types.js';
import { isAdmin } from '../../../domain/role-rules.js';
import { useTranslation } from '../../i18n';
import { isUsersTab } from '../panel-url';
import { usePanelWindow } from '../use-panel-window';
import { InvitationsPanel } from './invitations-panel';
import { UsersManager } from './users-manager';

export interface UsersModalProps {
  opened: boolean;
  onClose: () => void;
  me: Me;
}

/** 'Usuarios' (SPEC §2 modals, admin only): role filter, search, roles and company; and the seller invitations. */
export function UsersModal({ opened, onClose, me }: UsersModalProps) {
  const { t } = useTranslation();
  const isMobile = useMediaQuery('(max-width: 48em)') ?? false;
  // An admin who just removed its own admin role must not keep the window open.
  const isOpen = opened && isAdmin(me.roles);
  const { state: windowState, set } = usePanelWindow();

  return (
    // The stack puts 'Editar roles' on top: Escape and focus belong to the top window only.
    <Modal.Stack>
      <Modal
        stackId="users"
        opened={isOpen}
        onClose={onClose}
        title={t('users.title')}
        size="70rem"
        fullScreen={isMobile}
        centered
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        {isOpen && (
          // keepMounted off: each tab starts clean; the tab lives in the URL, so Back returns to the other one.
          <Tabs
            value={windowState.tab}
            onChange={(value) => {
              if (isUsersTab(value)) set({ tab: value, role: 'all', search: '', page: 1 });
            }}
            keepMounted={false}
          >
            <Tabs.List mb="md">
              <Tabs.Tab value="users">{t('users.tabs.users')}</Tabs.Tab>
              <Tabs.Tab value="invitations">{t('users.tabs.invitations')}</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="users">
              <UsersManager me={me} isCompact={isMobile} />
            </Tabs.Panel>
            <Tabs.Panel value="invitations">
              <InvitationsPanel me={me} isCompact={isMobile} />
            </Tabs.Panel>
          </Tabs>
        )}
      </Modal>
    </Modal.Stack>
  );
}
