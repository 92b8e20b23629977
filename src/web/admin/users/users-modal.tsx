import { Modal } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import type { Me } from '../../../domain/api-types.js';
import { isAdmin } from '../../../domain/roles.js';
import { UsersManager } from './users-manager';

export interface UsersModalProps {
  opened: boolean;
  onClose: () => void;
  me: Me;
}

/** 'Usuarios' (SPEC §2 modals, admin only): role filter, search, roles and companyId. */
export function UsersModal({ opened, onClose, me }: UsersModalProps) {
  const { t } = useTranslation();
  const isMobile = useMediaQuery('(max-width: 48em)') ?? false;
  // An admin who just removed its own admin role must not keep the window open.
  const isOpen = opened && isAdmin(me.roles);

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
        {isOpen && <UsersManager me={me} isCompact={isMobile} />}
      </Modal>
    </Modal.Stack>
  );
}
