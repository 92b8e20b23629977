import { Modal } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from '../../i18n';
import { ApplicationsManager } from './applications-manager';

export interface ApplicationsModalProps {
  opened: boolean;
  onClose: () => void;
}

/** 'Solicitudes' (platform admins): the requests to sell, approved or declined with a reason. */
export function ApplicationsModal({ opened, onClose }: ApplicationsModalProps) {
  const { t } = useTranslation();
  const isMobile = useMediaQuery('(max-width: 48em)');
  return (
    // The stack lets the decline window sit on top: Escape and focus belong to the top window only.
    <Modal.Stack>
      <Modal
        stackId="applications"
        opened={opened}
        onClose={onClose}
        title={t('admin.applications.title')}
        size="50rem"
        fullScreen={isMobile}
        centered
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        {opened && <ApplicationsManager />}
      </Modal>
    </Modal.Stack>
  );
}
