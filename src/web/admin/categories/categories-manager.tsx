import { Alert, Box, Button, EmptyState, Group, Loader, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMemo, useState } from 'react';
import type { Category } from '../../../domain/categories.js';
import { foldText } from '../../../domain/text.js';
import { useCategories, useDeleteCategory, useRenameCategory } from '../../api/categories';
import { isPlatformAdmin, useMe } from '../../api/me';
import { SearchIcon, TagIcon } from '../../components/panel-icons';
import { useTranslation } from '../../i18n';
import { failureReason } from '../../lib/api-errors';
import { CategoryAddForm } from './category-add-form';
import { CategoryDeleteConfirm } from './category-delete-confirm';
import { CategoryRow } from './category-row';

/** From this many categories on, a filter box helps find one. */
const FILTER_FROM = 8;

/** The body of 'Categorías'; mounted only while the window is open, so each opening starts clean. */
export function CategoriesManager({ isCompact }: { isCompact: boolean }) {
  const { t } = useTranslation();
  const categories = useCategories();
  const me = useMe();
  // Every company shares the categories: only a platform admin changes them, a company admin reads them.
  const canEdit = Boolean(me.data && isPlatformAdmin(me.data));
  const rename = useRenameCategory();
  const remove = useDeleteCategory();
  const [editingId, setEditingId] = useState<string | null>(null);
  const [filter, setFilter] = useState('');
  const [deleteTarget, setDeleteTarget] = useState<Category | null>(null);
  const [isConfirmOpen, setConfirmOpen] = useState(false);
  const [deleteError, setDeleteError] = useState<{ name: string; reason: string | null } | null>(null);

  const list = categories.data ?? [];
  const needle = foldText(filter);
  const visible = useMemo(() => (needle ? list.filter((c) => foldText(c.name).includes(needle)) : list), [list, needle]);
  const isBusy = rename.isPending || remove.isPending;
  const networkMessage = t('common.networkError');

  async function renameCategory(category: Category, name: string): Promise<string | null> {
    try {
      const saved = await rename.mutateAsync({ id: category.id, input: { name } });
      setEditingId(null);
      notifications.show({ color: 'green', title: t('categories.renamed'), message: t('categories.renamedMessage', { name: saved.name }) });
      return null;
    } catch (error) {
      // The list may be stale (renamed or deleted by another admin): show what the server has.
      void categories.refetch();
      const reason = failureReason(error, { field: 'name', networkMessage });
      return reason ? t('categories.updateFailedReason', { reason }) : t('categories.updateFailed');
    }
  }

  function askDelete(category: Category) {
    setDeleteError(null);
    setDeleteTarget(category);
    setConfirmOpen(true);
  }

  async function deleteCategory() {
    const target = deleteTarget;
    setConfirmOpen(false);
    if (!target || remove.isPending) return;
    try {
      await remove.mutateAsync(target.id);
      if (editingId === target.id) setEditingId(null);
      notifications.show({ color: 'green', title: t('categories.deleted'), message: t('categories.deletedMessage', { name: target.name }) });
    } catch (error) {
      // A refusal 'in use' means our auction count was stale: show the server's.
      void categories.refetch();
      setDeleteError({ name: target.name, reason: failureReason(error, { networkMessage }) });
    }
  }

  return (
    <Stack gap="md">
      {canEdit ? (
        <CategoryAddForm />
      ) : (
        <Alert color="blue" variant="light" role="note" title={t('categories.readOnlyTitle')}>
          {t('categories.readOnly')}
        </Alert>
      )}
      {(list.length > FILTER_FROM || filter) && (
        <TextInput
          type="search"
          label={t('categories.filterLabel')}
          placeholder={t('categories.filterPlaceholder')}
          leftSection={<SearchIcon />}
          value={filter}
          onChange={(event) => setFilter(event.currentTarget.value)}
          autoComplete="off"
        />
      )}
      {deleteError && (
        <Alert
          color="red"
          variant="light"
          role="alert"
          title={t('categories.deleteFailed')}
          withCloseButton
          closeButtonLabel={t('common.close')}
          onClose={() => setDeleteError(null)}
        >
          {deleteError.reason ?? deleteError.name}
        </Alert>
      )}
      {categories.isPending ? (
        <Group gap="sm" py="lg" justify="center" role="status" aria-live="polite">
          <Loader size="sm" aria-hidden="true" />
          <Text>{t('categories.loading')}</Text>
        </Group>
      ) : categories.isError && !categories.data ? (
        <Alert color="red" variant="light" role="alert" title={t('categories.loadFailed')}>
          <Button size="xs" variant="outline" color="red" onClick={() => void categories.refetch()} loading={categories.isFetching}>
            {t('common.retry')}
          </Button>
        </Alert>
      ) : list.length === 0 ? (
        <EmptyState
          icon={<TagIcon size={28} />}
          withIndicatorBackground
          title={t('categories.empty')}
          description={canEdit ? t('categories.emptyHint') : undefined}
          py="lg"
        />
      ) : visible.length === 0 ? (
        <Text c="dimmed" ta="center" py="md" role="status">
          {t('categories.empty')}
        </Text>
      ) : (
        <ScrollArea.Autosize mah={isCompact ? 'calc(100dvh - 16rem)' : '55dvh'} type="auto" offsetScrollbars>
          <Box
            component="ul"
            aria-label={t('categories.listLabel')}
            m={0}
            p={0}
            style={{
              listStyle: 'none',
              border: '1px solid var(--mantine-color-default-border)',
              borderBottom: 0,
              borderRadius: 'var(--mantine-radius-default)',
            }}
          >
            {visible.map((category) => (
              <CategoryRow
                key={category.id}
                category={category}
                canEdit={canEdit}
                isEditing={editingId === category.id}
                isBusy={isBusy}
                isSaving={rename.isPending && rename.variables?.id === category.id}
                isDeleting={remove.isPending && remove.variables === category.id}
                onStartEdit={() => setEditingId(category.id)}
                onCancelEdit={() => setEditingId(null)}
                onRename={(name) => renameCategory(category, name)}
                onDelete={() => askDelete(category)}
              />
            ))}
          </Box>
        </ScrollArea.Autosize>
      )}
      <CategoryDeleteConfirm
        category={deleteTarget}
        opened={isConfirmOpen}
        onCancel={() => setConfirmOpen(false)}
        onConfirm={() => void deleteCategory()}
        onExited={() => {
          if (isConfirmOpen) return;
          // Back to the row's delete button (when the row is still there), not the window's first button.
          if (deleteTarget) document.querySelector<HTMLElement>(`[data-category-delete="${CSS.escape(deleteTarget.id)}"]`)?.focus();
          setDeleteTarget(null);
        }}
      />
    </Stack>
  );
}
