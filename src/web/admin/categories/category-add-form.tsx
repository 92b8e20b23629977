import { Button, Group, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import { useAddCategory } from '../../api/categories';
import { useTranslation } from '../../i18n';
import { failureReason } from '../../lib/api-errors';
import { CATEGORY_NAME_MAX, checkCategoryName } from './category-name';

/** Input + 'Agregar'; Enter submits. The name is checked with ZCategoryInput before it is sent. */
export function CategoryAddForm() {
  const { t } = useTranslation();
  const add = useAddCategory();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (add.isPending) return;
    const check = checkCategoryName(value);
    if (!check.ok) {
      setError(t(`categories.errors.${check.error}`));
      return;
    }
    setError(null);
    try {
      const created = await add.mutateAsync({ name: check.name });
      setValue('');
      notifications.show({ color: 'green', title: t('categories.added'), message: t('categories.addedMessage', { name: created.name }) });
    } catch (err) {
      const reason = failureReason(err, { field: 'name', networkMessage: t('common.networkError') });
      setError(reason ? t('categories.addFailedReason', { reason }) : t('categories.addFailed'));
    }
  }

  return (
    <form onSubmit={handleSubmit} noValidate>
      <TextInput
        label={t('categories.newLabel')}
        placeholder={t('categories.newPlaceholder')}
        value={value}
        onChange={(event) => {
          setValue(event.currentTarget.value);
          setError(null);
        }}
        error={error}
        maxLength={CATEGORY_NAME_MAX}
        autoComplete="off"
        inputContainer={(input) => (
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <div style={{ flex: 1 }}>{input}</div>
            <Button type="submit" loading={add.isPending} disabled={add.isPending}>
              {t('categories.add')}
            </Button>
          </Group>
        )}
      />
    </form>
  );
}
