import { ActionIcon, Box, CheckIcon, CloseIcon, Group, Text, TextInput, Tooltip } from '@mantine/core';
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import type { Category } from '../../../domain/categories.js';
import { PencilIcon, TrashIcon } from '../../components/panel-icons';
import { useTranslation } from '../../i18n';
import { CATEGORY_NAME_MAX, checkCategoryName } from './category-name';

interface CategoryRowProps {
  category: Category;
  /** false: a company admin reads the shared list, with no rename or delete. */
  canEdit: boolean;
  isEditing: boolean;
  /** A rename or delete is under way somewhere in the list: row actions wait for it. */
  isBusy: boolean;
  isSaving: boolean;
  isDeleting: boolean;
  onStartEdit: () => void;
  onCancelEdit: () => void;
  /** Resolves to an error message to show, or null once saved. */
  onRename: (name: string) => Promise<string | null>;
  onDelete: () => void;
}

/** One category: its name and how many auctions use it, with inline rename and delete. */
export function CategoryRow({ category, canEdit, isEditing, isBusy, isSaving, isDeleting, onStartEdit, onCancelEdit, onRename, onDelete }: CategoryRowProps) {
  const { t } = useTranslation();
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(isEditing);

  // Leaving the rename form puts keyboard focus back on the row's edit button.
  useEffect(() => {
    if (wasEditing.current && !isEditing) editButton.current?.focus();
    wasEditing.current = isEditing;
  }, [isEditing]);

  return (
    <Box component="li" px="sm" py="xs" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }} aria-label={category.name}>
      {isEditing && canEdit ? (
        <CategoryRenameForm category={category} isSaving={isSaving} onCancel={onCancelEdit} onRename={onRename} />
      ) : (
        <Group justify="space-between" wrap="nowrap" gap="sm" mih={36}>
          <Box miw={0}>
            <Text fw={500} truncate="end">
              {category.name}
            </Text>
            {category.auctionCount !== null && (
              <Text size="xs" c="dimmed">
                {t('categories.auctionCount', { count: category.auctionCount })}
              </Text>
            )}
          </Box>
          {canEdit && (
            <Group gap={4} wrap="nowrap">
              <Tooltip label={t('categories.edit')} withArrow>
                <ActionIcon
                  ref={editButton}
                  variant="subtle"
                  color="gray"
                  size="lg"
                  aria-label={t('categories.editNamed', { name: category.name })}
                  onClick={onStartEdit}
                  disabled={isBusy}
                >
                  <PencilIcon />
                </ActionIcon>
              </Tooltip>
              <Tooltip label={t('categories.delete')} withArrow>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  size="lg"
                  aria-label={t('categories.deleteNamed', { name: category.name })}
                  onClick={onDelete}
                  data-category-delete={category.id}
                  loading={isDeleting}
                  disabled={isBusy}
                >
                  <TrashIcon />
                </ActionIcon>
              </Tooltip>
            </Group>
          )}
        </Group>
      )}
    </Box>
  );
}

interface CategoryRenameFormProps {
  category: Category;
  isSaving: boolean;
  onCancel: () => void;
  onRename: (name: string) => Promise<string | null>;
}

function CategoryRenameForm({ category, isSaving, onCancel, onRename }: CategoryRenameFormProps) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState(category.name);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isSaving) return;
    const check = checkCategoryName(value);
    if (!check.ok) {
      setError(t(`categories.errors.${check.error}`));
      return;
    }
    // Nothing changed: leave edit mode without a request.
    if (check.name === category.name) {
      onCancel();
      return;
    }
    setError(await onRename(check.name));
  }

  function handleKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Escape' && !isSaving) {
      event.preventDefault();
      onCancel();
    }
  }

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Group gap={4} wrap="nowrap" align="flex-start">
        <TextInput
          ref={input}
          flex={1}
          aria-label={t('categories.renameLabel', { name: category.name })}
          value={value}
          onChange={(event) => {
            setValue(event.currentTarget.value);
            setError(null);
          }}
          onKeyDown={handleKeyDown}
          // Escape cancels the rename instead of closing the whole 'Categorías' window.
          data-mantine-stop-propagation="true"
          error={error}
          readOnly={isSaving}
          maxLength={CATEGORY_NAME_MAX}
          autoComplete="off"
        />
        <Tooltip label={t('categories.save')} withArrow>
          <ActionIcon type="submit" size="input-sm" variant="light" color="green" aria-label={t('categories.save')} loading={isSaving} disabled={isSaving}>
            <CheckIcon size={14} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label={t('categories.cancel')} withArrow>
          <ActionIcon size="input-sm" variant="subtle" color="gray" aria-label={t('categories.cancel')} onClick={onCancel} disabled={isSaving}>
            <CloseIcon size="14" />
          </ActionIcon>
        </Tooltip>
      </Group>
    </form>
  );
}
