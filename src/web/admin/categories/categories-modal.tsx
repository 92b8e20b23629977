import { Modal } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from '../../i18n';
import { CategoriesManager } from './categories-manager';

export interface CategoriesModalProps {
  opened: boolean;
  onClose: () => void;
}

/** 'Categorías' (SPEC §2 modals, admin only): list, add, rename and delete categories. */
export function CategoriesModal({ opened, onClose }: CategoriesModalProps) {
  const { t } = useTranslation();
  const isMobile = useMediaQuery('(max-width: 48em)');

  return (
    // The stack lets the delete confirmation sit on top: Escape and focus belong to the top window only.
    <Modal.Stack>
      <Modal
        stackId="categories"
        opened={opened}
        onClose={onClose}
        title={t('categories.title')}
        size="lg"
        fullScreen={isMobile}
        centered
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        {opened && <CategoriesManager isCompact={isMobile ?? false} />}
      </Modal>
    </Modal.Stack>
  );
}
