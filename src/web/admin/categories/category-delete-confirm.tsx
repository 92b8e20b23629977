import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { Category } from '../../../domain/categories.js';
import { useTranslation } from '../../i18n';

interface CategoryDeleteConfirmProps {
  /** The category asked about; kept while the window fades out. */
  category: Category | null;
  opened: boolean;
  onCancel: () => void;
  onConfirm: () => void;
  onExited: () => void;
}

/** SPEC §5: '¿Seguro que deseas eliminar esta categoría?'. Lives in the 'Categorías' modal stack. */
export function CategoryDeleteConfirm({ category, opened, onCancel, onConfirm, onExited }: CategoryDeleteConfirmProps) {
  const { t } = useTranslation();
  return (
    <Modal
      stackId="category-delete"
      opened={opened}
      onClose={onCancel}
      onExitTransitionEnd={onExited}
      title={t('categories.confirmDeleteTitle')}
      size="sm"
      centered
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack gap="md">
        <Text>{t('categories.confirmDelete')}</Text>
        {category && (
          <Text fw={600} size="lg">
            {category.name}
          </Text>
        )}
        <Group justify="flex-end" gap="sm">
          {/* The safe choice takes the focus first. */}
          <Button variant="default" onClick={onCancel} data-autofocus>
            {t('categories.cancel')}
          </Button>
          <Button color="red" onClick={onConfirm}>
            {t('categories.delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
